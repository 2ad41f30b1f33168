"""What every platform's threaded replies share: batching cards into messages, the "also
consulted" list, what a source is called, and what a card says of its checked quote.

A platform's presenter builds each card its own way (an embed, a group of blocks, a paragraph
of terminal markup) and hands it here to be batched within its message limits; the sources
that were consulted but never cited become one list in the platform's syntax, cut to the room
a card has with a count of the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar
from urllib.parse import urlsplit

from bot.i18n.wording import Labels
from bot.render.numbering import CitationCard
from bot.upstream.citations import Citation
from bot.verify.verdict import Verdict

__all__ = [
    "batches",
    "capped",
    "listed",
    "more_sources",
    "source_title",
    "verdict_line",
    "with_room_for_verdicts",
]

Card = TypeVar("Card")
T = TypeVar("T")


def source_title(citation: Citation, labels: Labels) -> str:
    """What a source is called on its card and in the also-consulted list: its title, else its
    reference, else the host of its page (``en.wikipedia.org``: Perplexity often sends URLs
    alone, and five sources all called "Source" tell a reader nothing), else "Source"."""
    return citation.title or citation.reference or _host(citation.source_url) or labels.source


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


def with_room_for_verdicts(cards: Sequence[CitationCard], labels: Labels) -> list[CitationCard]:
    """``cards`` as they would be with the longest verdict under every quote. Batching measures
    these, so the verdicts edited in once the pages are read change the text inside a message,
    never which message a card is in (an edit can only replace a message's own content)."""
    widest = max(
        (Verdict.FOUND, Verdict.NOT_FOUND), key=lambda v: len(verdict_line(v, labels) or "")
    )
    return [
        replace(card, quote_check=widest) if card.citation.cited_text else card for card in cards
    ]


def batches(
    cards: Sequence[Card], *, size: Callable[[Card], tuple[int, int]], most: int, room: int
) -> list[list[Card]]:
    """``cards`` in order, as few messages as the limits allow: a message holds at most
    ``most`` units and ``room`` characters, ``size`` giving each card's (units, characters).
    A card never straddles two messages."""
    out: list[list[Card]] = []
    units = characters = 0
    for card in cards:
        card_units, card_characters = size(card)
        if not out or units + card_units > most or characters + card_characters > room:
            out.append([])
            units = characters = 0
        out[-1].append(card)
        units += card_units
        characters += card_characters
    return out


def listed(
    citations: Sequence[Citation],
    *,
    line: Callable[[Citation], str],
    room: int,
    rest: Callable[[int], str],
) -> list[str]:
    """One ``line`` per source while they fit in ``room`` characters (a line break each), then
    ``rest(n)`` for the ``n`` that did not."""
    lines: list[str] = []
    used = 0
    for index, citation in enumerate(citations):
        text = line(citation)
        if used + len(text) > room:
            lines.append(rest(len(citations) - index))
            break
        lines.append(text)
        used += len(text) + 1
    return lines


def capped(cards: Sequence[T], most: int | None) -> tuple[Sequence[T], Sequence[T]]:
    """The first ``most`` cards (all when None), and the rest, which get no card of their own:
    1,000 citations behind one footnote would otherwise be a hundred thread messages."""
    if most is None or len(cards) <= most:
        return cards, ()
    return cards[:most], cards[most:]


def more_sources(rest: Sequence[T], *, lead: str, line: Callable[[T], str], room: int) -> str:
    """``lead`` (which says how many there are), then one ``line`` per source while they fit
    in ``room`` characters; the lead counts the ones that did not fit too."""
    lines = [lead]
    used = len(lead)
    for item in rest:
        text = line(item)
        if used + 1 + len(text) > room:
            break
        lines.append(text)
        used += 1 + len(text)
    return "\n".join(lines)
