"""The shared per-channel write budget."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.pacing import ChannelBudget


async def test_a_channel_gets_its_budget_then_waits_for_the_window() -> None:
    budget = ChannelBudget(writes=4, per_seconds=0.4)
    started = time.monotonic()
    for _ in range(4):
        await budget.acquire("channel-1")
    assert time.monotonic() - started < 0.2  # four writes go at once
    await budget.acquire("channel-1")
    assert time.monotonic() - started >= 0.39  # the fifth waits for the first to age out


async def test_channels_do_not_share_a_budget() -> None:
    budget = ChannelBudget(writes=1, per_seconds=10)
    await budget.acquire("a")
    await asyncio.wait_for(budget.acquire("b"), timeout=1)


async def test_waiters_are_served_in_arrival_order() -> None:
    budget = ChannelBudget(writes=1, per_seconds=0.1)
    order: list[int] = []

    async def write(n: int) -> None:
        await budget.acquire("c")
        order.append(n)

    await asyncio.gather(*(write(n) for n in range(4)))
    assert order == [0, 1, 2, 3]


def test_a_budget_needs_a_positive_rate() -> None:
    with pytest.raises(ValueError, match="at least one write"):
        ChannelBudget(writes=0, per_seconds=1)


def test_one_budget_serves_successive_event_loops() -> None:
    """Platform pacers are module constants: each test (and each worker) runs its own loop."""
    budget = ChannelBudget(writes=1, per_seconds=0.05)

    async def contend() -> None:
        await asyncio.gather(*(budget.acquire("c") for _ in range(3)))

    asyncio.run(contend())
    asyncio.run(contend())
