"""An extractive answer: quoted sentences from the best passages, each with its footnote.

Every statement of the answer is a verbatim run of sentences (or list items) of the passage its
footnote cites, and that passage is the citation's ``cited_text`` (seed 004's rule), so the demo
can never say something its sources do not. Nothing else is written, except the one no-match
sentence, which carries no footnote.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict
from urllib.parse import quote

from bot.demo.documents import Passage
from bot.demo.index import Corpus, Hit, query_terms
from bot.render.text import sentence_ends

__all__ = ["NOTHING_FOUND", "Answer", "WireCitation", "compose_answer"]

NOTHING_FOUND = "I found nothing about that in the corpus. Try asking with other words."

MAX_PASSAGES = 3
SAME_DOCUMENT = 0.85  # a second passage of a document ranks as if 15% less relevant
RELEVANCE = 0.2  # a passage scoring under this share of the best one is off topic
WHOLE_PASSAGE = 360  # characters: shorter passages are quoted whole
MAX_STATEMENT = 480
MAX_UNITS = 4

_MARKER = re.compile(r"\[\^?\d+\]")
_SPACE = re.compile(r"[ \t]+")
_SENTENCE_START = re.compile(r"[A-Z0-9`\"“'(\[*_]")
"""How a corpus sentence may begin: a stop before a lowercase word is an abbreviation's."""
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|Mr|Mrs|Dr|No|St)\.)$", re.IGNORECASE)
_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]", re.MULTILINE)
_WORD = re.compile(r"\w+")
_SUFFIXES = ("ations", "ation", "ments", "ment", "ings", "ing", "ers", "er", "ed", "es", "s", "e")


class WireCitation(TypedDict):
    """One entry of Magisterium's ``citations`` array, exactly as the live API names it."""

    cited_text: str
    cited_text_heading: str | None
    document_title: str | None
    document_index: int
    document_author: str | None
    document_year: str | None
    document_reference: str | None
    source_url: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """The demo's reply: Markdown with ``[^N]`` markers, and citation N at index N-1."""

    text: str
    citations: tuple[WireCitation, ...] = ()
    related_questions: tuple[str, ...] = ()


def compose_answer(
    corpus: Corpus, question: str, *, history: Sequence[str] = (), pages_url: str | None = None
) -> Answer:
    """Answer ``question`` from ``corpus``; ``history`` holds the earlier user turns, oldest first.

    ``pages_url`` is where the demo serves its documents (``{pages_url}/corpus/{slug}``): the
    source of a document whose header names none, so quote checking can read it.

    Earlier turns only widen a short or fruitless follow-up ("and on Slack?"), so a new topic
    is not dragged back to an old one. A question most of whose words the corpus never uses is
    about something else, however well one stray word ("best") matches.
    """
    terms = query_terms(question)
    if 2 * len(corpus.known(terms)) < len(terms):
        return Answer(text=NOTHING_FOUND)
    hits = corpus.search(terms, limit=24)
    if history and (not hits or len(terms) < 2):
        terms = list(dict.fromkeys([*terms, *query_terms(history[-1])]))
        hits = corpus.search(terms, limit=24)
    stems = {_stem(term) for term in terms}
    chosen = _choose(hits, question, stems)
    statements: list[str] = []
    citations: list[WireCitation] = []
    cited: list[Passage] = []
    for passage in chosen:
        statement = _statement(passage, stems)
        if statement is None:
            continue
        cited.append(passage)
        citations.append(_citation(passage, index=len(citations), pages_url=pages_url))
        statements.append(f"{statement}[^{len(citations)}]")
    if not statements:
        return Answer(text=NOTHING_FOUND)
    return Answer(
        text="\n\n".join(statements),
        citations=tuple(citations),
        related_questions=_related(hits, cited=cited),
    )


def _choose(hits: Sequence[Hit], question: str, stems: set[str]) -> list[Passage]:
    """Up to three relevant passages that together cover as many of the question's words as
    they can, preferring different documents when coverage ties.

    A document whose own ``question`` header asks what the user asked (its FAQ entry) leads
    with its opening passage: "How do I deploy citebot?" starts where the deploy guide does.
    """
    if not hits:
        return []
    floor = hits[0].score * RELEVANCE  # bm25 scores are negative: lower is better
    asked = _stems(question)
    candidates = [hit for hit in hits if hit.score <= floor]
    featured = [
        hit
        for hit in candidates
        if hit.passage.document.question and _stems(hit.passage.document.question) == asked
    ]
    if featured:
        opening = min(featured, key=lambda hit: hit.passage.start)
        candidates = [opening, *(hit for hit in featured if hit is not opening)]
    words = {
        id(hit): _stems(hit.passage.heading + " " + hit.passage.text) & stems for hit in candidates
    }
    chosen = [candidates[0]]
    rest = candidates[1:]
    while rest and len(chosen) < MAX_PASSAGES:
        covered = set().union(*(words[id(hit)] for hit in chosen))
        best = max(
            rest,
            key=lambda hit: (
                len(words[id(hit)] - covered),
                -hit.score
                * SAME_DOCUMENT ** sum(c.passage.document == hit.passage.document for c in chosen),
            ),
        )
        rest.remove(best)
        chosen.append(best)
    # Read like a text: documents in the order chosen, a document's passages in its own order.
    first_rank: dict[Path, int] = {}
    for rank, hit in enumerate(chosen):
        first_rank.setdefault(hit.passage.document.path, rank)
    return sorted(
        (hit.passage for hit in chosen), key=lambda p: (first_rank[p.document.path], p.start)
    )


def _stems(text: str) -> set[str]:
    return {_stem(word) for word in _WORD.findall(text)}


def _stem(word: str) -> str:
    plain = "".join(
        c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c)
    )
    for suffix in _SUFFIXES:
        if plain.endswith(suffix) and len(plain) - len(suffix) >= 3:
            return plain[: -len(suffix)]
    return plain


def _units(passage: Passage) -> list[tuple[int, int]]:
    """The quotable pieces of a passage as (start, end): list items, or else sentences."""
    text = passage.text
    if passage.is_list:
        starts = [m.start() for m in _ITEM.finditer(text)] or [0]
        ends = [*starts[1:], len(text)]
        return [
            (s, e - (len(text[s:e]) - len(text[s:e].rstrip())))
            for s, e in zip(starts, ends, strict=True)
        ]
    units: list[tuple[int, int]] = []
    start = 0
    for end in sentence_ends(text):
        space = _SPACE.match(text, end)
        if space is None or not _SENTENCE_START.match(text, space.end()):
            continue
        if _ABBREVIATION.search(text[start:end]):
            continue
        units.append((start, end))
        start = space.end()
    units.append((start, len(text)))
    return units


def _score(text: str, stems: set[str]) -> int:
    if _MARKER.search(text):
        return -1  # a quote must not carry a footnote marker of its own
    return len(stems & _stems(text))


def _statement(passage: Passage, stems: set[str]) -> str | None:
    """The run of units that best answers: the whole passage when it is short."""
    text = passage.text
    if len(text) <= WHOLE_PASSAGE and _score(text, stems) >= 0:
        return text
    units = _units(passage)
    scores = [_score(text[s:e], stems) for s, e in units]
    best = max(range(len(units)), key=lambda i: (scores[i], -i))
    if scores[best] < 0:
        return None
    lo, hi = best, best + 1

    def fits(i: int) -> bool:
        return (
            0 <= i < len(units)
            and scores[i] >= 0
            and hi - lo < MAX_UNITS
            and max(units[hi - 1][1], units[i][1]) - min(units[lo][0], units[i][0]) <= MAX_STATEMENT
        )

    while True:
        short = units[hi - 1][1] - units[lo][0] < 120
        if fits(hi) and (scores[hi] > 0 or short):
            hi += 1
        elif fits(lo - 1) and (scores[lo - 1] > 0 or short):
            lo -= 1
        else:
            break
    return text[units[lo][0] : units[hi - 1][1]]


def _citation(passage: Passage, *, index: int, pages_url: str | None) -> WireCitation:
    document = passage.document
    served = f"{pages_url}/corpus/{quote(document.slug)}" if pages_url else None
    return WireCitation(
        cited_text=passage.text,
        cited_text_heading=passage.heading,
        document_title=document.title,
        document_index=index,
        document_author=document.author,
        document_year=document.year,
        document_reference=passage.reference,
        source_url=document.source_url or served,
    )


def _related(hits: Iterable[Hit], *, cited: Sequence[Passage]) -> tuple[str, ...]:
    """Questions for the other documents that matched, then for the cited ones after the first."""
    cited_documents = list(dict.fromkeys(p.document for p in cited))
    matched = dict.fromkeys(hit.passage.document for hit in hits)
    others = [d for d in matched if d not in cited_documents] + cited_documents[1:]
    return tuple(d.related_question for d in others[:3])
