"""Telegram's HTML (``parse_mode=HTML``): the answer's Markdown written in the tags Telegram
parses, measured as Telegram measures it, and made plain when Telegram refuses it.

Only ``&``, ``<`` and ``>`` are escaped (Telegram decodes ``&lt; &gt; &amp; &quot;``); bold,
italic, strikethrough, code, code blocks and links are tags, and what HTML has no tag for here
(headings, lists, rules, quotes: Telegram's own quote is an entity that cannot be nested or
split across messages) is written in characters. Telegram finds ``@names`` in the text itself,
explicit entities or not (tdlib ``find_mentions``: an ``@`` that no ASCII word character
precedes, then at least four of ``A-Z a-z 0-9 _``), but not inside code or a link's label: a
zero-width space after such an ``@`` leaves the word as written and pings nobody. The limits
count characters after the markup is parsed (:meth:`TelegramHTML.length`).
"""

from __future__ import annotations

import html
import re

from bot.render.dialect import ZWSP, Dialect
from integrations.telegram.limits import LINK

__all__ = ["TelegramHTML", "plain", "visible"]

_TAG = re.compile(r"<[^>]*>")
_PIECES = re.compile(r"(<[^>]*>)")
"""Splits HTML into text and tags, alternately (text first)."""
_BARE_AT_END = re.compile(r"(?<![A-Za-z0-9_])@\Z")
_MENTION = re.compile(r"(?<![A-Za-z0-9_])@(?=[A-Za-z0-9_])")
_USERNAME_START = re.compile(r"[A-Za-z0-9_]")
_OPAQUE = re.compile(r"<(/?)(code|pre|a)\b", re.IGNORECASE)
"""Where Telegram finds no mention: code, code blocks and a link's label."""
_BLOCK_EDGES = re.compile(r"(<pre>(?:<code[^>]*>)?)\n|\n((?:</code>)?</pre>)")
_CODE_TAGS = re.compile(r"</?code[^>]*>")
_INFO = re.compile(r"[^\w+#.-]")


def visible(text: str) -> str:
    """What Telegram shows of HTML citebot wrote: the tags gone, the entities decoded."""
    return html.unescape(_TAG.sub("", text))


def plain(text: str) -> str:
    """HTML citebot wrote as the plain text it shows, for a message Telegram refused to parse:
    the words stay (mentions still broken), the formatting goes."""
    return visible(text).strip()


class TelegramHTML(Dialect):
    quote_prefix = "▎ "
    footnote_separator = "·"
    link_limit = LINK
    mention = _MENTION

    def escape(self, text: str, *, line_start: bool) -> str:
        return self.kill_mentions(html.escape(text, quote=False))

    def kill_mentions(self, text: str) -> str:
        return _MENTION.sub("@" + ZWSP, text)

    def code_span(self, text: str) -> str:
        return f"<code>{html.escape(text, quote=False)}</code>" if text else ""

    def emphasis(self, kind: str, inner: str) -> str:
        if not inner:
            return ""
        tag = {"strong": "b", "emph": "i", "strike": "s"}[kind]
        return f"<{tag}>{inner}</{tag}>"

    def link_label(self, inner: str) -> str:
        """A link holds no code: Telegram would keep only one of the two entities."""
        return _CODE_TAGS.sub("", inner).strip()

    def linked(self, label: str, target: str) -> str:
        return f'<a href="{html.escape(target)}">{label}</a>'

    def url_text(self, target: str) -> str:
        return html.escape(target, quote=False)

    def heading(self, level: int, inner: str) -> str:
        return f"<b>{inner}</b>" if inner else ""

    def fence(self, info: str) -> tuple[str, str]:
        language = _INFO.sub("", info)[:20]
        if language:
            return f'<pre><code class="language-{language}">', "</code></pre>"
        return "<pre>", "</pre>"

    def code_line(self, line: str) -> str:
        return html.escape(line, quote=False)

    def bullet(self, number: int | None) -> str:
        return "• " if number is None else f"{number}. "

    def rule(self) -> str:
        return "─" * 12

    def neutralise(self, text: str) -> str:
        """The last pass over a message: a code block's first and last line breaks go (the
        writer puts its lines between the tags and breaks), and an ``@`` whose name only a tag
        parts from it (``@<b>name</b>``) is broken too, outside code and links."""
        text = _BLOCK_EDGES.sub(lambda m: m.group(1) or m.group(2), text)
        if "@" not in text:
            return text
        out: list[str] = []
        opaque = 0
        pending = -1  # the index in ``out`` of a text that ends with a bare "@"
        for index, piece in enumerate(_PIECES.split(text)):
            if index % 2:  # a tag
                out.append(piece)
                marker = _OPAQUE.match(piece)
                if marker is not None:
                    opaque = max(0, opaque + (-1 if marker.group(1) else 1))
                continue
            if not piece:
                continue
            if opaque:
                out.append(piece)
                pending = -1
                continue
            if pending >= 0 and _USERNAME_START.match(piece):
                out[pending] += ZWSP
            piece = self.kill_mentions(piece)
            out.append(piece)
            pending = len(out) - 1 if _BARE_AT_END.search(piece) else -1
        return "".join(out)

    def length(self, text: str) -> int:
        """Characters after Telegram parses the HTML (its 4,096 count these): tags count
        for nothing and ``&amp;`` for one."""
        return len(visible(text))
