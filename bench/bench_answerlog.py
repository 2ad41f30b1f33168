"""The answer log: a report over 100,000 logged answers, and what logging costs an answer.

**The report.** 100,000 records as ``ANSWER_LOG=metadata`` keeps them (30 days of a busy
deployment: 20 servers of 5 channels, 500 askers, three sources an answer with a quote not
found in one answer of eight, a vote on one in ten) are written to SQLite and to a real
``redis-server``, then ``build_report`` reads them back: over every place, and over one server.
Its time is set against reading the same records without tallying them (the store's own
cost), in the same run; its memory (tracemalloc's peak while it runs) against the same records
held at once as a list, which a report that did not stream them would need. The store's own
size is reported too (the SQLite file; Redis's ``used_memory`` growth). SQLite is filled 1,000
records a transaction (``SqliteState._run``, each record through the log's own step), Redis 50
calls at a time: filling is setup, not measured.

**The cost per answer.** Answers asked through the real service (the upstream simulator on
loopback answering at once, a platform-free presenter, no pacing), alternating blocks with
``ANSWER_LOG=metadata`` and ``off`` on the same store, each on SQLite and on Redis; the wall time
per answer of each, the median of the blocks.

Run: ``python -m bench.bench_answerlog`` (about two minutes).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
import sqlite3
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from redis.asyncio import Redis

from bench.report import Result
from bench.table import print_table, verdict
from bot.admission import Admission
from bot.answer import Question
from bot.answerlog import AnswerLog, Mode
from bot.ops.report import build_report
from bot.pacing import Pacer
from bot.service import AnswerService, Limits
from bot.state import LoggedAnswer, LoggedSource, LoggedVote, State, open_state, sqlite_log
from bot.state.sqlite import SqliteState
from bot.upstream.client import AnswerClient, RetryPolicy
from tests.bot.presenter import PlainPresenter
from tests.sim.redis_server import start_redis_server
from tests.sim.upstream import UpstreamSim

RECORDS = 100_000
DAYS = 30
ANSWERS = 200
"""Answers a block of the cost measurement."""
ROUNDS = 4
RETENTION = 31 * 86400.0


def records(count: int = RECORDS, *, seed: int = 7) -> list[LoggedAnswer]:
    rng = random.Random(seed)
    now = time.time()
    made = []
    for n in range(count):
        server = f"{rng.randrange(20) + 100000000000000000}"
        verdicts = ["found", "found", "not_found" if rng.random() < 0.125 else "found"]
        made.append(
            LoggedAnswer(
                id=f"{n:016x}",
                at=now - DAYS * 86400 * (1 - n / count),
                platform="discord",
                server=server,
                channel=f"{server[:-2]}{rng.randrange(5):02d}",
                asker=f"{rng.randrange(500) + 200000000000000000}",
                language=rng.choice(("en", "fr", "es", "pt_BR", "de")),
                outcome=rng.choices(("answered", "interrupted", "failed"), (95, 3, 2))[0],
                first_text_seconds=round(rng.lognormvariate(0.3, 0.4), 3),
                total_seconds=round(rng.lognormvariate(2.2, 0.4), 3),
                model="magisterium-1",
                tokens=rng.randrange(2000, 40000),
                sources=tuple(
                    LoggedSource(
                        title=f"Document {k}",
                        url=f"https://site{rng.randrange(40)}.example/doc/{rng.randrange(9999)}",
                        verdict=verdict,
                    )
                    for k, verdict in enumerate(verdicts)
                ),
                votes=(
                    (LoggedVote(user="300", value="down", at=now, reason="other"),)
                    if rng.random() < 0.1
                    else ()
                ),
                vote_key=f"discord:{n + 500000000000000000}",
            )
        )
    return made


async def fill(state: State, made: list[LoggedAnswer]) -> None:
    if isinstance(state, SqliteState):
        for start in range(0, len(made), 1000):
            await state._run(functools.partial(_log_all, made[start : start + 1000]))
        return
    for start in range(0, len(made), 50):
        batch = made[start : start + 50]
        await asyncio.gather(*(state.log_answer(record, retention=RETENTION) for record in batch))


def _log_all(batch: list[LoggedAnswer], db: sqlite3.Connection, now: float) -> None:
    for record in batch:
        sqlite_log.log_answer(db, now, record, RETENTION)


async def timed(work: Callable[[], Awaitable[object]]) -> float:
    """Seconds ``work`` took."""
    started = time.perf_counter()
    await work()
    return time.perf_counter() - started


async def peak(work: Callable[[], Awaitable[object]]) -> int:
    """tracemalloc's peak (bytes) while ``work`` ran (timed apart: tracing slows it)."""
    tracemalloc.start()
    await work()
    most = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return most


async def read_only(state: State) -> int:
    count = 0
    async for batch in state.logged_answers(since=0, until=time.time() + 1):
        count += len(batch)
    return count


async def held_at_once(state: State) -> list[LoggedAnswer]:
    return [
        r async for batch in state.logged_answers(since=0, until=time.time() + 1) for r in batch
    ]


async def report_bench(name: str, state: State, size: Callable[[], Awaitable[int]]) -> list[Result]:
    before = await size()
    made = records()
    await fill(state, made)
    stored = await size() - before
    del made
    read_s = await timed(lambda: read_only(state))
    every_s = await timed(lambda: build_report(state, since=0, until=time.time() + 1))
    one_s = await timed(
        lambda: build_report(
            state, since=0, until=time.time() + 1, platform="discord", server="100000000000000007"
        )
    )
    every_peak = await peak(lambda: build_report(state, since=0, until=time.time() + 1))
    list_peak = await peak(lambda: held_at_once(state))
    print_table(
        f"report over {RECORDS:,} answers: {name}",
        ("what", "value"),
        [
            ("every place", f"{every_s:.2f} s"),
            ("records read, not tallied", f"{read_s:.2f} s"),
            ("one server (1/20)", f"{one_s:.3f} s"),
            ("peak memory, report", f"{every_peak / 2**20:.1f} MiB"),
            ("peak memory, records held at once", f"{list_peak / 2**20:.1f} MiB"),
            ("store size", f"{stored / 2**20:.1f} MiB ({stored / RECORDS:.0f} B a record)"),
        ],
    )
    return [
        Result(
            metric=f"report over {RECORDS:,} logged answers: time",
            subject=name,
            value=every_s,
            unit="s",
            target="≤ 10 s",
            met=every_s <= 10,
            baseline=read_s,
            baseline_name="reading them, not tallied",
            detail={"one_server_seconds": one_s},
        ),
        Result(
            metric=f"report over {RECORDS:,} logged answers: peak memory",
            subject=name,
            value=every_peak / 2**20,
            unit="MiB",
            target="≤ 0.25x",
            met=every_peak <= list_peak / 4,
            baseline=list_peak / 2**20,
            baseline_name="the records held at once",
        ),
        Result(
            metric="answer log's store size a record (metadata)",
            subject=name,
            value=stored / RECORDS,
            unit="B",
            target="≤ 2,048 B",
            met=stored / RECORDS <= 2048,
        ),
    ]


@contextlib.asynccontextmanager
async def answering(
    state: State, upstream: UpstreamSim, mode: Mode
) -> AsyncIterator[AnswerService]:
    async with AnswerClient(
        base_url=upstream.base_url, api_key=None, model="magisterium-1", retry=RetryPolicy()
    ) as client:
        yield AnswerService(
            client=client,
            state=state,
            admission=Admission(max_in_flight=8),
            limits=Limits(questions_per_minute=10**9),
            answer_log=AnswerLog(state, mode=mode),
        )


class _Sink:
    async def show(self, messages: object, *, final: bool) -> None:
        pass

    async def post_thread(self, payloads: object) -> None:
        pass

    async def edit_thread(self, index: int, payload: object) -> None:
        pass

    def vote_key(self) -> str:
        return "bench:message"


async def per_answer(service: AnswerService, block: int) -> float:
    started = time.perf_counter()
    for n in range(ANSWERS):
        question = Question(
            text="What is grace?",
            platform="bench",
            user_id=f"u{n % 50}",
            channel_id="c1",
            server_id="g1",
            thread_id=f"t{block}-{n}",
        )
        await service.ask(
            question, presenter=PlainPresenter(), sink=_Sink(), pacer=Pacer(min_interval=0.0)
        )
    return (time.perf_counter() - started) / ANSWERS


async def cost_bench(name: str, state: State, upstream: UpstreamSim) -> Result:
    timings: dict[Mode, list[float]] = {"metadata": [], "off": []}
    for block in range(ROUNDS):
        for mode in ("off", "metadata") if block % 2 else ("metadata", "off"):
            async with answering(state, upstream, mode) as service:
                timings[mode].append(await per_answer(service, block))
    logged, bare = (statistics.median(timings[m]) * 1000 for m in ("metadata", "off"))
    print_table(
        f"an answer with and without the log: {name}",
        ("ANSWER_LOG", "ms an answer (median of blocks)"),
        [("metadata", f"{logged:.2f}"), ("off", f"{bare:.2f}")],
    )
    return Result(
        metric="the log's cost: time an answer, logged (metadata) vs off",
        subject=name,
        value=logged,
        unit="ms",
        target="≤ 1.25x",
        met=logged <= bare * 1.25,
        baseline=bare,
        baseline_name="ANSWER_LOG=off",
        detail={"blocks_ms": {m: [t * 1000 for t in ts] for m, ts in timings.items()}},
    )


async def _measure() -> list[Result]:
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="citebot-bench-log-") as folder:
        path = Path(folder) / "state.db"
        async with open_state(f"sqlite:///{path}") as state:

            async def file_size() -> int:
                wal = path.with_name(path.name + "-wal")
                return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)

            results += await report_bench("SQLite", state, file_size)
    with start_redis_server() as url:
        async with open_state(url, namespace="bench") as state, Redis.from_url(url) as redis:

            async def used_memory() -> int:
                return int((await redis.info("memory"))["used_memory"])

            results += await report_bench("Redis", state, used_memory)
        async with UpstreamSim().running() as upstream:
            with tempfile.TemporaryDirectory(prefix="citebot-bench-cost-") as folder:
                async with open_state(f"sqlite:///{Path(folder) / 'state.db'}") as state:
                    results.append(await cost_bench("SQLite", state, upstream))
            async with open_state(url, namespace="bench-cost") as state:
                results.append(await cost_bench("Redis", state, upstream))
    return results


def measure() -> list[Result]:
    results = asyncio.run(_measure())
    rows = [
        (r.subject, r.metric, f"{r.value:,.2f} {r.unit}", verdict(r.target, r.met)) for r in results
    ]
    print_table("answer log", ("where", "what", "measured", "target"), rows)
    return results


if __name__ == "__main__":
    measure()
