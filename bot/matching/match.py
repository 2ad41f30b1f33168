"""Whether a question asks what one of a place's own answers answers.

Two readings (:mod:`bot.matching.reading`) match when they ask the same kind of question
(when, why, where...: both, or one of them says none), alike negated, naming the same numbers,
and their content words agree: their Dice coefficient, the words they share twice over all the
words of both, reaches :data:`THRESHOLD`. Words agree when their stems are equal, when one
stem begins the other (a stemmer that cut one inflection shorter than another), or when
RapidFuzz's similarity of two longer stems is at least :data:`SAME_WORD` (a typo). A question
two own answers match almost alike matches neither: a wrong own answer served instead of the
sources is worse than asking them. ``python -m bench`` measures precision and recall on
paraphrases and near-misses in every language (docs/answers.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from rapidfuzz import fuzz

from bot.matching.reading import Reading, read_question

__all__ = ["AMBIGUOUS", "SAME_WORD", "THRESHOLD", "best_match", "similarity"]

T = TypeVar("T")

THRESHOLD = 0.8
"""The least similarity at which a question gets an own answer (see docs/answers.md for the
precision and recall each threshold gives)."""
SAME_WORD = 85.0
"""RapidFuzz's ratio (0-100) from which two stems of five letters or more are one word."""
ONE_SIDED = 0.9
"""The similarity kept when only one of two questions says what kind it asks."""
AMBIGUOUS = 0.05
"""How close a second answer's similarity may come to the best before neither is served."""


def similarity(asked: Reading, kept: Reading) -> float:
    """How alike two questions are, from 0 (they ask different things) to 1."""
    if asked.kinds and kept.kinds and not asked.kinds & kept.kinds:
        return 0.0
    if asked.negated != kept.negated or asked.numbers != kept.numbers:
        return 0.0
    if not asked.words or not kept.words:
        return 0.0
    total = len(asked.words) + len(kept.words)
    score = _covered(asked, kept) / total
    return score * (ONE_SIDED if bool(asked.kinds) != bool(kept.kinds) else 1.0)


def best_match(
    question: str,
    candidates: Sequence[tuple[T, str, str]],
    *,
    threshold: float = THRESHOLD,
) -> tuple[T, float] | None:
    """The candidate ``question`` asks, with its similarity: each candidate a value, its
    question and the language that question is written in (both are read as that language
    reads). None when none reaches ``threshold``, or when two come within :data:`AMBIGUOUS` of
    each other. The first of equal candidates wins (a channel's own answers come before its
    server's)."""
    scored: list[tuple[float, T]] = []
    for value, kept, language in candidates:
        asked, reading = read_question(question, language), read_question(kept, language)
        if not asked.words or _ceiling(asked, reading) < threshold:
            continue
        score = similarity(asked, reading)
        if score >= threshold:
            scored.append((score, value))
    if not scored:
        return None
    scored.sort(key=lambda found: found[0], reverse=True)  # stable: the first of equals
    best, value = scored[0]
    if len(scored) > 1 and best - scored[1][0] < AMBIGUOUS:
        return None
    return value, best


def _ceiling(asked: Reading, kept: Reading) -> float:
    """The most two readings' similarity could be, from their sizes alone: a short own
    question is never aligned word by word with a long one (a compound stands for two)."""
    smaller, total = min(len(asked.words), len(kept.words)), len(asked.words) + len(kept.words)
    pairs = 3 if asked.lexicon.compounds else 2
    return min(total, pairs * smaller) / total if total else 0.0


def _covered(asked: Reading, kept: Reading) -> int:
    """The words of both questions that agree with a word of the other, each word paired
    once: a word with a word (the same stem, one beginning the other, a typo), or a compound
    with the two words that make it up."""
    lexicon = asked.lexicon
    left, right = set(asked.words), set(kept.words)
    covered = 0
    for word in sorted(left, key=lambda w: (w not in right, -len(w))):
        partner = word if word in right else _partner(word, right, lexicon.prefix)
        if partner is not None:
            left.discard(word)
            right.discard(partner)
            covered += 2
    if lexicon.compounds:
        for side, other in ((left, right), (right, left)):
            for word in sorted(side, key=len, reverse=True):
                parts = _parts(word, other)
                if parts is not None:
                    side.discard(word)
                    other.difference_update(parts)
                    covered += 3
    return covered


def _partner(word: str, words: Iterable[str], prefix: int) -> str | None:
    """A word of ``words`` that is ``word``: only one of nearly its length can be (a typo, an
    inflection cut shorter), so no other is compared."""
    return next((o for o in words if abs(len(o) - len(word)) <= 3 and _same(word, o, prefix)), None)


def _parts(word: str, words: Iterable[str]) -> tuple[str, str] | None:
    """Two of ``words`` that make up ``word`` (``sonntag`` and ``mess`` of ``sonntagsmess``,
    a linking ``s`` or ``e`` between them), if any."""
    for first in words:
        if len(first) < 3 or not word.startswith(first):
            continue
        rest = word[len(first) :]
        for tail in (rest, rest[1:] if rest[:1] in ("s", "e") else None):
            if tail and tail in words and tail != first:
                return first, tail
    return None


def _same(word: str, other: str, prefix: int) -> bool:
    short, long = sorted((word, other), key=len)
    if len(short) >= prefix and long.startswith(short) and len(long) - len(short) <= 3:
        return True
    return len(short) >= 5 and fuzz.ratio(word, other) >= SAME_WORD
