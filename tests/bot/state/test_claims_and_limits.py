"""Event deduplication and the per-user rate limit, on every backend."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.state import State
from tests.bot.state.conftest import shared_backends


async def test_an_event_delivered_twenty_times_at_once_is_claimed_once(state: State) -> None:
    claims = await asyncio.gather(*(state.first_time("Ev123") for _ in range(20)))
    assert claims.count(True) == 1
    assert await state.first_time("Ev456")


@shared_backends
async def test_two_workers_claim_a_redelivered_event_once(open_states: Callable[[], State]) -> None:
    one, two = open_states(), open_states()
    claims = await asyncio.gather(
        *(worker.first_time("Ev123") for _ in range(10) for worker in (one, two))
    )
    assert claims.count(True) == 1


async def test_a_claim_lapses_after_its_ttl(state: State) -> None:
    # A second of ttl: two calls in a row on a loaded machine (SQLite in its thread, four test
    # processes on two cores) once took longer than the 0.2 s this test gave them.
    assert await state.first_time("Ev123", ttl=1.0)
    assert not await state.first_time("Ev123", ttl=1.0)
    await asyncio.sleep(1.1)
    assert await state.first_time("Ev123", ttl=1.0)


async def test_a_user_gets_the_limit_then_a_refusal_saying_when_to_retry(state: State) -> None:
    decisions = [await state.hit("U1", limit=3, per_seconds=60) for _ in range(5)]
    assert [decision.allowed for decision in decisions] == [True, True, True, False, False]
    assert all(decision.retry_after == 0 for decision in decisions[:3])
    assert all(58 < decision.retry_after <= 60 for decision in decisions[3:])
    assert (await state.hit("U2", limit=3, per_seconds=60)).allowed


async def test_the_window_slides_and_refusals_do_not_count(state: State) -> None:
    assert (await state.hit("U1", limit=2, per_seconds=0.3)).allowed
    assert (await state.hit("U1", limit=2, per_seconds=0.3)).allowed
    refused = await state.hit("U1", limit=2, per_seconds=0.3)
    assert not refused.allowed
    assert 0 < refused.retry_after <= 0.3
    await asyncio.sleep(refused.retry_after + 0.05)
    assert (await state.hit("U1", limit=2, per_seconds=0.3)).allowed


@shared_backends
async def test_two_workers_share_a_users_limit(open_states: Callable[[], State]) -> None:
    one, two = open_states(), open_states()
    allowed = await asyncio.gather(
        *(worker.hit("U1", limit=10, per_seconds=60) for _ in range(8) for worker in (one, two))
    )
    assert [decision.allowed for decision in allowed].count(True) == 10
    assert not (await one.hit("U1", limit=10, per_seconds=60)).allowed
    assert not (await two.hit("U1", limit=10, per_seconds=60)).allowed
