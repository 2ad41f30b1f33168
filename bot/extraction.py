"""Babel's extractor for citebot's sentences (``babel.cfg``): Babel's Python extractor, with the
sentences that name a thread or a channel written once per platform that names them in words
of its own (msgctxt), as :class:`~bot.i18n.wording.Wording` reads them back."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import IO, Any, cast

from babel.messages.extract import extract_python

from bot.platforms import own_words_platforms

__all__ = ["extract"]

Extracted = tuple[int, str, Any, list[str]]
"""What a Babel extractor yields: line, function name, its string argument(s), comments."""


def extract(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Any,
) -> Iterator[Extracted]:
    """Babel's Python extractor (``babel.cfg``), with each :meth:`Wording._here` sentence given
    once in general and once per platform (msgctxt), so that every catalogue can say it in a
    platform's own words; a :meth:`Wording.here_on` sentence once in general and once for its
    platform."""
    wanted = dict.fromkeys([*keywords, "_here", "here_on"])
    found = extract_python(fileobj, wanted, comment_tags, options)
    # Babel annotates extractors with extract()'s result shape; they yield Extracted.
    for lineno, funcname, messages, comments in cast(Iterator[Extracted], found):
        if not any(isinstance(said, str) for said in _flat(messages)):
            continue  # a call named like a keyword with no sentence in it: not one of ours
        if funcname == "_here":
            yield lineno, "_", messages, comments
            for platform in own_words_platforms():
                yield lineno, "pgettext", (platform, messages), comments
        elif funcname == "here_on":
            platform, text = messages[:2]
            yield lineno, "_", text, comments
            yield lineno, "pgettext", (platform, text), comments
        else:
            yield lineno, funcname, messages, comments


def _flat(messages: object) -> tuple[object, ...]:
    return messages if isinstance(messages, tuple) else (messages,)
