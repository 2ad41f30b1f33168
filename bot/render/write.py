"""Writing the document model in a dialect, noting where a message may be split.

A block is written once into text that holds one :data:`SENTINEL` per footnote, so the same
text serves the streaming render (plain numbers) and the final one (linked numbers), and the
split points found here stay valid for both.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bot.render.document import (
    Block,
    Break,
    Code,
    CodeBlock,
    Footnote,
    Heading,
    Inline,
    Link,
    ListBlock,
    Paragraph,
    Quote,
    Rule,
    Span,
    Table,
    Text,
    parse_blocks,
)
from bot.render.ports import MarkdownSyntax
from bot.render.text import SENTINEL, ends_sentence

__all__ = ["PARAGRAPH", "SENTENCE", "WORD", "Rendered", "Split", "render_blocks", "render_source"]

PARAGRAPH, SENTENCE, WORD = 3, 2, 1
_GAP = re.compile(r"[ \t]+|(?<=[。！？])(?=.)")
_SPACE = re.compile(r"[ \t]+")
"""``_GAP`` for text without a full-width stop: the same gaps, found in half the time."""


class Split(NamedTuple):
    """A place a message may end (``end``) and the next begin (``start``), with what closes
    the earlier part and reopens the later one (a code fence, a quote marker). One per word
    gap of every block, so a tuple: a frozen dataclass took most of the time to write one."""

    end: int
    start: int
    rank: int
    close: str = ""
    reopen: str = ""


@dataclass(frozen=True, slots=True)
class Rendered:
    """One block written for a dialect: text with a sentinel per footnote, and its splits."""

    text: str
    splits: tuple[Split, ...]
    footnotes: tuple[Footnote, ...]
    tight: bool = False
    """Follows the block before it on the next line (a list's next item), not a blank one."""
    joiner: str | None = None
    """Continues the block before it (the reader cut an over-long one): joined by this."""
    source_len: int = 0
    """The length of the Markdown it was written from: unlike the written text, it only grows
    while the block streams, so it can decide early where a block will go."""

    @property
    def separator(self) -> str:
        if self.joiner is not None:
            return self.joiner
        return "\n" if self.tight else "\n\n"


def render_source(
    source: str, syntax: MarkdownSyntax, *, tight: bool = False, joiner: str | None = None
) -> Rendered:
    rendered = render_blocks(parse_blocks(source), syntax)
    return Rendered(rendered.text, rendered.splits, rendered.footnotes, tight, joiner, len(source))


def render_blocks(blocks: Sequence[Block], syntax: MarkdownSyntax) -> Rendered:
    writer = _BlockWriter(syntax, [])
    writer.blocks(blocks, tight=False)
    return Rendered("".join(writer.out), tuple(writer.splits), tuple(writer.notes))


class _BlockWriter:
    def __init__(self, syntax: MarkdownSyntax, notes: list[Footnote], *, splits: bool = True):
        self.s = syntax
        self.out: list[str] = []
        self.size = 0
        self.splits: list[Split] = []
        self.notes = notes
        self.prefix = ""
        self.fresh = True
        self.splittable = splits

    def put(self, text: str) -> None:
        if text:
            self.out.append(text)
            self.size += len(text)
            self.fresh = False

    def split(self, end: int, start: int, rank: int, close: str = "", reopen: str = "") -> None:
        if self.splittable and end > 0:
            self.splits.append(Split(end, start, rank, close, reopen))

    def newline(self, rank: int, *, blank: bool = False, close: str = "", reopen: str = "") -> None:
        end = self.size
        if blank:
            self.put("\n" + self.prefix.rstrip())
        self.put("\n")
        self.split(end, self.size, rank, close, reopen or self.prefix)
        self.put(self.prefix)
        self.fresh = True

    def blocks(self, blocks: Sequence[Block], *, tight: bool) -> None:
        for index, block in enumerate(blocks):
            if index:
                self.newline(PARAGRAPH, blank=not tight)
            self.block(block)

    def block(self, block: Block) -> None:
        if isinstance(block, Paragraph):
            self.inlines(block.inlines)
        elif isinstance(block, Heading):
            inner = self.atomic(block.inlines)
            self.put(_marked(inner, lambda text: self.s.heading(block.level, text)))
        elif isinstance(block, CodeBlock):
            self.code(block)
        elif isinstance(block, Quote):
            outer = self.prefix
            self.prefix += self.s.quote_prefix
            self.put(self.s.quote_prefix)
            self.fresh = True
            self.blocks(block.blocks, tight=False)
            self.prefix = outer
        elif isinstance(block, ListBlock):
            for index, item in enumerate(block.items):
                start = None if block.start is None else block.start + index
                self.item(self.s.bullet(start), item, first=index == 0)
        elif isinstance(block, Table):
            self.table(block)
        elif isinstance(block, Rule):
            self.put(self.s.rule())

    def item(self, bullet: str, blocks: Sequence[Block], *, first: bool) -> None:
        if not first:
            self.newline(PARAGRAPH)
        outer = self.prefix
        self.put(bullet)
        self.fresh = True
        self.prefix += " " * len(bullet)
        self.blocks(blocks, tight=True)
        self.prefix = outer

    def code(self, block: CodeBlock) -> None:
        opening, closing = self.s.fence(block.info)
        self.put(opening)
        lines = block.text.rstrip("\n").split("\n")
        for index, line in enumerate(lines):
            if index:
                self.newline(SENTENCE, close="\n" + closing, reopen=opening + "\n")
            else:
                self.newline(0)
            self.put(self.s.code_line(line))
        self.newline(0)
        self.put(closing)

    def table(self, table: Table) -> None:
        """A table as one bullet line per row (``header: cell · header: cell``): readable on a
        phone and in every dialect, and footnotes in cells still work."""
        rows = table.rows or ((table.header,) if table.header else ())
        for index, row in enumerate(rows):
            parts = []
            for column, cell in enumerate(row):
                value = self.atomic(cell)
                name = table.header[column] if table.rows and column < len(table.header) else ()
                if name:
                    value = self.s.emphasis("strong", self.atomic(name)) + ": " + value
                parts.append(value)
            self.item(self.s.bullet(None), (), first=index == 0)
            self.put(" · ".join(parts))

    def atomic(self, nodes: Sequence[Inline]) -> str:
        """Inline content written as one piece no split may enter (a link, bold, a heading)."""
        writer = _BlockWriter(self.s, self.notes, splits=False)
        writer.fresh = self.fresh
        writer.inlines(nodes)
        return "".join(writer.out)

    def inlines(self, nodes: Sequence[Inline]) -> None:
        for node in nodes:
            if isinstance(node, Text):
                self.text(node.text)
            elif isinstance(node, Code):
                self.put(self.s.code_span(node.text))
            elif isinstance(node, Span):
                inner = self.atomic(node.children)
                self.put(_marked(inner, functools.partial(self.s.emphasis, node.kind)))
            elif isinstance(node, Link):
                inner = self.atomic(node.children)
                self.put(self.s.link(inner, node.url) if node.url else inner)
            elif isinstance(node, Footnote):
                if self.splits and self.splits[-1].start == self.size:
                    self.splits.pop()
                self.notes.append(node)
                self.put(SENTINEL)
            elif isinstance(node, Break):
                self.newline(SENTENCE)

    def text(self, text: str) -> None:
        written = self.s.escape(text, line_start=self.fresh)
        base = self.size
        self.put(written)
        if not self.splittable:
            return
        gaps = _GAP if "。" in written or "！" in written or "？" in written else _SPACE
        splits, reopen = self.splits, self.prefix
        for gap in gaps.finditer(written):  # every word of an answer passes here
            start, end = gap.span()
            if base + start > 0:
                rank = SENTENCE if start == end or ends_sentence(written, start) else WORD
                splits.append(Split(base + start, base + end, rank, "", reopen))


def _marked(inner: str, mark: Callable[[str], str]) -> str:
    """``inner`` marked up (a heading, bold), unless it holds footnotes alone: one without a
    source goes at the end, and the markup left around nothing would show (Discord's ``****``),
    read as a rule (Slack refuses the message) or empty the message (Telegram refuses it)."""
    return mark(inner) if inner.replace(SENTINEL, "").strip() else inner
