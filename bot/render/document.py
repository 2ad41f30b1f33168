"""The model's Markdown, parsed once by markdown-it-py into a small document the dialects write.

Footnote markers (``[^N]``, ``[N]`` and Azure's ``[docN]``) become :class:`Footnote` nodes
here, and only in plain text: brackets inside code spans, code blocks and link text are left
alone because markdown-it has already put them into other nodes. Each footnote carries the
sentence of the answer it stands in, so a citation card can say what it supports. A link whose
label names another host than its own is labelled with its own (:func:`_honest`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from bot.render.links import spoofed_host
from bot.render.text import ends_sentence, sentence_ends, stop_of
from bot.upstream.citations import safe_url

__all__ = [
    "MARKER",
    "Block",
    "Break",
    "Code",
    "CodeBlock",
    "Footnote",
    "Heading",
    "Inline",
    "Link",
    "ListBlock",
    "Paragraph",
    "Quote",
    "Rule",
    "Span",
    "Table",
    "Text",
    "parse_blocks",
    "plain_text",
]

MARKER = re.compile(r"\[\^([0-9]{1,9})\]|\[([1-9][0-9]{0,2})\]|\[doc([1-9][0-9]{0,2})\]")
"""``[^N]`` is footnote syntax whatever N is (a bad number is dropped as dangling, never shown);
a plain ``[N]`` is taken for a marker only while it looks like one (up to 999), as is Azure On
Your Data's ``[docN]``."""
_CLOSES = re.compile(rf"(?:{MARKER.pattern})*[.,;:!?]")
"""What follows a footnote that closes a clause: more footnotes, then a stop."""
_STRAY_MARKS = re.compile(r"^(?:[*_]+\s+)+|(?:\s+[*_]+)+$")
"""Emphasis marks markdown-it left as text because nothing closed them (a stream cut after
``**``): at a sentence's edge, alone between spaces, they are no words of it."""


@dataclass(frozen=True, slots=True)
class Text:
    text: str


@dataclass(frozen=True, slots=True)
class Code:
    text: str


@dataclass(frozen=True, slots=True)
class Span:
    """Emphasis of some kind around inline content: ``strong``, ``emph`` or ``strike``."""

    kind: str
    children: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Link:
    """A link; ``url`` is None when the target is not http(s), so only the label is shown."""

    url: str | None
    children: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Footnote:
    number: int
    sentence: str = ""


@dataclass(frozen=True, slots=True)
class Break:
    hard: bool


Inline = Text | Code | Span | Link | Footnote | Break


@dataclass(frozen=True, slots=True)
class Paragraph:
    inlines: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    inlines: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class CodeBlock:
    info: str
    text: str


@dataclass(frozen=True, slots=True)
class Quote:
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class ListBlock:
    """A list; ``start`` is None for bullets, else the first item's number."""

    start: int | None
    items: tuple[tuple[Block, ...], ...]


@dataclass(frozen=True, slots=True)
class Table:
    header: tuple[tuple[Inline, ...], ...]
    rows: tuple[tuple[tuple[Inline, ...], ...], ...]


@dataclass(frozen=True, slots=True)
class Rule:
    pass


Block = Paragraph | Heading | CodeBlock | Quote | ListBlock | Table | Rule


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    # Every link is parsed as a link, so that a javascript: one shows its label alone; which
    # targets become real links is decided by safe_url, in one place.
    parser.validateLink = lambda url: True  # type: ignore[method-assign]
    return parser


def parse_blocks(source: str) -> tuple[Block, ...]:
    """Parse one block of answer source into the document model."""
    if not source.strip():
        return ()
    root = SyntaxTreeNode(_parser().parse(source))
    return tuple(_blocks(root.children))


def _blocks(nodes: Sequence[SyntaxTreeNode]) -> Iterator[Block]:
    for node in nodes:
        kind = node.type
        if kind == "paragraph":
            yield Paragraph(_container(node.children[0]))
        elif kind == "heading":
            yield Heading(int(node.tag[1:]), _container(node.children[0]))
        elif kind in ("fence", "code_block"):
            yield CodeBlock(node.info.strip() if kind == "fence" else "", node.content)
        elif kind == "blockquote":
            yield Quote(tuple(_blocks(node.children)))
        elif kind in ("bullet_list", "ordered_list"):
            start = None
            if kind == "ordered_list":
                raw_start = node.attrs.get("start", 1)
                start = raw_start if isinstance(raw_start, int) else int(str(raw_start))
            items = tuple(tuple(_blocks(item.children)) for item in node.children)
            yield ListBlock(start, items)
        elif kind == "table":
            yield _table(node)
        elif kind == "hr":
            yield Rule()
        elif kind == "html_block":
            yield Paragraph(_annotate(_markers(node.content.rstrip("\n"))))


def _table(node: SyntaxTreeNode) -> Table:
    header: tuple[tuple[Inline, ...], ...] = ()
    rows: list[tuple[tuple[Inline, ...], ...]] = []
    for section in node.children:
        for row in section.children:
            cells = tuple(
                _container(cell.children[0]) if cell.children else () for cell in row.children
            )
            if section.type == "thead":
                header = cells
            else:
                rows.append(cells)
    return Table(header, tuple(rows))


def _container(inline: SyntaxTreeNode) -> tuple[Inline, ...]:
    return _annotate(tuple(_inlines(inline.children)))


def _inlines(nodes: Sequence[SyntaxTreeNode], *, in_link: bool = False) -> Iterator[Inline]:
    for node in nodes:
        kind = node.type
        if kind in ("text", "html_inline"):
            if in_link:
                yield Text(node.content)
            else:
                yield from _markers(node.content)
        elif kind == "code_inline":
            yield Code(node.content)
        elif kind in ("strong", "em", "s"):
            name = {"strong": "strong", "em": "emph", "s": "strike"}[kind]
            yield Span(name, tuple(_inlines(node.children, in_link=in_link)))
        elif kind == "link":
            url = safe_url(node.attrs.get("href"))
            yield Link(url, _honest(tuple(_inlines(node.children, in_link=True)), url))
        elif kind == "image":
            label = tuple(_inlines(node.children, in_link=True)) or (Text("image"),)
            url = safe_url(node.attrs.get("src"))
            yield Link(url, _honest(label, url))
        elif kind in ("softbreak", "hardbreak"):
            yield Break(kind == "hardbreak")


def _honest(label: tuple[Inline, ...], url: str | None) -> tuple[Inline, ...]:
    """A link's label, or the host the link leads to where the label names another
    (:func:`~bot.render.links.spoofed_host`): every platform then shows that host."""
    host = spoofed_host(plain_text(label), url) if url else None
    return (Text(host),) if host else label


def _markers(text: str) -> tuple[Inline, ...]:
    """Text and footnotes. A footnote that closes a clause (a stop follows it) sits on the word
    before it: Azure writes ``images [doc1].``, which reads ``images¹.``."""
    if "[" not in text:
        return (Text(text),) if text else ()
    out: list[Inline] = []
    last = 0
    for match in MARKER.finditer(text):
        before = text[last : match.start()]
        if _CLOSES.match(text, match.end()):
            before = before.rstrip(" \t")
        if before:
            out.append(Text(before))
        out.append(Footnote(int(match.group(1) or match.group(2) or match.group(3))))
        last = match.end()
    if last < len(text):
        out.append(Text(text[last:]))
    return tuple(out)


def plain_text(inlines: Sequence[Inline]) -> str:
    """What a reader sees of some inline content, without formatting or footnotes."""
    return "".join(_plain(node) for node in inlines)


def _plain(node: Inline) -> str:
    if isinstance(node, Text | Code):
        return node.text
    if isinstance(node, Span | Link):
        return plain_text(node.children)
    if isinstance(node, Break):
        return " "
    return ""


def _annotate(inlines: tuple[Inline, ...]) -> tuple[Inline, ...]:
    """Give every footnote of a paragraph (or heading, cell) the sentence it stands in."""
    if not any(isinstance(node, Footnote | Span) for node in inlines):
        return inlines
    positions: list[int] = []
    parts: list[str] = []
    length = 0

    def walk(nodes: Sequence[Inline]) -> None:
        nonlocal length
        for node in nodes:
            if isinstance(node, Footnote):
                positions.append(length)
            elif isinstance(node, Span):
                walk(node.children)
            else:
                piece = _plain(node)
                parts.append(piece)
                length += len(piece)

    walk(inlines)
    if not positions:
        return inlines
    plain = "".join(parts)
    sentences = iter([_sentence_at(plain, at) for at in positions])

    def fill(nodes: Sequence[Inline]) -> tuple[Inline, ...]:
        out: list[Inline] = []
        for node in nodes:
            if isinstance(node, Footnote):
                out.append(replace(node, sentence=next(sentences)))
            elif isinstance(node, Span):
                out.append(Span(node.kind, fill(node.children)))
            else:
                out.append(node)
        return tuple(out)

    return fill(inlines)


def _sentence_at(plain: str, at: int) -> str:
    """The sentence a footnote at ``at`` belongs to: the one it ends, or the one it sits in."""
    left = plain[:at].rstrip()
    ends_here = ends_sentence(left, len(left))
    body = left[: stop_of(left)] if ends_here else left
    start = max(sentence_ends(body), default=0)
    end = len(left) if ends_here else next(sentence_ends(plain + " ", at), len(plain))
    return _STRAY_MARKS.sub("", " ".join(plain[start:end].split()))
