"""The demo corpus's documents: a file's metadata header, its title, and its passages.

A passage is one Markdown block (a paragraph, a list, a quote) with the nearest heading above it;
its text is kept as the exact slice of the file so a citation quotes the corpus verbatim.

A file may open with an HTML comment of ``key: value`` lines (``author``, ``year``,
``source_url``, ``question``); it is invisible when the Markdown renders. Files without it get
no author or year, and their URL is the page the demo itself serves (``/corpus/{slug}``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.upstream.citations import safe_url

__all__ = ["Document", "Passage", "parse", "without_header"]

_HEADER = re.compile(r"\A\ufeff?<!--(.*?)-->[ \t]*\n?", re.DOTALL)
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_TABLE = re.compile(r"^[ \t]*\|")


@dataclass(frozen=True, slots=True, kw_only=True)
class Document:
    """One file of the corpus, with the metadata its citations carry."""

    path: Path
    title: str
    slug: str = ""
    """Where the demo serves it, ``/corpus/{slug}``: its path in the corpus, without suffix."""
    author: str | None = None
    year: str | None = None
    source_url: str | None = None
    question: str | None = None

    @property
    def related_question(self) -> str:
        """How a reader would ask for this document, for ``related_questions``."""
        return self.question or f"What does “{self.title}” say?"


@dataclass(frozen=True, slots=True, kw_only=True)
class Passage:
    """A block of a document; ``text`` is ``document file text[start:start + len(text)]``."""

    document: Document
    text: str
    start: int
    heading: str
    reference: str
    is_list: bool = False


def without_header(text: str) -> str:
    """The file's Markdown as a reader sees it: the metadata comment left out."""
    header = _HEADER.match(text)
    return text[header.end() :] if header else text


def parse(path: Path, text: str, *, slug: str | None = None) -> tuple[Document, list[Passage]]:
    """Read one file's header, title and passages."""
    meta: dict[str, str] = {}
    body_start = 0
    header = _HEADER.match(text)
    if header:
        body_start = header.end()
        for line in header.group(1).splitlines():
            key, sep, value = line.partition(":")
            if sep and value.strip():
                meta[key.strip().lower()] = value.strip()
    blocks = list(_blocks(text, body_start))
    title = next((b.heading for b in blocks if b.level == 1), None) or path.stem
    document = Document(
        path=path,
        title=title,
        slug=path.stem if slug is None else slug,
        author=meta.get("author"),
        year=meta.get("year"),
        source_url=safe_url(meta.get("source_url")),
        question=meta.get("question"),
    )
    return document, list(_number(document, text, blocks))


@dataclass(frozen=True, slots=True)
class _Block:
    start: int
    end: int
    level: int  # the heading level for a heading, 0 for a passage
    heading: str
    is_list: bool


def _lines(text: str, offset: int) -> Iterator[tuple[int, str]]:
    for line in text[offset:].splitlines(keepends=True):
        yield offset, line.rstrip("\r\n")
        offset += len(line)


def _blocks(text: str, offset: int) -> Iterator[_Block]:
    """Headings and paragraph-like blocks; code fences and tables are left out of answers."""
    start: int | None = None
    end = offset
    fence: str | None = None
    table = False

    def flush() -> Iterator[_Block]:
        if start is not None and not table:
            first = text[start:end].lstrip()
            is_list = bool(re.match(r"([-*+]|\d+[.)])[ \t]", first))
            yield _Block(start, end, 0, "", is_list)

    for at, line in _lines(text, offset):
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        opening = _FENCE.match(line)
        heading = _HEADING.match(line)
        if opening or heading or not line.strip():
            yield from flush()
            start, table = None, False
            if opening:
                fence = opening.group(1)
            elif heading:
                yield _Block(at, at + len(line), len(heading.group(1)), heading.group(2), False)
            continue
        if start is None:
            start, table = at + len(line) - len(line.lstrip()), bool(_TABLE.match(line))
        end = at + len(line.rstrip())
    yield from flush()


def _number(document: Document, text: str, blocks: Sequence[_Block]) -> Iterator[Passage]:
    """Number passages like a document's paragraphs: "2" before any section, "3.1" inside one.

    The first top-level heading is the title; every later heading opens a section.
    """
    section = 0
    paragraph = 0
    heading = document.title
    titled = False
    for block in blocks:
        if block.level == 1 and not titled:
            titled = True
            continue
        if block.level:
            section, paragraph, heading = section + 1, 0, block.heading
            continue
        paragraph += 1
        yield Passage(
            document=document,
            text=text[block.start : block.end],
            start=block.start,
            heading=heading,
            reference=f"{section}.{paragraph}" if section else str(paragraph),
            is_list=block.is_list,
        )
