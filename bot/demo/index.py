"""The demo upstream's documents: loading, cutting into passages, full-text search.

A passage is one Markdown block (a paragraph, a list, a quote) with the nearest heading above it;
its text is kept as the exact slice of the file so a citation quotes the corpus verbatim. The
index is an in-memory SQLite FTS5 table ranked with bm25, rebuilt on every start (the bundled
corpus indexes in a few milliseconds).

A file may open with an HTML comment of ``key: value`` lines (``author``, ``year``,
``source_url``, ``question``); it is invisible when the Markdown renders. Files without it get
no author or year, and their URL is the page the demo itself serves (``/corpus/{slug}``).
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.upstream.citations import safe_url
from config.settings import SettingsError

log = logging.getLogger(__name__)

__all__ = [
    "BUNDLED_CORPUS",
    "Corpus",
    "CorpusError",
    "Document",
    "Hit",
    "Passage",
    "query_terms",
    "without_header",
]

BUNDLED_CORPUS = Path(__file__).with_name("corpus")
SUFFIXES = (".md", ".markdown", ".txt")
MAX_TERMS = 32

_HEADER = re.compile(r"\A\ufeff?<!--(.*?)-->[ \t]*\n?", re.DOTALL)
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_TABLE = re.compile(r"^[ \t]*\|")
_WORD = re.compile(r"\w+")

# Words that say how a question is asked, not what it is about: English, which the bundled
# corpus is written in, and the commonest French, Spanish, Italian and German ones, so that a
# question in those languages is judged by its content words.
_STOP_WORDS = frozenset(
    (
        "a",
        "about",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "for",
        "from",
        "get",
        "got",
        "had",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "me",
        "my",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "should",
        "so",
        "some",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "tell",
        "us",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "please",
        "explain",
        "use",
        "used",
        "using",
        "comment",
        "est",
        "le",
        "la",
        "les",
        "un",
        "une",
        "de",
        "des",
        "du",
        "et",
        "sur",
        "pour",
        "dans",
        "avec",
        "que",
        "qui",
        "quoi",
        "je",
        "il",
        "ce",
        "cómo",
        "como",
        "qué",
        "el",
        "los",
        "las",
        "es",
        "por",
        "para",
        "con",
        "una",
        "cuál",
        "il",
        "di",
        "che",
        "come",
        "per",
        "wie",
        "ist",
        "der",
        "die",
        "das",
        "und",
        "mit",
        "ich",
        "ein",
        "eine",
        "kann",
    )
)


class CorpusError(SettingsError):
    """The corpus cannot be used; ``str()`` is one line naming DEMO_CORPUS and what is wrong."""


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


@dataclass(frozen=True, slots=True, kw_only=True)
class Hit:
    """A passage that matched a search; a lower ``score`` is better (bm25's sign)."""

    passage: Passage
    score: float


def query_terms(text: str) -> list[str]:
    """The searchable words of a question, in order, lower-cased, stop words dropped.

    A question made only of stop words keeps them, so "What is it?" still searches something.
    """
    words = [w.lower() for w in _WORD.findall(text) if len(w) > 1 or w.isdigit()]
    kept = [w for w in words if w not in _STOP_WORDS] or words
    return list(dict.fromkeys(kept))[:MAX_TERMS]


def _fts_query(terms: Sequence[str]) -> str:
    # Each term is a quoted FTS5 string, so nothing a user types is read as query syntax.
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


class Corpus:
    """The indexed passages of a folder of Markdown and text files."""

    def __init__(self, *, documents: Sequence[Document], passages: Sequence[Passage]) -> None:
        self.documents = tuple(documents)
        self.passages = tuple(passages)
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        try:
            self._db.execute(
                "CREATE VIRTUAL TABLE passages USING fts5("
                "title, heading, body, tokenize = 'porter unicode61 remove_diacritics 2')"
            )
        except sqlite3.OperationalError as error:
            raise CorpusError(f"this Python's SQLite lacks FTS5 ({error})") from None
        self._db.executemany(
            "INSERT INTO passages (rowid, title, heading, body) VALUES (?, ?, ?, ?)",
            ((i, p.document.title, p.heading, p.text) for i, p in enumerate(self.passages)),
        )

    @classmethod
    def load(cls, folder: str | Path | None = None) -> Corpus:
        """Index ``folder`` (``DEMO_CORPUS``), or the bundled documentation when it is None."""
        root = Path(folder).expanduser() if folder else BUNDLED_CORPUS
        if not root.is_dir():
            raise CorpusError(f"DEMO_CORPUS: {root} is not a folder")
        documents: list[Document] = []
        passages: list[Passage] = []
        for path in sorted(p for p in root.rglob("*") if p.suffix.lower() in SUFFIXES):
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                log.warning("demo corpus: skipping %s (%s)", path.name, type(error).__name__)
                continue
            document, blocks = parse(
                path, text, slug=path.relative_to(root).with_suffix("").as_posix()
            )
            documents.append(document)
            passages.extend(blocks)
        if not passages:
            raise CorpusError(f"DEMO_CORPUS: {root} holds no Markdown or text passages")
        return cls(documents=documents, passages=passages)

    def search(self, terms: Sequence[str], *, limit: int = 12) -> list[Hit]:
        """The best passages for any of ``terms``, best first."""
        if not terms:
            return []
        rows = self._db.execute(
            "SELECT rowid, bm25(passages, 0.5, 2.0, 1.0) AS rank FROM passages "
            "WHERE passages MATCH ? ORDER BY rank LIMIT ?",
            (_fts_query(terms), limit),
        ).fetchall()
        return [Hit(passage=self.passages[rowid], score=score) for rowid, score in rows]

    def known(self, terms: Sequence[str]) -> list[str]:
        """The terms that occur somewhere in the corpus."""
        return [
            term
            for term in terms
            if self._db.execute(
                "SELECT 1 FROM passages WHERE passages MATCH ? LIMIT 1", (_fts_query([term]),)
            ).fetchone()
        ]

    def close(self) -> None:
        self._db.close()


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
