"""Rich messages (``sendRichMessage``, ``sendRichMessageDraft``, ``editMessageText`` with
``rich_message``): what a person reads, and the documented limits.

From the Bot API's "Rich message formatting options" (Bot API 10.1): only the listed HTML tags;
the named entities ``&lt; &gt; &amp; &quot; &apos; &nbsp; &hellip; &mdash; &ndash; &lsquo;
&rsquo; &ldquo; &rdquo;`` and numeric ones; up to 32768 characters of text, 500 blocks
(nested blocks, list items, table rows, quotations and details count), 16 levels of nesting,
20 table columns. Markdown is "compatible with GitHub Flavored Markdown where possible and can
contain arbitrary HTML": the simulator renders it with markdown-it (footnotes ``[^id]`` become
references) and reads the HTML. Telegram's own error texts for rich messages are not published;
the simulator's refusals say what broke, prefixed "can't parse rich message: ".
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from markdown_it import MarkdownIt

__all__ = ["RichRefused", "RichView", "read_rich"]

TEXT_MAX, BLOCKS_MAX, DEPTH_MAX, COLUMNS_MAX = 32768, 500, 16, 20
INLINE = frozenset(
    [
        "a",
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "code",
        "mark",
        "sub",
        "sup",
        "tg-spoiler",
        "tg-reference",
        "tg-emoji",
        "img",
        "tg-time",
        "tg-math",
        "br",
        "cite",
        "input",
    ]
)
BLOCK = frozenset(
    [
        "p",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "pre",
        "footer",
        "hr",
        "ul",
        "ol",
        "li",
        "blockquote",
        "aside",
        "video",
        "audio",
        "figure",
        "figcaption",
        "tg-map",
        "tg-collage",
        "tg-slideshow",
        "table",
        "caption",
        "tr",
        "th",
        "td",
        "details",
        "summary",
        "tg-math-block",
    ]
)
_COUNTED = frozenset(BLOCK - {"figcaption", "summary", "caption", "th", "td", "ul", "ol"})
_NAMED = frozenset(
    [
        "lt",
        "gt",
        "amp",
        "quot",
        "apos",
        "nbsp",
        "hellip",
        "mdash",
        "ndash",
        "lsquo",
        "rsquo",
        "ldquo",
        "rdquo",
    ]
)
_VOID = frozenset({"br", "hr", "img", "input", "tg-map"})


class RichRefused(Exception):
    """A rich message Telegram would not take (the part after "Bad Request: ")."""


@dataclass
class RichView:
    text: str
    """What a person reads, block by block."""
    blocks: int
    depth: int
    links: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.lines: list[str] = []
        self.line: list[str] = []
        self.stack: list[str] = []
        self.blocks = 0
        self.depth = 0
        self.links: list[str] = []
        self.columns = 0

    def _flush(self, prefix: str = "") -> None:
        text = "".join(self.line).strip()
        if text:
            quote = "> " * sum(tag in ("blockquote", "aside") for tag in self.stack)
            self.lines.append(quote + prefix + text)
        self.line = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in INLINE | BLOCK:
            raise RichRefused(f'can\'t parse rich message: unsupported tag "{tag}"')
        values = dict(attrs)
        if tag in BLOCK:
            self._flush()
        if tag in _COUNTED:
            self.blocks += 1
        if tag not in _VOID:
            self.stack.append(tag)
            self.depth = max(self.depth, len(self.stack))
        if tag == "a" and (href := values.get("href")):
            self.links.append(href)
            self.line.append("[")
        elif tag == "li":
            self.line.append("- ")
        elif tag == "summary":
            self.line.append("▸ ")
        elif tag == "cite":
            self.line.append(" — ")
        elif tag == "hr":
            self.lines.append("───")
        elif tag == "br":
            self._flush()
        elif tag == "tr":
            self.columns = 0
        elif tag in ("td", "th"):
            self.columns += 1
            if self.columns > COLUMNS_MAX:
                raise RichRefused(
                    f"can't parse rich message: more than {COLUMNS_MAX} table columns"
                )
            self.line.append(" | " if self.columns > 1 else "")
        elif tag[:1] == "h" and tag[1:].isdigit():
            self.line.append("#" * int(tag[1:]) + " ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.stack:
            raise RichRefused(f'can\'t parse rich message: unexpected end tag "</{tag}>"')
        while self.stack and self.stack[-1] != tag:
            self.stack.pop()
        if tag == "a" and self.links:
            self.line.append(f"]({self.links[-1]})")
        if tag in BLOCK and tag not in ("td", "th"):
            self._flush()
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.line.append(re.sub(r"\s+", " ", data) if "pre" not in self.stack else data)

    def handle_entityref(self, name: str) -> None:
        if name not in _NAMED:
            raise RichRefused(f"can't parse rich message: unsupported entity &{name};")
        self.line.append(html.unescape(f"&{name};"))

    def handle_charref(self, name: str) -> None:
        self.line.append(html.unescape(f"&#{name};"))


_FOOTNOTE_DEFINITION = re.compile(r"^\[\^([^\]]+)\]:\s*(.*)$", re.M)
_FOOTNOTE_REFERENCE = re.compile(r"\[\^([^\]]+)\]")


def _markdown_to_html(source: str) -> str:
    source = _FOOTNOTE_DEFINITION.sub(
        lambda m: f'\n<tg-reference name="{m.group(1)}">{m.group(2)}</tg-reference>\n', source
    )
    source = _FOOTNOTE_REFERENCE.sub(
        lambda m: f'<sup><a href="#{m.group(1)}">{m.group(1)}</a></sup>', source
    )
    parser = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    rendered = parser.render(source)
    return re.sub(r"</?(?:thead|tbody)>\n?", "", rendered)


def read_rich(rich: dict[str, object]) -> RichView:
    """What a person sees of an ``InputRichMessage`` (already valid against the spec), or
    :class:`RichRefused`."""
    given = [key for key in ("html", "markdown", "blocks") if rich.get(key) is not None]
    if len(given) != 1:
        raise RichRefused("can't parse rich message: exactly one of html or markdown must be used")
    if given == ["blocks"]:
        raise RichRefused("can't parse rich message: blocks are not in Bot API 10.1")
    source = str(rich[given[0]])
    reader = _Reader()
    reader.feed(source if given == ["html"] else _markdown_to_html(source))
    reader.close()
    reader._flush()
    text = "\n".join(reader.lines)
    if not text.strip():
        raise RichRefused("can't parse rich message: the message is empty")
    if len(text) > TEXT_MAX:
        raise RichRefused(f"can't parse rich message: more than {TEXT_MAX} characters")
    if reader.blocks > BLOCKS_MAX:
        raise RichRefused(f"can't parse rich message: more than {BLOCKS_MAX} blocks")
    if reader.depth > DEPTH_MAX:
        raise RichRefused(f"can't parse rich message: nested deeper than {DEPTH_MAX} levels")
    return RichView(text=text, blocks=reader.blocks, depth=reader.depth, links=reader.links)
