"""The state store fails; the person who asked still gets their answer.

A real redis-server is killed mid-answer and started again, a server that accepts connections
but never answers stands in for a hung Redis, and another process holds a SQLite file's lock.
Each time the answer is shown in full, the outage is counted for the operator, and once the
store is back the conversation is remembered again without restarting anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from redis.exceptions import TimeoutError as RedisTimeout

from bot.admission import Admission
from bot.ops.metrics import Metrics
from bot.service import AnswerService, Limits
from bot.serving import answer_service
from bot.state import open_state
from bot.state.coordination import CoordinationDown
from bot.state.failopen import FailOpenState
from bot.upstream.client import AnswerClient
from config import Settings, load_settings
from tests.bot.presenter import PlainPresenter
from tests.bot.test_service import NOW, Sink, ask, question
from tests.sim.redis_server import RedisProcess
from tests.sim.upstream import Gate, Stream, UpstreamSim, answer, chunk

TIMEOUT = 0.5


def failures(metrics: Metrics, operation: str) -> float:
    value = metrics.registry.get_sample_value(
        "citebot_state_failures_total", {"operation": operation}
    )
    return value or 0.0


@contextlib.asynccontextmanager
async def service_on(url: str, client: AnswerClient) -> AsyncIterator[AnswerService]:
    metrics = Metrics()
    backend = open_state(url, namespace="outage", timeout=TIMEOUT)
    async with FailOpenState(
        backend,
        timeout=TIMEOUT,
        pause=0.2,
        on_failure=lambda operation: metrics.state_failures.labels(operation).inc(),
    ) as state:
        yield AnswerService(
            client=client,
            state=state,
            metrics=metrics,
            admission=Admission(max_in_flight=4),
            limits=Limits(questions_per_minute=5),
        )


async def test_redis_killed_mid_answer_costs_no_answer_and_memory_returns_with_it(
    redis_process: RedisProcess,
    upstream: UpstreamSim,
    answer_client: AnswerClient,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with service_on(redis_process.url, answer_client) as service:
        upstream.queue(
            Stream(
                (chunk("The first half,"), Gate(), chunk(" and the rest.", finish_reason="stop"))
            )
        )
        upstream.queue(*(answer([f"Answer {n}."]) for n in range(4)))
        shown = Sink()
        running = asyncio.create_task(ask(service, question("Long?", thread="T1"), shown))
        await shown.wait_for("The first half,")
        redis_process.kill()
        upstream.release()
        with caplog.at_level(logging.WARNING, "bot.state"):
            await running
        # The answer finished in full although its lease, memory and limits were gone.
        assert shown.shown[-1] == "The first half, and the rest."
        assert failures(service.metrics, "memory") >= 1
        assert "the state store failed" in caplog.text

        # While it is down, a new question is still answered (the limit fails open).
        during = await ask(service, question("Still there?", thread="T2"))
        assert during.shown[-1] == "Answer 0."
        assert failures(service.metrics, "rate_limit") >= 1

        # Back, empty (it kept nothing): the worker uses it again by itself.
        redis_process.start()
        await asyncio.sleep(0.3)  # past the pause after the last failure
        first = await ask(service, question("Remember this?", thread="T3"))
        assert first.shown[-1] == "Answer 1."
        follow_up = await ask(service, question("And now?", thread="T3"))
        assert follow_up.shown[-1] == "Answer 2."
        assert upstream.questions[-1] == [
            {"role": "user", "content": "Remember this?"},
            {"role": "assistant", "content": "Answer 1."},
            {"role": "user", "content": "And now?"},
        ]
        assert "the state store is back" in caplog.text


async def _silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Accept, read whatever comes, answer nothing: a hung Redis (or a black-holed route)."""
    with contextlib.suppress(ConnectionError):
        while await reader.read(1024):
            pass
    writer.close()


@pytest.fixture
async def hung_redis() -> AsyncIterator[Settings]:
    """Settings whose STATE_URL names a Redis that never answers, with a 0.3 s timeout."""
    server = await asyncio.start_server(_silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield load_settings(
            {"STATE_URL": f"redis://127.0.0.1:{port}/0", "STATE_TIMEOUT_SECONDS": "0.3"},
            env_file=None,
        )


async def test_a_redis_that_never_answers_costs_each_call_its_timeout_not_the_answer(
    upstream: UpstreamSim, answer_client: AnswerClient, hung_redis: Settings
) -> None:
    async with answer_service(hung_redis, answer_client) as service:
        started = time.monotonic()
        shown = await ask(service, question("Anyone home?", thread="T1"))
        took = time.monotonic() - started
    assert shown.shown[-1] == "Hello world."
    # The limit, the history, the lease and the memory each wait for 0.3 s at most (redis-py's
    # own defaults would wait 5 s, ten times over), and after the first the store is skipped.
    assert took < 5
    assert failures(service.metrics, "rate_limit") == 1


async def test_the_workers_coordination_on_a_hung_redis_waits_state_timeout_seconds(
    answer_client: AnswerClient, hung_redis: Settings
) -> None:
    """The shared leases, rate windows and in-flight records give up on a hung Redis after
    STATE_TIMEOUT_SECONDS, like every other use of the store (they once waited 2 s whatever
    it said)."""
    async with answer_service(hung_redis, answer_client) as service:
        assert service.coordination is not None
        with pytest.raises(CoordinationDown) as down:
            async with asyncio.timeout(1.5):  # the old 2 s would end here, as TimeoutError
                await service.coordination.hold("reader", "this-worker", ttl=10)
    assert isinstance(down.value.__cause__, RedisTimeout)  # mapped once, in the coordination


async def test_a_locked_sqlite_file_costs_no_answer(
    tmp_path: Path, upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    path = tmp_path / "state.db"
    async with service_on(f"sqlite:///{path}", answer_client) as service:
        other = sqlite3.connect(path, isolation_level=None)  # another process's transaction
        other.execute("BEGIN EXCLUSIVE")
        try:
            shown = await ask(service, question("Locked out?", thread="T1"))
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert shown.shown[-1] == "Hello world."
        assert failures(service.metrics, "rate_limit") == 1


async def test_a_failure_nothing_else_words_ends_with_please_try_again(
    tmp_path: Path, upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    """A store used without the fail-open wrapper (an embedder's, a test's) fails in the
    middle of the gate: the person is asked to try again, and the outcome says it failed."""
    path = tmp_path / "state.db"
    async with open_state(f"sqlite:///{path}", timeout=0.2) as raw:
        service = AnswerService(
            client=answer_client, state=raw, admission=Admission(max_in_flight=1)
        )
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            sink = Sink()
            outcome = await service.ask(
                question("Locked out?"), presenter=PlainPresenter(), sink=sink, pacer=NOW
            )
        finally:
            other.execute("ROLLBACK")
            other.close()
    assert sink.shown == ["Something went wrong while getting your answer. Please try again."]
    assert outcome is not None
    assert outcome.status == "failed"
    assert upstream.requests == []
