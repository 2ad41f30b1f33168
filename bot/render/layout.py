"""An answer's thread as every platform shows it, before any platform writes it.

The thread (:class:`ThreadLayout`) is the cards of the cited sources, at most ``MAX_CARDS`` of
them; one summary of the cited sources past that cap; the sources consulted but never cited;
the related questions; the feedback buttons. A source's card (:class:`SourceCard`) is one
source document: its title, link, author, year and reference, and each cited passage of it
(:class:`Passage`: its number, heading, reference, quote, the verdict of its quote's check and
the answer's sentences it supports). What goes where, and in which order, is decided here once;
a platform writes each part in its own syntax and within its own limits
(:class:`bot.render.ports.ThreadParts`), and :func:`bot.render.thread.write_thread` puts the
parts into messages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, TypeVar
from urllib.parse import urlsplit

from bot.i18n.wording import ENGLISH_LABELS, Labels
from bot.render.links import by_link, spoofed_host
from bot.render.numbering import CitationCard
from bot.upstream.citations import Citation
from bot.upstream.trust import TrustedSources
from bot.verify.verdict import Verdict

__all__ = [
    "Action",
    "Button",
    "MoreSources",
    "Passage",
    "Source",
    "SourceCard",
    "ThreadLayout",
    "capped",
    "source_cards",
    "source_title",
    "sources",
    "verdict_line",
]

T = TypeVar("T")

Action = Literal["ask_sources", "ask_person"]
"""What a button under an answer does: ask the sources anyway (under a place's own answer),
or ask a person (the place's ``handoff``). A platform's button carries only this; the answer
it is under says the rest (the kit finds its question by the answer's key)."""


@dataclass(frozen=True, slots=True)
class Button:
    """A button under a finished answer, labelled in the asker's language."""

    action: Action
    label: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Passage:
    """One cited passage of a source document, as its card shows it."""

    number: int
    """Its footnote number."""
    heading: str | None
    reference: str | None
    """Its own reference, where the document's passages differ in it (else the card's)."""
    quote: str
    """The source's own words ("" when the provider gave none)."""
    verdict: Verdict | None
    """What the quote's check found on the page; None when there is nothing to show."""
    verdict_line: str | None
    """:attr:`verdict` as the card says it (only under a quote)."""
    supports: tuple[str, ...]
    """The sentences of the answer its number stands behind."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceCard:
    """One source document's card: what it is, then its cited passages in footnote order."""

    numbers: tuple[int, ...]
    """Its footnote numbers, each once, in order."""
    title: str
    url: str | None
    """The source's URL as the provider gave it; each platform links it its own way."""
    author: str | None
    year: str | None
    reference: str | None
    """The reference every passage shares (None when they differ: each passage has its own)."""
    passages: tuple[Passage, ...]
    widest: tuple[Passage, ...]
    """The passages with the longest verdict under every quote. A platform measures these, so
    a verdict edited in changes the text inside a message, never which message a card is in
    (an edit can only replace a message's own content)."""
    trust_line: str | None = None
    """What the card says of a source outside the place's trusted sources (plain text, a ⚠
    before it); None for a trusted one, or where the place names none."""

    @property
    def numbered(self) -> bool:
        """Whether the card stands behind several numbers, so each passage says its own."""
        return len(self.numbers) > 1

    @property
    def supporting(self) -> Mapping[int, Passage]:
        """Number -> the passage under which the card says what that number supports: the
        first of its passages that supports anything."""
        found: dict[int, Passage] = {}
        for passage in self.passages:
            if passage.supports:
                found.setdefault(passage.number, passage)
        return found

    def at_widest(self) -> SourceCard:
        """The card as it reads with the longest verdicts (:attr:`widest`)."""
        return replace(self, passages=self.widest)


@dataclass(frozen=True, slots=True, kw_only=True)
class Source:
    """A source listed without a card of its own: consulted but never cited, or cited past
    ``MAX_CARDS``."""

    number: int
    title: str
    url: str | None
    author: str | None
    year: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class MoreSources:
    """The cited sources past ``MAX_CARDS``: one message, ``lead`` (which counts them), then
    as many of them as fit."""

    lead: str
    citations: Sequence[Citation]


@dataclass(frozen=True, slots=True, kw_only=True)
class ThreadLayout:
    """What an answer's thread shows, in this order: a card for each source document of
    ``cards``, the ``also_consulted`` list, the ``related`` questions, the feedback buttons
    (where the platform puts them in the thread), then the ``more`` summary."""

    cards: Sequence[CitationCard] = ()
    """The cited passages that get a card (at most ``MAX_CARDS``), in footnote order."""
    also_consulted: Sequence[Citation] = ()
    related: Sequence[str] = ()
    more: MoreSources | None = None
    labels: Labels = field(default=ENGLISH_LABELS)
    trusted: TrustedSources | None = None
    """The place's trusted sources: a card of a source from any other host says so."""
    buttons: Sequence[Button] = ()
    """Beside the feedback buttons, where the platform puts those in the thread."""


def source_title(citation: Citation, labels: Labels) -> str:
    """What a source is called on its card and in the also-consulted list: its title, else its
    reference, else the host of its page (``en.wikipedia.org``: Perplexity often sends URLs
    alone, and five sources all called "Source" tell a reader nothing), else "Source". A title
    that names another host than its page's (it is its link's label) is that page's host."""
    url = citation.source_url
    if citation.title and url and (host := spoofed_host(citation.title, url)):
        return host
    return citation.title or citation.reference or _host(url) or labels.source


def _host(url: str | None) -> str | None:
    """The host a reader recognises: lower case, without ``www.``, port or user."""
    host = urlsplit(url).hostname if url else None
    return host.removeprefix("www.") if host else None


def verdict_line(verdict: Verdict | None, labels: Labels) -> str | None:
    """What a card says under a quote checked on its page, as plain text; None when it says
    nothing (not checked, or the page could not be read: no verdict is better than a guess)."""
    if verdict is Verdict.FOUND:
        return f"✓ {labels.quote_found}"
    if verdict is Verdict.NOT_FOUND:
        return f"⚠ {labels.quote_not_found}"
    return None


def source_cards(
    cards: Sequence[CitationCard],
    *,
    link: Callable[[str], str | None],
    most: int | None,
    labels: Labels,
    trusted: TrustedSources | None = None,
) -> list[SourceCard]:
    """``cards`` as source documents' cards: passages whose sources share a ``link`` on one
    card (where the first of them stands; a passage without a link alone), at most ``most``
    passages a card (a document cited more often gets more cards); each card of a source
    outside ``trusted`` says so."""

    def linked(card: CitationCard) -> str | None:
        url = card.citation.source_url
        return link(url) if url else None

    out: list[SourceCard] = []
    for passages in by_link(cards, linked):
        step = most or len(passages)
        out += [_card(passages[at : at + step], labels) for at in range(0, len(passages), step)]
    if trusted is None:
        return out
    line = f"⚠ {labels.untrusted}"
    return [card if trusted.covers(card.url) else replace(card, trust_line=line) for card in out]


def _card(passages: Sequence[CitationCard], labels: Labels) -> SourceCard:
    first = passages[0].citation
    shared = len({p.citation.reference for p in passages}) == 1
    widest = max(
        (Verdict.FOUND, Verdict.NOT_FOUND), key=lambda v: len(verdict_line(v, labels) or "")
    )
    return SourceCard(
        numbers=tuple(dict.fromkeys(p.number for p in passages)),
        title=source_title(first, labels),
        url=first.source_url,
        author=first.author,
        year=first.year,
        reference=first.reference if shared else None,
        passages=tuple(_passage(p, p.quote_check, labels, shared=shared) for p in passages),
        widest=tuple(_passage(p, widest, labels, shared=shared) for p in passages),
    )


def _passage(
    card: CitationCard, verdict: Verdict | None, labels: Labels, *, shared: bool
) -> Passage:
    c = card.citation
    checked = verdict if c.cited_text else None
    return Passage(
        number=card.number,
        heading=c.heading,
        reference=None if shared else c.reference,
        quote=c.cited_text,
        verdict=checked,
        verdict_line=verdict_line(checked, labels),
        supports=card.supports,
    )


def sources(citations: Sequence[Citation], labels: Labels) -> list[Source]:
    """Citations as a list shows them, each by its own number."""
    return [
        Source(
            number=c.number,
            title=source_title(c, labels),
            url=c.source_url,
            author=c.author,
            year=c.year,
        )
        for c in citations
    ]


def capped(cards: Sequence[T], most: int | None) -> tuple[Sequence[T], Sequence[T]]:
    """The first ``most`` cards (all when None), and the rest, which get no card of their own:
    1,000 citations behind one footnote would otherwise be a hundred thread messages."""
    if most is None or len(cards) <= most:
        return cards, ()
    return cards[:most], cards[most:]
