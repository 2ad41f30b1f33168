"""The store fails: an answer goes on without its record (counted), a token budget lets the
question through, and a report or a forget says it could not rather than pretend."""

from __future__ import annotations

import time
from collections import Counter

import pytest

from bot.state import LoggedAnswer, StateUnavailable, open_state
from bot.state.failopen import FailOpenState
from tests.sim.redis_server import RedisProcess

TIMEOUT = 0.5


async def test_redis_gone_the_log_is_skipped_and_a_report_or_forget_refuses(
    redis_process: RedisProcess,
) -> None:
    failures: Counter[str] = Counter()
    backend = open_state(redis_process.url, namespace="log-outage", timeout=TIMEOUT)
    async with FailOpenState(
        backend, timeout=TIMEOUT, pause=0.2, on_failure=lambda op: failures.update([op])
    ) as state:
        record = LoggedAnswer(
            id="a1",
            at=time.time(),
            platform="discord",
            server="1",
            channel="2",
            asker="3",
            language=None,
            outcome="answered",
        )
        await state.log_answer(record, retention=86400)
        redis_process.kill()

        await state.log_answer(record, retention=86400)  # no exception: the answer goes on
        await state.log_verdicts("a1", ["found"])
        assert await state.daily_counts(["tokens:discord:1"]) == {}  # nothing counted: let through
        assert failures["answer_log"] >= 2
        with pytest.raises(StateUnavailable):
            [page async for page in state.logged_answers(since=0, until=time.time())]
        with pytest.raises(StateUnavailable):
            await state.forget_person("discord", "3")
        with pytest.raises(StateUnavailable):
            await state.forget_place("discord", "1")
