"""The limits the Bot API writes in its descriptions' text, parsed into rules.

``api.json`` carries no schema keywords: "Text of the message to be sent, 1-4096 characters
after entities parsing", ``callback_data`` "1-64 bytes", ``getUpdates.limit`` "Values between
1-100 are accepted", ``setMyCommands.commands`` "At most 100 commands can be specified". Each
phrase becomes a :class:`Limit` on its field. What the phrase counts follows Telegram's server
(tdlib/td ``MessageContent.cpp`` compares ``utf8_length``: characters are Unicode code points,
not UTF-16 units; a live probe (FerroxLabs/wayland#934) had 4,096 emoji, 8,192 UTF-16 units,
accepted and 4,097 refused). A limit "after entities parsing" is checked on the parsed text, by
:mod:`tests.sim.telegram.text`, with the error Telegram answers.

Ranges that are not limits of the field ("+1-212-555-0123", "values 1-6 for 🎲", "0 - 7 * 24 *
60") are left alone: ``test_simulator_limits.py`` lists every one, parsed or not.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from tests.sim.telegram.spec import Field, all_fields

__all__ = ["Limit", "choices", "limits", "measure"]

Kind = Literal["characters", "bytes", "items", "number", "charset"]

_CHARSET = re.compile(r"[Oo]nly (?:characters )?A-Z, a-z, 0-9, _ and - are allowed")
_TEXT = re.compile(
    r"(?<![\d+-])(\d+)-(\d+) ([Cc]haracters|[Bb]ytes)(?: with at most \d+ line feeds)?"
    r"(?P<parsed> after entit(?:y|ies) parsing)?"
)
_UP_TO_TEXT = re.compile(r"\(up to (\d+) characters\)")
_ITEMS = (
    re.compile(r"(?:list|array|List) of (\d+)-(\d+)\b"),
    re.compile(r"must include (\d+)-(\d+) items"),
)
_AT_MOST_ITEMS = (
    re.compile(r"[Aa]t most (\d+) [\w ]+? can be specified"),
    re.compile(r"(?:list|array|List) of up to (\d+)\b"),
    re.compile(r"\bup to (\d+) items"),
)
_NUMBER = (
    re.compile(r"Values between (\d+)-(\d+) are accepted"),
    re.compile(r"[,;] (\d+)-(\d+)(?=[.,]|$)"),
)


@dataclass(frozen=True)
class Limit:
    """One documented limit: ``low``..``high`` of ``kind`` (code points, UTF-8 bytes, array
    items or the number itself), or the allowed characters (``charset``)."""

    where: str
    kind: Kind
    low: int = 0
    high: int = 0
    after_entities: bool = False
    pattern: str = ""

    def describe(self) -> str:
        if self.kind == "charset":
            return f"{self.where}: only {self.pattern}"
        after = " after entities parsing" if self.after_entities else ""
        unit = "" if self.kind == "number" else f" {self.kind}"
        return f"{self.where}: {self.low}-{self.high}{unit}{after}"

    def broken_by(self, value: object) -> bool:
        """Whether ``value`` (already the right type) is outside the limit."""
        if self.kind == "charset":
            return isinstance(value, str) and re.fullmatch(self.pattern, value) is None
        size = measure(self.kind, value)
        return size is not None and not self.low <= size <= self.high


def measure(kind: Kind, value: object) -> float | None:
    if kind == "characters" and isinstance(value, str):
        return len(value)
    if kind == "bytes" and isinstance(value, str):
        return len(value.encode("utf-8"))
    if kind == "items" and isinstance(value, list):
        return len(value)
    if kind == "number" and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _base(field: Field) -> str:
    """The field's one kind: its type, or ``Array of`` for an array of any of several types."""
    if len(field.types) == 1:
        return field.types[0]
    return "Array of" if all(t.startswith("Array of ") for t in field.types) else ""


def _parse(field: Field) -> list[Limit]:
    text, kind = field.description, _base(field)
    found: list[Limit] = []
    if _CHARSET.search(text):
        found.append(Limit(field.where, "charset", pattern="[A-Za-z0-9_-]*"))
        text = _CHARSET.sub("", text)
    if kind == "String":
        for m in _TEXT.finditer(text):
            unit: Kind = "bytes" if m.group(3).lower() == "bytes" else "characters"
            low, high = int(m.group(1)), int(m.group(2))
            found.append(Limit(field.where, unit, low, high, bool(m.group("parsed"))))
        for m in _UP_TO_TEXT.finditer(text):
            found.append(Limit(field.where, "characters", 0, int(m.group(1))))
    elif kind.startswith("Array of"):
        for pattern in _ITEMS:
            for m in pattern.finditer(text):
                found.append(Limit(field.where, "items", int(m.group(1)), int(m.group(2))))
        for pattern in _AT_MOST_ITEMS:
            for m in pattern.finditer(text):
                found.append(Limit(field.where, "items", 0, int(m.group(1))))
    elif kind in ("Integer", "Float"):
        for pattern in _NUMBER:
            for m in pattern.finditer(text):
                found.append(Limit(field.where, "number", int(m.group(1)), int(m.group(2))))
    return found


@functools.cache
def _by_field() -> dict[str, tuple[Limit, ...]]:
    return {f.where: tuple(_parse(f)) for f in all_fields()}


def limits(field: Field | None = None) -> tuple[Limit, ...]:
    """The limits of ``field``, or of every field of the spec in its order."""
    if field is not None:
        return _by_field().get(field.where, ())
    return tuple(limit for found in _by_field().values() for limit in found)


_CHOICE_CLAUSE = re.compile(
    r"(?:[Mm]ust be one of|[Cc]urrently,? (?:it )?(?:must be |can be )?one of|[Mm]ust be either"
    r"|can be either|[Cc]urrently, can be|currently can be|currently one of|, one of|either)"
    r"(?P<rest>[^.]*(?:\.(?! [A-Z])[^.]*)*)"
)
_ALWAYS = re.compile(r'\balways "([^"]+)"|, must be ([a-z_0-9]+)$')
_CHOOSE_ONE = re.compile(r"Choose one, depending on[^:]*:(?P<rest>.*)")
_SNAKE = re.compile(r"\b(typing|[a-z]+(?:_[a-z]+)+)\b")
_QUOTED = re.compile(r'"([^"]*)"')


@functools.cache
def choices(field: Field) -> tuple[str, ...]:
    """The values a String field may take, when its description enumerates them: 'always
    "bold"', 'Scope type, must be chat', 'must be one of "danger" (red), ...', 'Currently, can
    be "mention" (@username), ...', sendChatAction's 'Choose one ...: typing for text messages,
    upload_photo for photos, ...'. Empty when it enumerates none."""
    if _base(field) != "String":
        return ()
    if always := _ALWAYS.search(field.description):
        return (always.group(1) or always.group(2),)
    if choose := _CHOOSE_ONE.search(field.description):
        return tuple(dict.fromkeys(_SNAKE.findall(choose.group("rest"))))
    clause = _CHOICE_CLAUSE.search(field.description)
    if clause is None:
        return ()
    rest = clause.group("rest").split("Defaults to")[0]
    return tuple(dict.fromkeys(_QUOTED.findall(rest)))
