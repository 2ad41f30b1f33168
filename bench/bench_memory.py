"""Whether a worker's memory stays flat over thousands of answers (once a test's deadline,
``tests/chaos/test_memory.py``, which a loaded machine failed).

A real bot answers 5,000 questions from the Discord simulator, each with a citation card, its
shared state in a real ``redis-server``, a hundred at a time, each batch answered before the
next (``tests/chaos/answering.py``). The first 4,000 warm every cache up; then tracemalloc
counts what the worker's own code (``bot/``, ``integrations/``) still holds once the rate
windows the answers touched have passed: after 100 more answers (the same-run baseline), and
after 1,000. Flat memory holds the same after both; each byte an answer leaves behind shows a
thousand times in the second. Before issue 15, each answer left ~0.9 KB (854 KB here).

Run: ``python -m bench.bench_memory`` (about two minutes on two cores; tracemalloc slows the
traced answers fourfold).
"""

from __future__ import annotations

import asyncio

from bench.report import Result
from bench.table import print_table, verdict
from tests.chaos.answering import held_after
from tests.sim.redis_server import start_redis_server

WARM = 4000
FIRST = 100
THEN = 900
HELD_MOST = 32 * 1024
"""Bytes the worker's code may still hold after 1,000 answers (the last answer, still in its
window, and the regex machinery's reused objects: about 11 KB)."""
EACH_MOST = 8.0
"""Bytes one answer may leave behind, measured between the two counts."""


async def _measure() -> list[Result]:
    with start_redis_server() as redis_url:
        [(after_first, _), (after_all, where)] = await held_after(redis_url, WARM, FIRST, THEN)
    each = max(after_all - after_first, 0) / THEN
    answered = WARM + FIRST + THEN + 2  # and one after each count
    return [
        Result(
            metric=f"memory our code holds after {answered:,} answers",
            subject="discord worker",
            value=after_all / 1024,
            unit="KiB",
            target=f"≤ {HELD_MOST // 1024} KiB, flat",
            met=after_all <= HELD_MOST,
            baseline=after_first / 1024,
            baseline_name=f"after {WARM + FIRST + 1:,}",
            detail={"largest": where},
        ),
        Result(
            metric="memory an answer leaves behind",
            subject="discord worker",
            value=each,
            unit="B",
            target=f"≤ {EACH_MOST:g} B",
            met=each <= EACH_MOST,
            detail={"between": [after_first, after_all], "answers": THEN},
        ),
    ]


def measure() -> list[Result]:
    results = asyncio.run(_measure())
    rows = [(r.metric, f"{r.value:,.2f} {r.unit}", verdict(r.target, r.met)) for r in results]
    print_table("memory over thousands of answers", ("what", "measured", "target"), rows)
    return results


if __name__ == "__main__":
    measure()
