"""The shared write budgets: a sliding window per key (a channel, a method)."""

from __future__ import annotations

import asyncio

import pytest

from bot.pacing import RateBudget


def test_keys_do_not_share_a_window() -> None:
    budget = RateBudget(calls=1, per_seconds=10, clock=FakeClock())
    assert budget.reserve("a") == 0
    assert budget.reserve("b") == 0
    assert budget.reserve("a") == 10


async def test_waiters_are_served_in_arrival_order() -> None:
    budget = RateBudget(calls=1, per_seconds=0.01)
    order: list[int] = []

    async def write(n: int) -> None:
        await budget.acquire("c")
        order.append(n)

    await asyncio.gather(*(write(n) for n in range(4)))
    assert order == [0, 1, 2, 3]


def test_a_budget_needs_a_positive_rate() -> None:
    with pytest.raises(ValueError, match="at least one call"):
        RateBudget(calls=0, per_seconds=1)


def test_one_budget_serves_successive_event_loops() -> None:
    """Platform budgets outlive a loop: each test (and each worker) runs its own."""
    budget = RateBudget(calls=1, per_seconds=0.01)

    async def contend() -> None:
        await asyncio.gather(*(budget.acquire("c") for _ in range(3)))

    asyncio.run(contend())
    asyncio.run(contend())


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_sliding_window_frees_each_slot_one_window_after_it_was_taken() -> None:
    clock = FakeClock()
    budget = RateBudget(calls=3, per_seconds=60, clock=clock)
    assert [budget.reserve("T1") for _ in range(3)] == [0, 0, 0]  # a burst up to the quota
    clock.now += 10
    assert budget.reserve("T1") == 50  # the fourth waits for the first to leave the window
    assert budget.reserve("T1") == 50
    assert budget.reserve("T1") == 50
    assert budget.reserve("T1") == 110  # then the window of the fourth
    assert budget.reserve("T2") == 0  # another key counts apart


def test_delay_looks_ahead_without_taking_anything() -> None:
    clock = FakeClock()
    budget = RateBudget(calls=2, per_seconds=10, clock=clock)
    assert budget.delay("m") == 0
    assert budget.delay("m", after=1) == 0
    assert budget.delay("m", after=2) == 10  # a third call would wait for the first slot
    budget.reserve("m")
    clock.now += 4
    assert budget.delay("m") == 0
    assert budget.delay("m", after=1) == 6
    assert budget.reserve("m") == 0
    assert budget.delay("m") == 6
    clock.now += 6
    assert budget.delay("m") == 0


def test_a_margin_widens_the_window_kept_to() -> None:
    clock = FakeClock()
    budget = RateBudget(calls=1, per_seconds=1, margin=0.25, clock=clock)
    budget.reserve("c")
    assert budget.reserve("c") == 1.25
    assert budget.reserve("c") == 2.5


def test_a_key_is_forgotten_once_its_window_is_empty() -> None:
    """One key per answer (an interaction token, a thread) must not outlive the answer: 5,000
    answers leave as many keys as the last window saw, not 5,000."""
    clock = FakeClock()
    budget = RateBudget(calls=5, per_seconds=5, clock=clock)
    for answer in range(5000):
        budget.reserve(f"token-{answer}")
        budget.reserve(f"token-{answer}")
        clock.now += 0.01  # a hundred answers a second
    assert budget.keys <= 2 * 5 * 100  # at most two windows' worth are still held
    clock.now += 10
    assert budget.delay("token-4999") == 0
    budget.reserve("another")
    assert budget.keys == 1


def test_a_window_adopted_empty_is_swept_like_any_other() -> None:
    """Workers sharing a budget adopt each other's windows, an empty one too (nobody called):
    the next sweep forgets it instead of reading its last call."""
    clock = FakeClock()
    budget = RateBudget(calls=5, per_seconds=5, clock=clock)
    budget.adopt("chat.update", [])
    budget.reserve("chat.postMessage")
    clock.now += 10
    assert budget.delay("chat.update") == 0
    budget.reserve("chat.postMessage")
    assert budget.keys == 1


def test_a_slot_can_be_taken_no_sooner_than_another_windows() -> None:
    """A write counted in a group's minute and its chat's second takes one time in both: the
    minute's slot is the second's, not the earlier one the minute alone would give."""
    clock = FakeClock()
    minute = RateBudget(calls=20, per_seconds=60, clock=clock)
    second = RateBudget(calls=1, per_seconds=1, clock=clock)
    second.reserve("chat")
    at = max(minute.next_at("group"), second.next_at("chat"))
    assert at == clock.now + 1
    assert [minute.reserve("group", at=at), second.reserve("chat", at=at)] == [1, 1]
    assert minute.delay("group") == 1  # the next write in the group queues behind it
