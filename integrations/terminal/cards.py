"""The terminal's citation cards: a short markup paragraph per source, printed under a rule;
under each quote, what its check found on the page (``citebot ask`` waits a few seconds for it).

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

__all__ = ["also_consulted", "card", "related"]


def card(card: CitationCard, labels: Labels) -> str:
    c = card.citation
    lines = [
        f"[bold]{superscript(card.number)} {_title(c, labels)}[/bold]"
        + _about(c, with_reference=True)
    ]
    if c.source_url:
        lines.append(f"[dim]{rich_escape(c.source_url)}[/dim]")
    if c.heading:
        lines.append(f"│ [bold]{rich_escape(c.heading)}[/bold]")
    if c.cited_text:
        quote = rich_escape(clip(c.cited_text, 1500))
        lines.append("[italic]│ " + quote.replace("\n", "\n│ ") + "[/italic]")
        verdict = verdict_line(card.quote_check, labels)
        if verdict:
            style = "green" if card.quote_check is Verdict.FOUND else "yellow"
            lines.append(f"[{style}]{rich_escape(verdict)}[/{style}]")
    if card.supports:
        said = rich_escape(" … ".join(card.supports))
        lines.append(
            f"[dim]{rich_escape(labels.supports_lead)} {labels.quoted.format(quote=said)}[/dim]"
        )
    return "\n".join(lines)


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
