"""Text rules every layer of the formatter shares: where a sentence ends, where text may be cut
without breaking a character, clipping to a limit, superscript numbers.

Each rule lives here once, so the block reader, the writer, the footnote sentences and the
cards agree on them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

__all__ = [
    "ELLIPSIS",
    "SENTINEL",
    "clip",
    "ends_sentence",
    "safe_cut",
    "sentence_ends",
    "stop_of",
    "superscript",
]

SENTINEL = "\ue000"
"""A private-use character the writer puts where a footnote goes; stripped from upstream text."""

ELLIPSIS = "…"
SENTENCE_STOPS = ".!?…。！？"
"""What ends a sentence (colons and semicolons do not)."""
_CLOSERS = "\"'”’»)]*_~"
"""What may follow a sentence's stop and still belong to it: closing quotes and brackets, and
the Markdown marks that close emphasis around it."""
_CJK_STOPS = "。！？"
"""Stops that end a sentence with no space after them (Chinese and Japanese)."""
_CJK_PAUSES = "。，、！？；："
"""Where Chinese and Japanese text can be cut like at a space (after the mark)."""
_SENTENCE_END = re.compile(rf"[{re.escape(SENTENCE_STOPS)}][{re.escape(_CLOSERS)}]*")
_ABBREVIATIONS = frozenset(
    {
        *("Mr", "Mrs", "Ms", "Dr", "Prof", "St", "Sts", "Sr", "Jr", "Fr", "Br", "Msgr", "Mgr"),
        *("Mons", "Rev", "Bl", "Ven", "Sta", "Sto", "Mt", "Hl"),
        *("cf", "Cf", "vs", "approx", "ca", "No", "Nos", "Nr", "Vol", "pp", "nn", "Art", "Ch"),
    }
)
"""Words whose period is not a sentence's end: titles (St. Louis, Dr., Fr., Msgr.; Sta., Sto.
and Mons. of the Romance languages, Hl. of German) and reference words (cf., vs., No. 5,
pp. 3-4, nn. 12-14). Initialisms (U.S., e.g., z.B.) and initials (John F. Kennedy) need no
list. Words that often end a sentence too (etc., no., art.) are left out."""
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_LONGEST_CLUSTER = 32


def ends_sentence(text: str, at: int) -> bool:
    """Whether a sentence ends just before ``at``: a stop (``. ! ? …`` or a CJK full stop),
    then any closing quotes, brackets or emphasis marks; not an abbreviation's period, and not
    before a lower-case word (see :func:`_goes_on`)."""
    stop = stop_of(text, at)
    return stop >= 0 and text[stop] in SENTENCE_STOPS and not _goes_on(text, stop, at)


def stop_of(text: str, at: int | None = None) -> int:
    """Where the stop of a sentence ending just before ``at`` (default: the end) would stand:
    the last character before ``at`` that is not a closing mark (-1 if none)."""
    at = len(text) if at is None else at
    at -= 1
    while at >= 0 and text[at] in _CLOSERS:
        at -= 1
    return at


def sentence_ends(text: str, start: int = 0) -> Iterator[int]:
    """Every position from ``start`` on where a sentence of ``text`` ends: after its stop and
    closers when a space follows, and at once after a CJK stop."""
    for match in _SENTENCE_END.finditer(text, start):
        end, stop = match.end(), match.start()
        if text[stop] in _CJK_STOPS or (
            end < len(text) and text[end].isspace() and not _goes_on(text, stop, end)
        ):
            yield end


def _goes_on(text: str, stop: int, at: int) -> bool:
    """Whether the sentence goes on past the stop at ``stop`` (its closers end at ``at``):
    the stop is an abbreviation's period (U.S., e.g., St., an initial), or the next word on
    the line begins in lower case (no sentence does: "e.g. this", "wait… and")."""
    if text[stop] == "." and _abbreviation(text, stop):
        return True
    after = at
    while after < len(text) and text[after] in " \t":
        after += 1
    return after < len(text) and text[after].islower()


def _abbreviation(text: str, stop: int) -> bool:
    start = stop
    while start > 0 and (text[start - 1].isalpha() or text[start - 1] == "."):
        start -= 1
    word = text[start:stop]
    if not word or word in _ABBREVIATIONS:
        return bool(word)
    letters = word.split(".")
    if len(letters) == 1:
        return len(word) == 1 and word.isupper()  # an initial
    return all(len(letter) == 1 for letter in letters)  # U.S, e.g, z.B


def safe_cut(text: str, at: int) -> int:
    """Move a cut position back so it splits no code point pair, combining mark or emoji join."""
    at = wanted = max(1, min(at, len(text)))
    while 1 < at < len(text) and _joins(text[at - 1], text[at]):
        at -= 1
    if wanted - at > _LONGEST_CLUSTER:
        return wanted  # no script needs this many marks on one letter: cut the pile instead
    if 1 < at < len(text) and _flag(text[at]):
        run = at
        while run > 0 and _flag(text[run - 1]):
            run -= 1
        at -= (at - run) % 2  # flags are pairs of regional indicators
    return max(at, 1)


def _joins(before: str, after: str) -> bool:
    return (
        unicodedata.combining(after) > 0
        or unicodedata.category(after) in ("Mn", "Me", "Mc", "Cs")
        or after in "\u200d\ufe0e\ufe0f"
        or before == "\u200d"
        or "\U0001f3fb" <= after <= "\U0001f3ff"
        or "\U000e0020" <= after <= "\U000e007f"  # emoji tag sequences (subdivision flags)
        or _hangul_joins(before, after)
    )


def _hangul_joins(before: str, after: str) -> bool:
    """Conjoining jamo: a vowel after a leading consonant or LV syllable, a trailing consonant
    after a vowel or syllable (precomposed text never needs this; decomposed text does)."""
    vowel = "\u1160" <= after <= "\u11a7" or "\ud7b0" <= after <= "\ud7c6"
    trailing = "\u11a8" <= after <= "\u11ff" or "\ud7cb" <= after <= "\ud7fb"
    if not (vowel or trailing):
        return False
    leading = "\u1100" <= before <= "\u115f" or "\ua960" <= before <= "\ua97c"
    medial = "\u1160" <= before <= "\u11a7" or "\ud7b0" <= before <= "\ud7c6"
    syllable = "\uac00" <= before <= "\ud7a3"
    return (vowel and (leading or medial or syllable)) or (trailing and (medial or syllable))


def _flag(char: str) -> bool:
    return "\U0001f1e6" <= char <= "\U0001f1ff"


def clip(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: cut at a word (when one is near) with an ellipsis,
    never inside a character, a combining sequence or an emoji join. The words kept are the
    source's own."""
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return ELLIPSIS[:limit]
    at = safe_cut(text, limit - len(ELLIPSIS))
    space = max(text.rfind(" ", 0, at + 1), text.rfind("\n", 0, at + 1))
    pause = max(text.rfind(mark, 0, at) for mark in _CJK_PAUSES) + 1
    best = max(space, pause)
    if best > at * 2 // 3:
        at = best
    return text[:at].rstrip() + ELLIPSIS


def superscript(number: int) -> str:
    return str(number).translate(_SUPERSCRIPT)
