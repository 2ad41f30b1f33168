"""A message's text as Telegram makes it: parsed (``parse_mode``) or checked (``entities``),
trimmed, measured, with the entities Telegram finds by itself added, and read back as a person
sees it.

Sources (tdlib/td ``MessageEntity.cpp`` and ``MessageContent.cpp``, tdlib/telegram-bot-api
``Client.cpp``): a ``parse_mode`` is ``HTML``, ``MarkdownV2`` or ``Markdown`` in any letter case
(or ``none``), and then ``entities`` are ignored; a parse error refuses the message ("can't parse
entities: ..."); explicit entities are checked in UTF-16 units against the text; leading and
trailing white space goes; the length limit counts Unicode code points of the result
(``utf8_length``); mentions (``@name``, 4 or more characters), bot commands, hashtags and URLs
are found in the text even when explicit entities came with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tests.sim.telegram.html_mode import ParseError, parse_html
from tests.sim.telegram.markdown_mode import parse_markdown, parse_markdown_v2

__all__ = ["Formatted", "TextRefused", "format_text", "readable", "utf16_len"]

_PARSERS = {"html": parse_html, "markdownv2": parse_markdown_v2, "markdown": parse_markdown}
_FOUND = (
    ("mention", re.compile(r"(?<![\w@])@[A-Za-z0-9_]{4,32}(?!\w)")),
    (
        "bot_command",
        re.compile(r"(?<![\w/<>])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w/<>])"),
    ),
    ("hashtag", re.compile(r"(?<![\w#])#\w*[^\W\d_]\w*")),
    ("url", re.compile(r"\bhttps?://[^\s<>\"]+[^\s<>\".,;:!?)\]']")),
)
_NO_FINDING_INSIDE = frozenset({"code", "pre", "text_link", "url", "text_mention"})


class TextRefused(Exception):
    """Telegram's refusal of a text, as the part after "Bad Request: "."""


@dataclass
class Formatted:
    text: str
    entities: list[dict[str, Any]] = field(default_factory=list)


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _index(text: str, units: int) -> int | None:
    """The code point index at ``units`` UTF-16 units, None inside a surrogate pair."""
    count = 0
    for i, char in enumerate(text):
        if count == units:
            return i
        count += 2 if ord(char) > 0xFFFF else 1
        if count > units:
            return None
    return len(text) if count == units else None


def format_text(
    text: str,
    parse_mode: str | None,
    entities: list[dict[str, Any]] | None,
    *,
    limit: int,
    allow_empty: bool = False,
) -> Formatted:
    """The text a person will see, or :class:`TextRefused` with Telegram's words."""
    if not text and not allow_empty:
        raise TextRefused("message text is empty")
    if len(text.encode("utf-8")) > 1 << 15:
        raise TextRefused("text is too long")
    mode = (parse_mode or "").lower()
    if text and mode not in ("", "none"):
        if mode not in _PARSERS:
            raise TextRefused("unsupported parse_mode")
        try:
            formatted = Formatted(*_PARSERS[mode](text))
        except ParseError as error:
            raise TextRefused(f"can't parse entities: {error}") from error
    else:
        formatted = Formatted(text, [dict(e) for e in entities or [] if e.get("length")])
        _check_entities(formatted)
    _trim(formatted)
    if not formatted.text and not allow_empty:
        raise TextRefused("text must be non-empty")
    if len(formatted.text) > limit:
        raise TextRefused("message is too long")
    _find_entities(formatted)
    return formatted


def _check_entities(formatted: Formatted) -> None:
    text, total = formatted.text, utf16_len(formatted.text)
    for entity in formatted.entities:
        if entity["offset"] < 0:
            raise TextRefused(f"receive an entity with incorrect offset {entity['offset']}")
        if entity["length"] < 0:
            raise TextRefused(f"receive an entity with incorrect length {entity['length']}")
    ordered = sorted(formatted.entities, key=lambda e: (e["offset"], -e["length"]))
    for entity in ordered:
        offset, end = entity["offset"], entity["offset"] + entity["length"]
        if offset <= total and _index(text, offset) is None:
            at = len(text[: _index(text, offset - 1) or 0].encode("utf-8"))
            raise TextRefused(f"entity begins in a middle of a UTF-16 symbol at byte offset {at}")
        if end <= total and _index(text, end) is None:
            at = len(text[: _index(text, end - 1) or 0].encode("utf-8"))
            raise TextRefused(
                f"entity beginning at UTF-16 offset {offset} ends in a middle of a UTF-16 symbol"
                f" at byte offset {at}"
            )
    for entity in ordered:
        if entity["offset"] > total:
            raise TextRefused(
                f"entity begins after the end of the text at UTF-16 offset {entity['offset']}"
            )
    for entity in reversed(ordered):
        if entity["offset"] + entity["length"] > total:
            raise TextRefused(
                f"entity beginning at UTF-16 offset {entity['offset']} ends after the end of the"
                f" text at UTF-16 offset {entity['offset'] + entity['length']}"
            )


def _trim(formatted: Formatted) -> None:
    """Leading and trailing white space goes, and the entities move and shrink with it."""
    text = formatted.text
    start = utf16_len(text[: len(text) - len(text.lstrip())])
    kept = text.strip()
    end = start + utf16_len(kept)
    entities = []
    for entity in formatted.entities:
        low, high = max(entity["offset"], start), min(entity["offset"] + entity["length"], end)
        if high > low:
            entities.append({**entity, "offset": low - start, "length": high - low})
    formatted.text, formatted.entities = kept, entities


def _find_entities(formatted: Formatted) -> None:
    text = formatted.text
    taken = [
        (e["offset"], e["offset"] + e["length"])
        for e in formatted.entities
        if e["type"] in _NO_FINDING_INSIDE
    ]
    for kind, pattern in _FOUND:
        for match in pattern.finditer(text):
            offset = utf16_len(text[: match.start()])
            length = utf16_len(match.group(0))
            if any(low < offset + length and offset < high for low, high in taken):
                continue
            formatted.entities.append({"type": kind, "offset": offset, "length": length})
            taken.append((offset, offset + length))
    formatted.entities.sort(key=lambda e: (e["offset"], -e["length"]))


_MARKS = {
    "bold": ("**", "**"),
    "italic": ("_", "_"),
    "underline": ("__", "__"),
    "strikethrough": ("~~", "~~"),
    "spoiler": ("||", "||"),
    "code": ("`", "`"),
    "pre": ("```\n", "\n```"),
}


def readable(text: str, entities: list[dict[str, Any]]) -> str:
    """The text with its formatting written in: ``**bold**``, ``[words](url)``, ``> quote``;
    found entities (mentions, URLs, commands) read as plain text, as they look."""
    opens: dict[int, list[str]] = {}
    closes: dict[int, list[str]] = {}
    quotes: list[tuple[int, int]] = []
    for entity in sorted(entities, key=lambda e: (e["offset"], -e["length"])):
        low, high = (
            _index(text, entity["offset"]),
            _index(text, entity["offset"] + entity["length"]),
        )
        if low is None or high is None:
            continue
        kind = entity["type"]
        if kind in ("blockquote", "expandable_blockquote"):
            quotes.append((low, high))
            continue
        if kind == "text_link":
            before, after = "[", f"]({entity['url']})"
        elif kind == "text_mention":
            before, after = "[", f"](tg://user?id={entity['user']['id']})"
        elif kind in _MARKS:
            before, after = _MARKS[kind]
        else:
            continue
        opens.setdefault(low, []).append(before)
        closes.setdefault(high, []).insert(0, after)
    out: list[str] = []
    for i in range(len(text) + 1):
        out.extend(closes.get(i, []))
        if i < len(text):
            if any(low <= i < high for low, high in quotes) and (i == 0 or text[i - 1] == "\n"):
                out.append("> ")
            out.extend(opens.get(i, []))
            out.append(text[i])
    return "".join(out)
