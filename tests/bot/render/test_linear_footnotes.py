"""Footnote matching is linear in markers and citations: counted in operations, not timed.

Every function call the resolution makes (Python's and the builtins', through
``sys.setprofile``) is counted, and so is every comparison and hash of a citation (a
citation's ``__eq__`` and ``__hash__`` are Python calls here, so a search through a list of
them counts each step). Four times the input must cost about four times the operations; the
quadratic matcher this replaced cost sixteen times (2,000 citations held the event loop ~2 s).
``bench/bench_footnotes.py`` times it against a baseline in the same process.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any

import pytest

from bot.render.numbering import resolve
from bot.upstream.citations import Citation


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class Counted(Citation):
    """A citation whose equality and hash are Python calls the profiler sees."""

    def __eq__(self, other: object) -> bool:
        return Citation.__eq__(self, other)

    def __hash__(self) -> int:
        return Citation.__hash__(self)


def operations(run: Callable[[], object]) -> int:
    count = 0

    def profile(_frame: FrameType, event: str, _arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


Case = Callable[[int], tuple[Sequence[tuple[int, str]], Sequence[Citation]]]


def one_source_each(n: int) -> tuple[Sequence[tuple[int, str]], Sequence[Citation]]:
    citations = [Counted(number=i, source_url=f"https://ex.org/{i}") for i in range(1, n + 1)]
    return [(i, f"Sentence {i}.") for i in range(1, n + 1)], citations


def all_behind_one_footnote(n: int) -> tuple[Sequence[tuple[int, str]], Sequence[Citation]]:
    citations = [Counted(number=1, source_url=f"https://ex.org/{i}") for i in range(n)]
    return [(1, "The one sentence.")] * 3, citations


def shared_sources_and_dangling_markers(
    n: int,
) -> tuple[Sequence[tuple[int, str]], Sequence[Citation]]:
    citations = [
        Counted(number=i, source_url=f"https://ex.org/{i % 10}", reference=str(i % 10))
        for i in range(1, n + 1)
    ]
    uses = [(i, f"Sentence {i}.") for i in range(1, 2 * n + 1)]  # half have no citation
    return uses, citations


def no_urls(n: int) -> tuple[Sequence[tuple[int, str]], Sequence[Citation]]:
    citations = [Counted(number=i, cited_text=f"Quote {i}.") for i in range(1, n + 1)]
    return [(i, f"Sentence {i}.") for i in range(n, 0, -1)], citations


@pytest.mark.parametrize(
    "case", [one_source_each, all_behind_one_footnote, shared_sources_and_dangling_markers, no_urls]
)
def test_four_times_the_citations_cost_about_four_times_the_operations(case: Case) -> None:
    small = operations(lambda: resolve(*case(500)))
    large = operations(lambda: resolve(*case(2000)))
    assert small > 500  # it counted something
    assert large <= 4.5 * small, f"{large} operations for 2,000 against {small} for 500"


def test_the_counter_sees_a_quadratic_matcher() -> None:
    """The measure can fail: finding each citation by scanning a list of them costs 16x."""

    def scanning(citations: Sequence[Citation]) -> list[bool]:
        return [citation in citations for citation in citations]

    small = operations(lambda: scanning(one_source_each(100)[1]))
    large = operations(lambda: scanning(one_source_each(400)[1]))
    assert large > 12 * small
