"""``parse_mode=MarkdownV2`` (and the legacy ``Markdown``) as Telegram parses them.

The rules and error texts are those of TDLib's ``parse_markdown_v2`` and ``parse_markdown``
(tdlib/td, ``td/telegram/MessageEntity.cpp``, commit 022d60202e446ad1287b9fb68e687c8a0760788b):
every one of ``_*[]()~`>#+-=|{}.!`` outside an entity must be escaped with ``\\`` ("Character
'.' is reserved and must be escaped with the preceding '\\'"), inside ``code``/``pre`` only
`` ` `` and ``\\``; an entity must end ("Can't find end of Italic entity at byte offset 9");
``>`` starts a block quote only at a line's start; an empty entity is dropped. Byte offsets
count UTF-8 bytes of the source, entity offsets UTF-16 units of the result.
"""

from __future__ import annotations

from typing import Any

from tests.sim.telegram.html_mode import ParseError
from tests.sim.telegram.links import checked_link, user_link

__all__ = ["parse_markdown", "parse_markdown_v2"]

_RESERVED = b"_*[]()~`>#+-=|{}.!\n"
_NAMES = {
    "bold": "Bold", "italic": "Italic", "underline": "Underline", "strikethrough": "Strikethrough",
    "spoiler": "Spoiler", "code": "Code", "pre": "Pre", "text_link": "TextUrl",
    "custom_emoji": "CustomEmoji", "blockquote": "BlockQuote",
}  # fmt: skip


def _units(byte: int) -> int:
    if 0x80 <= byte < 0xC0:
        return 0
    return 2 if byte >= 0xF0 else 1


def _reserved(char: int) -> ParseError:
    return ParseError(
        f"Character '{chr(char)}' is reserved and must be escaped with the preceding '\\'"
    )


def _unended(open_entity: dict[str, Any]) -> ParseError:
    name = _NAMES[open_entity["type"]]
    if open_entity["type"] == "pre" and open_entity["language"]:
        name = "PreCode"
    return ParseError(f"Can't find end of {name} entity at byte offset {open_entity['byte']}")


class _V2:
    """One MarkdownV2 parse: TDLib's loop, its state kept on the instance."""

    def __init__(self, source: str) -> None:
        self.data = source.encode("utf-8") + b"\0\0\0"
        self.size = len(self.data) - 3
        self.out = bytearray()
        self.entities: list[dict[str, Any]] = []
        self.stack: list[dict[str, Any]] = []
        self.utf16 = 0
        self.quote = False
        self.line_start = True

    def run(self) -> tuple[str, list[dict[str, Any]]]:
        data, i = self.data, 0
        while i < self.size:
            c = data[i]
            if c == ord("\\") and 0 < data[i + 1] <= 126:
                self.out.append(data[i + 1])
                self.utf16 += 1
                if data[i + 1] != ord("\r"):
                    self.line_start = data[i + 1] == ord("\n")
                i += 2
                continue
            in_code = bool(self.stack) and self.stack[-1]["type"] in ("code", "pre")
            if c not in (b"`" if in_code else _RESERVED):
                if _units(c):
                    self.utf16 += _units(c)
                    self.line_start = self.line_start and c == ord("\r")
                self.out.append(c)
                i += 1
            elif self.stack and self._ends(i):
                i = self._close(i)
            else:
                i = self._open(i)
        return self._finish()

    def _ends(self, i: int) -> bool:
        data, c = self.data, self.data[i]
        if self.quote and c == ord("\n") and data[i + 1] != ord(">"):
            return True
        double = data[i + 1] == c
        return {
            "bold": c == ord("*"),
            "italic": c == ord("_") and not double,
            "code": c == ord("`"),
            "pre": c == ord("`") and data[i + 1 : i + 3] == b"``",
            "text_link": c == ord("]"),
            "underline": c == ord("_") and double,
            "strikethrough": c == ord("~"),
            "spoiler": c == ord("|") and double,
            "custom_emoji": c == ord("]"),
            "blockquote": False,
        }[self.stack[-1]["type"]]

    def _push(self, kind: str, byte: int, language: str = "") -> None:
        self.stack.append(
            {
                "type": kind,
                "offset": self.utf16,
                "byte": byte,
                "at": len(self.out),
                "language": language,
            }
        )

    def _open(self, i: int) -> int:
        data, c = self.data, self.data[i]
        if c == ord("\n"):
            self.out.append(c)
            self.utf16 += 1
            self.line_start = True
            return i + 1
        if c == ord(">"):
            if not self.line_start:
                raise _reserved(c)
            if not self.quote:
                self._push("blockquote", i)
                self.quote = True
            return i + 1
        if c == ord("_"):
            self._push("underline" if data[i + 1] == c else "italic", i)
            return i + (2 if data[i + 1] == c else 1)
        if c in b"*~[":
            self._push({ord("*"): "bold", ord("~"): "strikethrough", ord("["): "text_link"}[c], i)
            return i + 1
        if c == ord("|") and data[i + 1] == c:
            self._push("spoiler", i)
            return i + 2
        if c == ord("!") and data[i + 1] == ord("["):
            self._push("custom_emoji", i)
            return i + 2
        if c == ord("`") and data[i + 1 : i + 3] == b"``":
            return self._open_pre(i)
        if c == ord("`"):
            self._push("code", i)
            return i + 1
        raise _reserved(c)

    def _open_pre(self, byte: int) -> int:
        data, i, language = self.data, byte + 3, ""
        end = i
        while data[end] not in b" \t\r\n\x0b\x0c`\0":
            end += 1
        if end != i and end < self.size and data[end] != ord("`"):
            language, i = data[i:end].decode("utf-8", "replace"), end
        if data[i] in b"\r\n":
            i += 2 if data[i + 1] in b"\r\n" and data[i] != data[i + 1] else 1
        self._push("pre", byte, language)
        return i

    def _close(self, i: int) -> int:
        top = self.stack[-1]
        kind = top["type"]
        if self.data[i] == ord("\n") and kind != "blockquote":
            raise _unended(top)
        if kind == "blockquote":
            self.stack.pop()
            self.out.append(self.data[i])
            self.utf16 += 1
            self.quote, self.line_start = False, True
            self._add({"type": kind}, top)
            return i + 1
        entity: dict[str, Any] = {"type": kind}
        keep = self.utf16 != top["offset"]
        step = {"underline": 2, "spoiler": 2, "pre": 3}.get(kind, 1)
        if kind == "pre" and top["language"]:
            entity["language"] = top["language"]
        if kind in ("text_link", "custom_emoji"):
            i, url = _url(self.data, i, bytes(self.out[top["at"] :]), kind)
            step = 1
            if kind == "custom_emoji":
                entity["custom_emoji_id"] = url.removeprefix("tg://emoji?id=")
            elif (user_id := user_link(url)) is not None:
                entity.update(type="text_mention", user={"id": user_id})
            elif link := checked_link(url):
                entity["url"] = link
            else:
                keep = False
        self.stack.pop()
        if keep:
            self._add(entity, top)
        return i + step

    def _add(self, entity: dict[str, Any], top: dict[str, Any]) -> None:
        length = self.utf16 - top["offset"]
        if length:
            self.entities.append({**entity, "offset": top["offset"], "length": length})

    def _finish(self) -> tuple[str, list[dict[str, Any]]]:
        if self.quote and self.stack and self.stack[-1]["type"] == "blockquote":
            self._add({"type": "blockquote"}, self.stack.pop())
        if self.stack:
            raise _unended(self.stack[-1])
        self.entities.sort(key=lambda e: (e["offset"], -e["length"]))
        return self.out.decode("utf-8"), self.entities


def parse_markdown_v2(source: str) -> tuple[str, list[dict[str, Any]]]:
    return _V2(source).run()


def _url(data: bytes, i: int, inner: bytes, kind: str) -> tuple[int, str]:
    """The target after ``](``, read up to ``)`` with escapes; the text itself without one."""
    if data[i + 1] != ord("("):
        if kind == "custom_emoji":
            raise ParseError("The entity must contain a tg://emoji or tg://time URL")
        return i, inner.decode("utf-8", "replace")
    i += 2
    begin, url = i, bytearray()
    while i < len(data) - 3 and data[i] != ord(")"):
        if data[i] == ord("\\") and 0 < data[i + 1] <= 126:
            url.append(data[i + 1])
            i += 2
            continue
        url.append(data[i])
        i += 1
    if data[i] != ord(")"):
        raise ParseError(f"Can't find end of a URL at byte offset {begin}")
    return i, url.decode("utf-8", "replace")


def parse_markdown(source: str) -> tuple[str, list[dict[str, Any]]]:
    """The legacy ``Markdown`` mode: ``*bold*``, ``_italic_``, `` `code` ``, ``[text](url)``."""
    data = source.encode("utf-8") + b"\0\0\0"
    size = len(data) - 3
    out = bytearray()
    entities: list[dict[str, Any]] = []
    utf16, i = 0, 0
    while i < size:
        c = data[i]
        if c == ord("\\") and data[i + 1] in b"_*`[":
            out.append(data[i + 1])
            utf16, i = utf16 + 1, i + 2
            continue
        if c not in b"_*`[":
            utf16 += _units(c)
            out.append(c)
            i += 1
            continue
        begin, end_char = i, ord("]") if c == ord("[") else c
        pre = c == ord("`") and data[i + 1 : i + 3] == b"``"
        i += 3 if pre else 1
        offset, at = utf16, len(out)
        while i < size and (data[i] != end_char or (pre and data[i + 1 : i + 3] != b"``")):
            utf16 += _units(data[i])
            out.append(data[i])
            i += 1
        if i == size:
            raise ParseError(f"Can't find end of the entity starting at byte offset {begin}")
        if utf16 != offset:
            entity: dict[str, Any] = {"offset": offset, "length": utf16 - offset}
            if c == ord("["):
                i, url = _url(data, i, bytes(out[at:]), "text_link")
                if link := checked_link(url):
                    entities.append({**entity, "type": "text_link", "url": link})
            else:
                kind = {ord("_"): "italic", ord("*"): "bold"}.get(c, "pre" if pre else "code")
                entities.append({**entity, "type": kind})
        i += 3 if pre else 1
    return out.decode("utf-8"), entities
