"""Is a quote on a page: exactly once both are normalised, else closely enough.

Both sides go through the same normalisation, so a quote copied with curly quotes, an en dash
or an entity still matches the page it came from. What is compared at the end is the words:
letters and digits in order, case folded, so Markdown the upstream kept (``**``, backticks,
``[text](url)``) and punctuation differences do not matter, while a changed, dropped or added
word does (:mod:`bot.verify.text`). Fuzzy alignment (rapidfuzz) then forgives the rest of
extraction's noise up to :data:`THRESHOLD`, measured on ``bench/quotes`` (``python -m bench
quotes``; docs/decisions.md). This is CPU work on a whole page: it runs in a reader process.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from bot.verify.text import normalise, words

__all__ = ["THRESHOLD", "Match", "Text", "match"]

THRESHOLD = 99.0
"""The lowest score (0-100) taken as "found"; measured by bench/bench_quotes.py (decisions.md)."""
MIN_FRAGMENT_WORDS = 3
"""Pieces of a quote cut by an ellipsis shorter than this are not checked on their own."""

_REFERENCE = re.compile(r"\d{1,4}")
_ELLIPSIS = re.compile(r"\s*(?:\[\s*(?:\.\s*){3}\]|\[…\]|\.\s?\.\s?\.|…)\s*")


@dataclass(frozen=True, slots=True)
class Match:
    """How well a quote matched a page: ``score`` 0-100 and the step that decided it."""

    score: float
    how: Literal["exact", "words", "fuzzy", "none"]

    @property
    def found(self) -> bool:
        return self.score >= THRESHOLD


@dataclass(frozen=True)
class Text:
    """A page's text, normalised once for all the quotes checked on it (no slots: the cached
    forms live in the instance's dict)."""

    source: str

    @cached_property
    def normalised(self) -> str:
        return normalise(self.source)

    @cached_property
    def words(self) -> str:
        return words(self.source)


def match(quote: str, pages: Sequence[Text]) -> Match:
    """The best match of ``quote`` in any of ``pages`` (a page's texts)."""
    best = Match(0.0, "none")
    for page in pages:
        found = _match_one(quote, page)
        if found.score > best.score:
            best = found
        if best.found:
            break
    return best


def _match_one(quote: str, page: Text) -> Match:
    if not page.source:
        return Match(0.0, "none")
    if normalise(quote) in page.normalised:
        return Match(100.0, "exact")
    page_words = page.words
    pieces = [words(piece) for piece in _ELLIPSIS.split(normalise(quote))]
    pieces = [p for p in pieces if p.count(" ") + 1 >= MIN_FRAGMENT_WORDS] or [words(quote)]
    if all(f" {piece} " in f" {page_words} " for piece in pieces):
        return Match(100.0, "words")
    score = min(_fuzzy(piece, page_words) for piece in pieces)
    return Match(score, "fuzzy" if score else "none")


def _fuzzy(piece: str, page_words: str) -> float:
    """How much of ``piece`` the closest stretch of the page says, word for word (0-100).

    rapidfuzz finds where on the page the piece aligns best (characters), then its words are
    aligned with that stretch's. A quote word the page lacks or changes costs one word, and so
    does a word the page adds in between (a dropped "not" is not the same quote); only a bare
    number the page adds is free: the footnote and verse numbers pages scatter in their text.
    """
    quote = piece.split()
    if not quote:
        return 0.0
    where = fuzz.partial_ratio_alignment(piece, page_words)
    if where is None:
        return 0.0
    slack = len(piece) // 4 + 16
    window = page_words[max(where.dest_start - slack, 0) : where.dest_end + slack].split()[1:-1]
    blocks = [op for op in Indel.opcodes(quote, window) if op.tag == "equal"]
    if not blocks:
        return 0.0
    said = sum(op.src_end - op.src_start for op in blocks)
    span = window[blocks[0].dest_start : blocks[-1].dest_end]
    added = len(span) - said - sum(1 for word in span if _REFERENCE.fullmatch(word))
    return 100.0 * said / (len(quote) + max(added, 0))
