"""The demo upstream's corpus: its documents loaded (:mod:`bot.demo.documents`) and searched.

The index is an in-memory SQLite FTS5 table ranked with bm25, rebuilt on every start (the
bundled corpus indexes in a few milliseconds).
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.demo.documents import Document, Passage, parse
from config.settings import SettingsError

log = logging.getLogger(__name__)

__all__ = ["BUNDLED_CORPUS", "Corpus", "CorpusError", "Hit", "query_terms"]

BUNDLED_CORPUS = Path(__file__).with_name("corpus")
SUFFIXES = (".md", ".markdown", ".txt")
MAX_TERMS = 32

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
