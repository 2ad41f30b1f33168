"""Reading server-sent events: citebot's bounded reader against httpx-sse's, per event.

The same bytes (a recorded-shape stream of ``chat.completion.chunk`` events, one network chunk
per event as an upstream flushes them, and the same stream in 16 KB reads) are parsed by
:class:`bot.upstream.sse.SSEReader` and by what ``aiter_sse`` runs: text decoding, httpx-sse's
line decoder and its event decoder. Both in this process, best of several runs; the target is
that bounding an event costs no more than httpx-sse's unbounded reading. The answer's deadline
is checked on every read; :class:`bot.upstream.deadline.Deadline` is timed against
``asyncio.timeout_at`` around each read (the target: no more than a third of its cost).

Run: ``python -m bench.bench_sse``.
"""

from __future__ import annotations

import asyncio
import codecs
import json
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from functools import partial
from typing import Any

from httpx_sse._decoders import SSEDecoder, SSELineDecoder

from bench.bench_formatter import REPEATS, best
from bench.report import Result
from bench.table import print_table, verdict
from bot.upstream.deadline import Deadline
from bot.upstream.sse import SSEReader

EVENTS = 20_000


def stream() -> list[bytes]:
    events = []
    for n in range(EVENTS):
        chunk = {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 1_700_000_000,
            "model": "magisterium-1",
            "choices": [{"index": 0, "delta": {"content": f" word{n}"}, "finish_reason": None}],
        }
        events.append(f"data: {json.dumps(chunk)}\n\n".encode())
        if n % 50 == 0:
            events.append(b": keep-alive\n\n")
    return events


def ours(chunks: list[bytes]) -> int:
    reader = SSEReader(max_event_bytes=1 << 20)
    return sum(len(reader.feed(chunk)) for chunk in chunks)


def httpx_sse(chunks: list[bytes]) -> int:
    text = codecs.getincrementaldecoder("utf-8")(errors="replace")
    lines, events = SSELineDecoder(), SSEDecoder()
    count = 0
    for chunk in chunks:
        for line in lines.decode(text.decode(chunk)):
            if events.decode(line.rstrip("\n")) is not None:
                count += 1
    return count


async def _reads(n: int) -> AsyncIterator[bytes]:
    for _ in range(n):
        yield b"x"


async def with_deadline(n: int) -> float:
    loop = asyncio.get_running_loop()
    timer = Deadline(loop.time() + 3600)
    reads = _reads(n)
    started = time.perf_counter()
    for _ in range(n):
        await timer.wait(anext(reads))
    timer.close()
    return time.perf_counter() - started


async def with_timeout(n: int) -> float:
    deadline = asyncio.get_running_loop().time() + 3600
    reads = _reads(n)
    started = time.perf_counter()
    for _ in range(n):
        async with asyncio.timeout_at(deadline):
            await anext(reads)
    return time.perf_counter() - started


def deadline_cost() -> Result:
    from bot.worker import event_loop_factory

    def per_read(run: Callable[[int], Coroutine[Any, Any, float]]) -> float:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            return min(runner.run(run(EVENTS)) for _ in range(REPEATS)) / EVENTS * 1e6

    mine, theirs = per_read(with_deadline), per_read(with_timeout)
    return Result(
        metric="deadline check per read",
        subject="client",
        value=mine,
        unit="µs",
        target="≤ 0.33x asyncio.timeout_at",
        met=mine <= theirs / 3,
        baseline=theirs,
        baseline_name="asyncio.timeout_at around each read",
        detail={"reads": EVENTS, "best_of": REPEATS},
    )


def measure() -> list[Result]:
    per_event = stream()
    whole = b"".join(per_event)
    reads = [whole[i : i + 16384] for i in range(0, len(whole), 16384)]
    results = []
    for subject, chunks in (("one event a read", per_event), ("16 KB reads", reads)):
        assert ours(chunks) == httpx_sse(chunks) == EVENTS
        mine = best(partial(ours, chunks)) / EVENTS * 1e6
        theirs = best(partial(httpx_sse, chunks)) / EVENTS * 1e6
        results.append(
            Result(
                metric="SSE parsing CPU per event",
                subject=subject,
                value=mine,
                unit="µs",
                target="≤ 1x httpx-sse",
                met=mine <= theirs,
                baseline=theirs,
                baseline_name="httpx-sse's decoders (aiter_sse)",
                detail={"events": EVENTS, "best_of": REPEATS},
            )
        )
    return [*results, deadline_cost()]


def main() -> None:
    results = measure()
    print_table(
        f"Parsing {EVENTS:,} events",
        ("reads", "citebot", "baseline", "ratio"),
        [
            (
                r.subject,
                verdict(f"{r.value:.2f} µs", r.met),
                f"{r.baseline or 0:.2f} µs",
                f"{r.ratio or 0:.2f}x",
            )
            for r in results
        ],
    )


if __name__ == "__main__":
    main()
