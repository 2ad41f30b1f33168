"""The terminal's citation cards: a short markup paragraph per source document, printed under a
rule; under each quote, what its check found on the page (``citebot ask`` waits a few seconds
for it).

Every source's URL is printed as text (dim, under its title), in the cards and in the
also-consulted list alike: a title's OSC 8 link is lost when the output is piped and never
shows in a terminal that does not support it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.adapter import Verdict
from bot.i18n.wording import Labels
from bot.render.layout import Button, Passage, Source, SourceCard
from bot.render.ports import Payload
from bot.render.text import clip, superscript
from integrations.terminal.markdown import markup_of, rich_link

__all__ = ["TerminalCards", "also_consulted", "document", "related"]


class TerminalCards:
    """The parts of the terminal's thread: a markup paragraph each, printed one after another
    (:mod:`bot.render.ports`' ``ThreadParts``)."""

    most = 1
    room = 10**9
    passages: int | None = None

    def link(self, url: str) -> str | None:
        return url  # printed as text: the same URL is the same document

    def card(self, card: SourceCard, labels: Labels) -> list[str]:
        return [document(card, labels)]

    def also_consulted(self, sources: Sequence[Source], labels: Labels) -> str:
        return also_consulted(sources, labels)

    def related(self, questions: Sequence[str], labels: Labels) -> str | None:
        return related(questions, labels) if questions else None

    def feedback(self, labels: Labels, buttons: Sequence[Button] = ()) -> None:
        return None  # nobody to tell

    def size(self, part: str) -> tuple[int, int]:
        return 1, 0

    def message(self, parts: Sequence[str], labels: Labels) -> Payload:
        return {"markup": "\n\n".join(parts)}


def document(card: SourceCard, labels: Labels) -> str:
    """One source document's cited passages under its title and URL printed once, as on
    Discord and Slack: the footnote numbers lead the title; with several numbers each passage
    is headed by its own, and the sentences a number supports follow its first passage."""
    marks = " ".join(superscript(n) for n in card.numbers)
    lines = [
        f"[bold]{marks} {_title(card.title, card.url)}[/bold]"
        + _about(card.author, card.year, card.reference)
    ]
    if card.url:
        lines.append(f"[dim]{markup_of(card.url)}[/dim]")
    if card.trust_line:
        lines.append(f"[yellow]{markup_of(card.trust_line)}[/yellow]")
    supporting = card.supporting
    for passage in card.passages:
        lines += _passage(passage, numbered=card.numbered)
        if supporting.get(passage.number) is passage:
            lines.append(_supports(passage, labels, numbered=card.numbered))
    return "\n".join(lines)


def _passage(passage: Passage, *, numbered: bool) -> list[str]:
    """Its name (number among several, heading, its own reference), its quote, and what its
    check found."""
    name = [f"[bold]{superscript(passage.number)}[/bold]"] if numbered else []
    if passage.heading:
        name.append(f"[bold]{markup_of(passage.heading)}[/bold]")
    if passage.reference:
        name.append(markup_of(passage.reference))
    lines = ["│ " + " · ".join(name)] if name else []
    if passage.quote:
        quote = markup_of(clip(passage.quote, 1500))
        lines.append("[italic]│ " + quote.replace("\n", "\n│ ") + "[/italic]")
        if passage.verdict_line:
            style = "green" if passage.verdict is Verdict.FOUND else "yellow"
            lines.append(f"[{style}]{markup_of(passage.verdict_line)}[/{style}]")
    return lines


def _supports(passage: Passage, labels: Labels, *, numbered: bool) -> str:
    said = markup_of(" … ".join(passage.supports))
    lead = markup_of(labels.supports_lead)
    if numbered:
        lead = f"{superscript(passage.number)} {lead}"
    return f"[dim]{lead} {labels.quoted.format(quote=said)}[/dim]"


def also_consulted(sources: Sequence[Source], labels: Labels) -> str:
    lines = [f"[bold]{markup_of(labels.also_consulted)}[/bold]"]
    for c in sources:
        lines.append("• " + _title(c.title, c.url) + _about(c.author, c.year))
        if c.url:
            lines.append(f"  [dim]{markup_of(c.url)}[/dim]")
    return "\n".join(lines)


def related(questions: Sequence[str], labels: Labels) -> str:
    lines = [f"[bold]{markup_of(labels.related)}[/bold]"]
    lines += [f"{index + 1}. {markup_of(q)}" for index, q in enumerate(questions)]
    return "\n".join(lines)


def _title(title: str, url: str | None) -> str:
    shown = markup_of(title)
    return rich_link(shown, url) if url else shown


def _about(*parts: str | None) -> str:
    about = " · ".join(markup_of(part) for part in parts if part)
    return f" — {about}" if about else ""
