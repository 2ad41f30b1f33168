"""Footnote numbers: dense, in order of first use, while the answer streams and at its end.

While streaming, the citations are not known yet (they come with the last chunk), so every
marker gets the next number when it first shows. At the end :func:`resolve` numbers again with
the citations in hand: a marker without a citation is dropped, and markers whose citations come
from the same sources share a number. Both count with :class:`FirstUse`, so an answer whose
markers all have distinct sources shows the same numbers at the end as while it streamed.
The sources consulted but never cited are numbered after the cited ones, so that every source
has exactly one number (``citebot ask --json``).
"""

from __future__ import annotations

import logging
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from bot.upstream.citations import Citation
from bot.verify.verdict import Verdict

__all__ = ["CitationCard", "FirstUse", "Resolution", "resolve"]

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)


class FirstUse(Generic[K]):
    """Numbers 1, 2, 3, ... given to keys in the order they are first seen."""

    def __init__(self, numbers: Mapping[K, int] | None = None) -> None:
        self.numbers: dict[K, int] = dict(numbers or {})

    def number(self, key: K) -> int:
        return self.numbers.setdefault(key, len(self.numbers) + 1)

    def copy(self) -> FirstUse[K]:
        return FirstUse(self.numbers)


@dataclass(frozen=True, slots=True, kw_only=True)
class CitationCard:
    """A used citation as its card shows it: the footnote number, what it supports and, once
    checked, whether its quote is on its page (None: not checked, or nothing to show)."""

    number: int
    citation: Citation
    supports: tuple[str, ...] = ()
    quote_check: Verdict | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Resolution:
    """How the answer's markers map to citations once they are known."""

    numbers: Mapping[int, int]
    """Marker as written -> number shown."""
    links: Mapping[int, str | None]
    """Number shown -> the URL its footnote links to."""
    cards: tuple[CitationCard, ...]
    also_consulted: tuple[Citation, ...]
    """Each uncited source once, numbered on from the last card."""


def resolve(uses: Sequence[tuple[int, str]], citations: Sequence[Citation]) -> Resolution:
    """Number footnotes densely in order of first use.

    ``uses`` are the markers as written, in order, with the sentence each stands in. Footnote N
    is every citation whose ``number`` is N (a provider may give several); markers whose
    citations all come from the same sources (same URL and reference) share one number. A
    marker with no citation is dropped (and logged). Several citations behind one number each
    get a card, all showing that number. A citation of the answer as a whole (``scope``
    "answer": OpenRouter's web sources) is cited after the footnotes, in the provider's order;
    so is every citation when no marker names one (Magisterium's documented example has none):
    its card is the only place its quote and reference show. A source the provider only
    consulted (Groq's search results) is cited only where a footnote names it. Linear in
    markers and citations.
    """
    by_number: dict[int, dict[Citation, None]] = {}
    for citation in citations:
        by_number.setdefault(citation.number, {})[citation] = None
    named = [(marker, sentence) for marker, sentence in uses if marker in by_number]
    dangling = len(uses) - len(named)
    wholly = {"answer"} if named else {"answer", "footnote"}
    footnoted = {marker for marker, _ in named}
    named += [
        (number, "")
        for number, cited in by_number.items()
        if number not in footnoted and any(c.scope in wholly for c in cited)
    ]
    numbers: dict[int, int] = {}
    by_source: FirstUse[tuple[object, ...]] = FirstUse()
    groups: dict[int, dict[tuple[object, ...], Citation]] = {}
    supports: dict[int, dict[str, None]] = {}
    for marker, sentence in named:
        cited = by_number[marker]
        if marker not in numbers:
            shown = by_source.number(_source_key(marker, cited))
            group = groups.setdefault(shown, {})
            for c in cited:
                group.setdefault(_card_key(c), c)
            numbers[marker] = shown
        said = supports.setdefault(numbers[marker], {})
        if sentence:
            said[sentence] = None
    if dangling:
        log.info("removed %d footnote markers with no citation", dangling)
    cards = tuple(
        CitationCard(
            number=shown, citation=replace(c, number=shown), supports=tuple(supports.get(shown, ()))
        )
        for shown, group in groups.items()
        for c in group.values()
    )
    links = {
        shown: next((c.source_url for c in group.values() if c.source_url), None)
        for shown, group in groups.items()
    }
    return Resolution(
        numbers=numbers,
        links=links,
        cards=cards,
        also_consulted=_uncited(citations, numbers, cards, after=len(groups)),
    )


def _uncited(
    citations: Sequence[Citation],
    numbers: Mapping[int, int],
    cards: Sequence[CitationCard],
    *,
    after: int,
) -> tuple[Citation, ...]:
    """The citations no footnote uses, each source once (a source a card shows is not listed
    again), numbered on after the cards."""
    seen = {_uncited_key(card.citation) for card in cards}
    out: list[Citation] = []
    for citation in citations:
        key = _uncited_key(citation)
        if citation.number in numbers or key in seen:
            continue
        seen.add(key)
        out.append(replace(citation, number=after + len(out) + 1))
    return tuple(out)


def _uncited_key(citation: Citation) -> tuple[object, ...]:
    if citation.source_url is None:
        return _card_key(citation)
    return (citation.source_url, citation.reference)


def _source_key(marker: int, cited: Mapping[Citation, None]) -> tuple[object, ...]:
    if any(c.source_url is None for c in cited):
        return ("marker", marker)
    return tuple(sorted((c.source_url or "", c.reference or "") for c in cited))


def _card_key(citation: Citation) -> tuple[object, ...]:
    return (citation.source_url, citation.reference, citation.title, citation.cited_text)
