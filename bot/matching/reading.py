"""A question read for matching: its content words' stems, the kind of question it asks,
whether it is negated, and the numbers it names.

Words are found with Unicode's word characters, reduced to their stems with the Snowball
stemmers (``snowballstemmer``: the stemmers search engines use for these languages) and
stripped of accents after stemming, so that a question typed without them reads alike.
Chinese has no spaces: it is read in pairs of characters (bigrams), as search engines index
it, after its question words and particles are taken out.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import snowballstemmer

from bot.matching.lexicon import LEXICONS, Kind, Lexicon

__all__ = ["MOST_WORDS", "Reading", "language_of", "read_question"]

MOST_WORDS = 64
"""Content words read of one question: a question of a few thousand characters costs no more
than one of a few hundred (it matches no own answer either way)."""
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_APOSTROPHES = re.compile(r"[’'`´]")


@dataclass(frozen=True, slots=True)
class Reading:
    """What a question's match turns on."""

    lexicon: Lexicon = field(compare=False, repr=False)
    """The language it was read in."""
    words: frozenset[str]
    """Its content words' stems (Chinese: its character pairs)."""
    kinds: frozenset[Kind]
    negated: bool
    numbers: frozenset[str]


_STEMMERS = threading.local()


def _stemmer(name: str) -> Any:
    """Snowball's stemmer for a language (untyped: ``stemWords(list[str]) -> list[str]``), one
    a thread: a stemmer keeps the word it works on, and questions are matched in threads."""
    kept: dict[str, Any] = _STEMMERS.__dict__.setdefault("by_language", {})
    if name not in kept:
        kept[name] = snowballstemmer.stemmer(name)
    return kept[name]


@functools.lru_cache(maxsize=8192)
def read_question(text: str, language: str) -> Reading:
    """``text`` read as a question in ``language`` (a catalogue's, ``pt_BR``; English for
    one without a lexicon). Cached: an own answer's question is read once a worker."""
    lexicon = LEXICONS.get(language, LEXICONS["en"])
    folded = unicodedata.normalize("NFKC", text).casefold()
    if lexicon.stemmer is None:
        return _read_characters(folded, lexicon)
    folded = re.sub(r"n[’'`´]t\b", " not", folded)  # don't, can't: the negation is a word
    tokens = _WORD.findall(_APOSTROPHES.sub(" ", folded))[: MOST_WORDS * 4]
    kinds, rest = _kinds_of(tokens, lexicon)
    negated = any(token in lexicon.negations for token in rest)
    content = [t for t in rest if t not in lexicon.function_words and t not in lexicon.negations]
    stems: list[str] = _stemmer(lexicon.stemmer).stemWords(content[:MOST_WORDS])
    words = frozenset(_plain(stem) for stem in stems if stem)
    numbers = frozenset(token for token in content if token.isdigit())
    return Reading(lexicon, words=words, kinds=kinds, negated=negated, numbers=numbers)


def language_of(text: str, fallback: str) -> str:
    """The language ``text`` reads as (a catalogue's): the one whose question and function
    words it uses most, Chinese where it is written in Han characters; ``fallback`` (the
    place's, the admin's) where none stands out. An own question is matched as its own
    language reads it, whatever language the admin's app speaks."""
    if _HAN.search(text):
        return fallback if fallback.startswith("zh_") else "zh_Hans"
    folded = unicodedata.normalize("NFKC", text).casefold()
    tokens = _WORD.findall(_APOSTROPHES.sub(" ", folded))[:MOST_WORDS]
    scores = {
        language: sum(
            token in lexicon.function_words or token in lexicon.negations or token in lexicon.kinds
            for token in tokens
        )
        for language, lexicon in LEXICONS.items()
        if lexicon.stemmer is not None
    }
    best = max(scores.values(), default=0)
    if best == 0 or scores.get(fallback, -1) == best:
        return fallback
    return max(scores, key=lambda language: scores[language])


def _kinds_of(tokens: Sequence[str], lexicon: Lexicon) -> tuple[frozenset[Kind], list[str]]:
    """The kinds the question words among ``tokens`` ask (longest phrase first), and the
    other tokens."""
    longest = max((phrase.count(" ") + 1 for phrase in lexicon.kinds), default=1)
    kinds: set[Kind] = set()
    rest: list[str] = []
    at = 0
    while at < len(tokens):
        for size in range(min(longest, len(tokens) - at), 0, -1):
            kind = lexicon.kinds.get(" ".join(tokens[at : at + size]))
            if kind is not None:
                kinds.add(kind)
                at += size
                break
        else:
            rest.append(tokens[at])
            at += 1
    return frozenset(kinds), rest


def _read_characters(text: str, lexicon: Lexicon) -> Reading:
    """Chinese: question words and particles out (the longest first), the rest in pairs of
    characters; words in other scripts (a name, a number) read whole."""
    kinds: set[Kind] = set()
    for phrase in sorted(lexicon.kinds, key=len, reverse=True):
        if phrase in text:
            kinds.add(lexicon.kinds[phrase])
            text = text.replace(phrase, "")
    # particles go and the words around them close up, so that a question with them and one
    # without read the same pairs
    for particle in sorted((w for w in lexicon.function_words if len(w) > 1), key=len):
        text = text.replace(particle, "")
    negated = any(character in lexicon.negations for character in text)
    gone = frozenset(w for w in lexicon.function_words | lexicon.negations if len(w) == 1)
    text = "".join(character for character in text if character not in gone)
    words: set[str] = set()
    numbers: set[str] = set()
    for token in _WORD.findall(text)[: MOST_WORDS * 4]:
        for run in _HAN.split(token):
            if run:
                words.add(run)
                if run.isdigit():
                    numbers.add(run)
        for run in _HAN.findall(token):
            if len(run) == 1:
                words.add(run)
            words.update(run[i : i + 2] for i in range(len(run) - 1))
        if len(words) >= MOST_WORDS:
            break
    return Reading(
        lexicon,
        words=frozenset(words),
        kinds=frozenset(kinds),
        negated=negated,
        numbers=frozenset(numbers),
    )


def _plain(stem: str) -> str:
    """A stem without its accents (``é`` → ``e``; Polish ``ł`` stays a letter of its own)."""
    decomposed = unicodedata.normalize("NFD", stem)
    return "".join(c for c in decomposed if not unicodedata.combining(c))
