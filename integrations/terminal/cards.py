"""The terminal's citation cards: a short markup paragraph per source document, printed under a
rule; under each quote, what its check found on the page (``citebot ask`` waits a few seconds
for it).

Every source's URL is printed as text (dim, under its title), in the cards and in the
also-consulted list alike: a title's OSC 8 link is lost when the output is piped and never
shows in a terminal that does not support it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape as rich_escape

from bot.i18n.wording import Labels
from bot.render.numbering import CitationCard
from bot.render.text import clip, superscript
from bot.render.thread import source_title, verdict_line
from bot.upstream.citations import Citation
from bot.verify import Verdict
from integrations.terminal.markdown import rich_link

__all__ = ["also_consulted", "document", "related"]


def document(passages: Sequence[CitationCard], labels: Labels) -> str:
    """One source document's cited passages (its citation cards, in footnote order) under its
    title and URL printed once, as on Discord and Slack: the footnote numbers lead the title;
    with several numbers each passage is headed by its own, and the sentences a number
    supports follow its first passage."""
    numbers = list(dict.fromkeys(p.number for p in passages))
    numbered = len(numbers) > 1
    shared_reference = len({p.citation.reference for p in passages}) == 1
    first = passages[0].citation
    marks = " ".join(superscript(n) for n in numbers)
    lines = [
        f"[bold]{marks} {_title(first, labels)}[/bold]"
        + _about(first, with_reference=shared_reference)
    ]
    if first.source_url:
        lines.append(f"[dim]{rich_escape(first.source_url)}[/dim]")
    said: set[int] = set()
    for passage in passages:
        lines += _passage(passage, labels, numbered=numbered, reference=not shared_reference)
        if passage.supports and passage.number not in said:
            said.add(passage.number)
            lines.append(_supports(passage, labels, numbered=numbered))
    return "\n".join(lines)


def _passage(card: CitationCard, labels: Labels, *, numbered: bool, reference: bool) -> list[str]:
    """Its name (number among several, heading, reference where they differ), its quote, and
    what its check found."""
    c = card.citation
    name = [f"[bold]{superscript(card.number)}[/bold]"] if numbered else []
    if c.heading:
        name.append(f"[bold]{rich_escape(c.heading)}[/bold]")
    if reference and c.reference:
        name.append(rich_escape(c.reference))
    lines = ["│ " + " · ".join(name)] if name else []
    if c.cited_text:
        quote = rich_escape(clip(c.cited_text, 1500))
        lines.append("[italic]│ " + quote.replace("\n", "\n│ ") + "[/italic]")
        verdict = verdict_line(card.quote_check, labels)
        if verdict:
            style = "green" if card.quote_check is Verdict.FOUND else "yellow"
            lines.append(f"[{style}]{rich_escape(verdict)}[/{style}]")
    return lines


def _supports(card: CitationCard, labels: Labels, *, numbered: bool) -> str:
    said = rich_escape(" … ".join(card.supports))
    lead = rich_escape(labels.supports_lead)
    if numbered:
        lead = f"{superscript(card.number)} {lead}"
    return f"[dim]{lead} {labels.quoted.format(quote=said)}[/dim]"


def also_consulted(citations: Sequence[Citation], labels: Labels) -> str:
    lines = [f"[bold]{rich_escape(labels.also_consulted)}[/bold]"]
    for c in citations:
        lines.append("• " + _title(c, labels) + _about(c, with_reference=False))
        if c.source_url:
            lines.append(f"  [dim]{rich_escape(c.source_url)}[/dim]")
    return "\n".join(lines)


def related(questions: Sequence[str], labels: Labels) -> str:
    lines = [f"[bold]{rich_escape(labels.related)}[/bold]"]
    lines += [f"{index + 1}. {rich_escape(q)}" for index, q in enumerate(questions)]
    return "\n".join(lines)


def _title(c: Citation, labels: Labels) -> str:
    title = rich_escape(source_title(c, labels))
    return rich_link(title, c.source_url) if c.source_url else title


def _about(c: Citation, *, with_reference: bool) -> str:
    parts = [c.author, c.year, c.reference if with_reference else None]
    about = " · ".join(rich_escape(part) for part in parts if part)
    return f" — {about}" if about else ""
