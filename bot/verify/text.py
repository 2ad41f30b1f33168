"""What a quote and a page are compared as: the same normalisation on both sides.

Kept apart from the matcher (:mod:`bot.verify.match`, rapidfuzz) because the worker needs
only this much (a check's cache key is the quote's words): the matching itself runs in a
reader process (:mod:`bot.verify.pool`). Every pattern here is linear in its input: a quote
is upstream text, a page is anyone's.
"""

from __future__ import annotations

import html
import re
import unicodedata

__all__ = ["normalise", "words"]

_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff\u180e"), None)
_QUOTES = str.maketrans(
    {
        **dict.fromkeys("‘’‚‛′‹›`´", "'"),
        **dict.fromkeys("“”„‟″«»", '"'),
        **dict.fromkeys("‐‑‒–—―−⁃﹘﹣－", "-"),
    }
)
_SPACE = re.compile(r"\s+")
# A label holds no bracket and a URL no parenthesis but balanced pairs (Wikipedia's "Foo_(bar)"),
# so each "[" or "(" of a run of them is scanned past once, not once from every one before it.
_MD_LINK = re.compile(r"!?\[([^\[\]]*)\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*(?:\s+\"[^\"]*\")?\)")
_FOOTNOTE = re.compile(r"\[\^?\d{1,3}\]")
_NOT_WORD = re.compile(r"[\W_]+")


def normalise(text: str) -> str:
    """Entities decoded, NFKC (ligatures, full-width forms, no-break spaces), invisible
    characters dropped, one kind of quotation mark and dash, single spaces."""
    text = unicodedata.normalize("NFKC", html.unescape(text)).translate(_INVISIBLE)
    return _SPACE.sub(" ", text.translate(_QUOTES)).strip()


def words(text: str) -> str:
    """The normalised text's words, case folded, one space apart: what a match compares."""
    text = _FOOTNOTE.sub(" ", _MD_LINK.sub(r"\1", normalise(text)))
    return _NOT_WORD.sub(" ", text.casefold()).strip()
