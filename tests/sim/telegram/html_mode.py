"""``parse_mode=HTML`` as Telegram parses it, errors word for word.

The rules and error texts are those of TDLib's ``parse_html`` (tdlib/td,
``td/telegram/MessageEntity.cpp``, commit 022d60202e446ad1287b9fb68e687c8a0760788b), which the
Bot API server runs for ``parseTextEntities``: only the listed tags, ``&lt; &gt; &amp; &quot;``
and numeric references (any other ``&`` stays as it is), a tag closed by the innermost open tag
or by ``</>``, an entity only when it holds text, offsets in UTF-16 units, byte offsets in the
messages. The text is walked as UTF-8 bytes, as there.
"""

from __future__ import annotations

import re
from typing import Any

from tests.sim.telegram.links import checked_link, user_link

__all__ = ["ParseError", "parse_html"]

TAGS = frozenset(
    {
        "a", "b", "strong", "i", "em", "s", "strike", "del", "u", "ins", "tg-spoiler",
        "tg-emoji", "tg-time", "span", "pre", "code", "blockquote",
    }
)  # fmt: skip
_SIMPLE = {
    "i": "italic", "em": "italic", "b": "bold", "strong": "bold", "s": "strikethrough",
    "strike": "strikethrough", "del": "strikethrough", "u": "underline", "ins": "underline",
    "tg-spoiler": "spoiler",
}  # fmt: skip
_NAMED = {b"lt": "<", b"gt": ">", b"amp": "&", b"quot": '"'}
_SPACE = b" \t\r\n\x0b\x0c"


class ParseError(Exception):
    """What TDLib says about markup it cannot parse (the Bot API prefixes "can't parse
    entities: ")."""


def _units(byte: int) -> int:
    """UTF-16 units a UTF-8 lead byte starts (0 for continuation bytes)."""
    if 0x80 <= byte < 0xC0:
        return 0
    return 2 if byte >= 0xF0 else 1


def _entity_ref(data: bytes, pos: int) -> tuple[int, int] | None:
    """The code point an ``&...`` at ``pos`` means and where it ends, if Telegram decodes it."""
    end = pos + 1
    code = 0
    if data[end : end + 1] == b"#":
        end += 1
        hexadecimal = data[end : end + 1] == b"x"
        end += hexadecimal
        digits = re.match(rb"[0-9a-fA-F]*" if hexadecimal else rb"[0-9]*", data[end:])
        text = digits.group(0) if digits else b""
        end += len(text)
        code = int(text, 16 if hexadecimal else 10) if text else 0
        if code == 0 or code >= 0x10FFFF or end - pos >= 10:
            return None
    else:
        name = re.match(rb"[A-Za-z]*", data[end:])
        word = name.group(0) if name else b""
        end += len(word)
        if word not in _NAMED:
            return None
        code = ord(_NAMED[word])
    if data[end : end + 1] == b";":
        end += 1
    return code, end


def parse_html(source: str) -> tuple[str, list[dict[str, Any]]]:
    """The text and its entities, or :class:`ParseError`."""
    data = source.encode("utf-8") + b"\0"
    size = len(data) - 1
    out = bytearray()
    entities: list[dict[str, Any]] = []
    utf16 = 0
    stack: list[dict[str, Any]] = []
    i = 0
    while i < size:
        c = data[i]
        if c == ord("&") and (ref := _entity_ref(data, i)) is not None:
            code, i = ref
            utf16 += 2 if code > 0xFFFF else 1
            out += chr(code).encode("utf-8", "surrogatepass")
            continue
        if c != ord("<"):
            utf16 += _units(c)
            out.append(c)
            i += 1
            continue
        begin = i
        i += 1
        if data[i] != ord("/"):
            i = _open_tag(data, begin, i, stack, utf16, len(out))
        else:
            i = _close_tag(data, begin, i, stack, entities, utf16, out)
        i += 1
    if stack:
        raise ParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1]["tag"]}"')
    for entity in entities:
        if entity["type"] == "code":
            entity.pop("language", None)
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return out.decode("utf-8", "surrogatepass"), entities


def _open_tag(
    data: bytes, begin: int, i: int, stack: list[dict[str, Any]], utf16: int, at: int
) -> int:
    while data[i] not in _SPACE and data[i] != ord(">") and data[i] != 0:
        i += 1
    if data[i] == 0:
        raise ParseError(f"Unclosed start tag at byte offset {begin}")
    tag = data[begin + 1 : i].decode("utf-8", "replace").lower()
    if tag not in TAGS:
        raise ParseError(f'Unsupported start tag "{tag}" at byte offset {begin}')
    argument = ""
    while data[i] != ord(">"):
        while data[i] != 0 and data[i] in _SPACE:
            i += 1
        if data[i] == ord(">"):
            break
        start = i
        while data[i] not in _SPACE and data[i] not in b"=>/\"'" and data[i] != 0:
            i += 1
        name = data[start:i].decode("utf-8", "replace")
        if not name:
            raise ParseError(f'Empty attribute name in the tag "{tag}" at byte offset {begin}')
        while data[i] != 0 and data[i] in _SPACE:
            i += 1
        if data[i] != ord("="):
            if data[i] == 0:
                raise ParseError(f'Unclosed start tag "{tag}" at byte offset {begin}')
            if tag == "blockquote" and name == "expandable":
                argument = "1"
            continue
        i += 1
        while data[i] != 0 and data[i] in _SPACE:
            i += 1
        if data[i] == 0:
            raise ParseError(f'Unclosed start tag "{tag}" at byte offset {begin}')
        value, i = _attribute_value(data, i)
        if data[i] == 0:
            raise ParseError(f"Unclosed start tag at byte offset {begin}")
        argument = _argument(tag, name, value, argument)
    if tag == "span" and argument != "spoiler":
        raise ParseError(f'Tag "span" must have class "tg-spoiler" at byte offset {begin}')
    stack.append({"tag": tag, "argument": argument, "offset": utf16, "at": at})
    return i


def _attribute_value(data: bytes, i: int) -> tuple[str, int]:
    if data[i] not in b"'\"":
        start = i
        while (chr(data[i]).isalnum() and data[i] < 0x80) or data[i] in b".-":
            i += 1
        if data[i] not in _SPACE and data[i] != ord(">"):
            raise ParseError(f"Unexpected end of name token at byte offset {start}")
        return data[start:i].decode("utf-8").lower(), i
    quote = data[i]
    i += 1
    value = bytearray()
    while data[i] != quote and data[i] != 0:
        if data[i] == ord("&") and (ref := _entity_ref(data, i)) is not None:
            code, i = ref
            value += chr(code).encode("utf-8", "surrogatepass")
            continue
        value.append(data[i])
        i += 1
    if data[i] == quote:
        i += 1
    return value.decode("utf-8", "replace"), i


def _argument(tag: str, name: str, value: str, argument: str) -> str:
    if tag == "a" and name == "href":
        return value
    if tag == "code" and name == "class" and value.startswith("language-"):
        return value.removeprefix("language-")
    if tag == "span" and name == "class" and value.startswith("tg-"):
        return value.removeprefix("tg-")
    if (tag == "tg-emoji" and name == "emoji-id") or (tag == "tg-time" and name == "format"):
        return value
    if tag == "blockquote" and name == "expandable":
        return "1"
    return argument


def _close_tag(
    data: bytes,
    begin: int,
    i: int,
    stack: list[dict[str, Any]],
    entities: list[dict[str, Any]],
    utf16: int,
    out: bytearray,
) -> int:
    if not stack:
        raise ParseError(f"Unexpected end tag at byte offset {begin}")
    while data[i] not in _SPACE and data[i] != ord(">") and data[i] != 0:
        i += 1
    end_tag = data[begin + 2 : i].decode("utf-8", "replace").lower()
    while data[i] in _SPACE and data[i] != 0:
        i += 1
    if data[i] != ord(">"):
        raise ParseError(f"Unclosed end tag at byte offset {begin}")
    top = stack.pop()
    tag = top["tag"]
    if end_tag and end_tag != tag:
        raise ParseError(
            f'Unmatched end tag at byte offset {begin}, expected "</{tag}>", found "</{end_tag}>"'
        )
    if utf16 > top["offset"]:
        _entity(top, utf16 - top["offset"], entities, bytes(out[top["at"] :]))
    return i


def _entity(top: dict[str, Any], length: int, entities: list[dict[str, Any]], inner: bytes) -> None:
    tag, argument, offset = top["tag"], top["argument"], top["offset"]
    entity: dict[str, Any] = {"offset": offset, "length": length}
    if tag in _SIMPLE or (tag == "span" and argument == "spoiler"):
        entity["type"] = _SIMPLE.get(tag, "spoiler")
    elif tag == "tg-emoji":
        if not argument.isdigit() or int(argument) == 0:
            raise ParseError("Invalid custom emoji identifier specified")
        entity.update(type="custom_emoji", custom_emoji_id=argument)
    elif tag == "tg-time":
        return  # a date-time needs its unix attribute, which the simulator does not model
    elif tag == "a":
        url = argument or inner.decode("utf-8", "replace")
        if (user_id := user_link(url)) is not None:
            entity.update(type="text_mention", user={"id": user_id})
        elif link := checked_link(url):
            entity.update(type="text_link", url=link)
        else:
            return
    elif tag == "pre":
        last = entities[-1] if entities else None
        same = last is not None and (last["offset"], last["length"]) == (offset, length)
        if last and same and last["type"] == "code" and last.get("language"):
            last["type"] = "pre"
            return
        entity["type"] = "pre"
    elif tag == "code":
        last = entities[-1] if entities else None
        same = last is not None and (last["offset"], last["length"]) == (offset, length)
        if last and same and last["type"] == "pre" and argument:
            last["language"] = argument
            return
        entity.update(type="code", language=argument)
    else:  # blockquote
        entity["type"] = "expandable_blockquote" if argument else "blockquote"
    entities.append(entity)
