"""The daily quotas: counted once across workers, refused ones not counted, ended with the UTC
day."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from redis.asyncio import Redis

from bot.state import QuotaDecision, State, open_state
from tests.bot.state.conftest import shared_backends


def seconds_to_midnight() -> float:
    return 86400 - time.time() % 86400


async def test_a_place_asks_its_limit_then_is_refused_until_the_day_ends(state: State) -> None:
    for _ in range(3):
        assert await state.take_daily({"q:discord:1": 3}) == QuotaDecision(allowed=True)
    refused = await state.take_daily({"q:discord:1": 3})
    assert not refused.allowed
    assert refused.refused_by == "q:discord:1"
    assert seconds_to_midnight() - 5 <= refused.retry_after <= seconds_to_midnight() + 1
    assert (await state.take_daily({"q:discord:2": 3})).allowed  # another place counts apart


async def test_a_refused_question_counts_on_no_counter(state: State) -> None:
    place, person = "q:slack:T1", "q:slack:T1:U1"
    assert (await state.take_daily({place: 2, person: 1})).allowed
    refused = await state.take_daily({place: 2, person: 1})
    assert refused.refused_by == person
    # the person's refused question did not use the place's second question
    assert (await state.take_daily({place: 2, "q:slack:T1:U2": 1})).allowed
    assert (await state.take_daily({place: 2, "q:slack:T1:U3": 1})).refused_by == place


@shared_backends
async def test_workers_together_never_pass_the_limit(open_states: Callable[[], State]) -> None:
    workers = [open_states() for _ in range(3)]
    decisions = await asyncio.gather(
        *(worker.take_daily({"q:telegram:-100": 10}) for worker in workers for _ in range(8))
    )
    assert sum(decision.allowed for decision in decisions) == 10


async def test_a_counter_in_redis_ends_with_its_utc_day(redis_url: str) -> None:
    async with open_state(redis_url, namespace="daily-expiry") as state:
        assert (await state.take_daily({"q:discord:1": 5})).allowed
    async with Redis.from_url(redis_url) as redis:
        left_ms = await redis.pttl("daily-expiry:daily:q:discord:1")
    assert 0 < left_ms <= seconds_to_midnight() * 1000 + 1000
