"""The one write budget every platform's limits are configured into: claims that keep the
finals' slots, a 429's Retry-After heard, several workers on one Redis keeping a limit as one,
and a Redis that fails leaving each worker to pace alone."""

from __future__ import annotations

from collections.abc import Callable

from bot.budgets import Limit, Window, WriteBudget
from bot.state.coordination import Coordination, open_coordination
from tests.sim.redis_server import free_port

MINUTE = {"update": Limit(3, 60.0), "stop": Limit(2, 60.0), "mine": Limit(1, 60.0, shared=False)}
UPDATE, STOP = Window("update"), Window("stop")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_a_skippable_write_leaves_the_claimed_slots_to_the_finals() -> None:
    budget = WriteBudget(MINUTE, clock=Clock())
    budget.claim(UPDATE, 2)  # two answers' last edits
    assert budget.free(UPDATE)
    await budget.acquire(UPDATE)  # an intermediate edit took the one spare slot
    assert not budget.free(UPDATE)  # the next waits: the claimed two are the finals'
    budget.release(UPDATE, 2)
    assert budget.free(UPDATE)
    assert not budget.free(UPDATE, spare=2)
    assert budget.free(Window("unknown"))  # what no limit counts goes unpaced


async def test_a_429_holds_its_window_for_retry_after() -> None:
    clock = Clock()
    budget = WriteBudget(MINUTE, clock=clock)
    await budget.pause(STOP, 30)
    assert budget.waiting(STOP) == 30
    assert not budget.free(STOP)
    assert budget.free(UPDATE)  # only the refused window waits
    assert not await budget.take(STOP, final=False)  # a skippable write is skipped
    clock.now += 30
    assert budget.waiting(STOP) == 0
    assert await budget.take(STOP, final=False)


async def test_workers_on_one_redis_keep_a_limit_and_its_claims_as_one(
    coordinations: Callable[[], Coordination],
) -> None:
    a, b = (WriteBudget(MINUTE, scope="bot", coordination=coordinations()) for _ in range(2))
    async with a, b:
        assert b.free(UPDATE)  # b has seen nothing yet (and now watches the window)
        for _ in range(3):
            await a.acquire(UPDATE)
        await b.sync()
        assert not b.free(UPDATE)  # a's three are in b's copy of the shared window

        b.claim(STOP, 2)
        await b.sync()
        await a.sync()
        assert not a.free(STOP)  # b's finals keep both of the minute's stops
        b.release(STOP, 2)
        await b.sync()
        await a.sync()
        assert a.free(STOP, spare=1)

        await b.acquire(Window("mine"))  # one answer's own: never on Redis
        await a.sync()
        assert a.free(Window("mine"))

        await a.pause(STOP, 30)  # a heard a 429: every worker's next stop waits for it
        wait, _ = await coordinations().reserve({"bot:stop:": (2, 60.0)})
        assert 29 < wait <= 30


async def test_a_redis_that_fails_leaves_each_worker_pacing_alone() -> None:
    unreachable = open_coordination(f"redis://127.0.0.1:{free_port()}/0")
    assert unreachable is not None
    budget = WriteBudget(MINUTE, coordination=unreachable, clock=Clock())
    try:
        async with budget:
            for _ in range(3):
                await budget.acquire(UPDATE)  # no error: its own window instead
            assert not budget.free(UPDATE)
            await budget.pause(STOP, 1)
            await budget.sync()
            assert unreachable.down
    finally:
        await unreachable.aclose()


async def test_a_write_that_wakes_late_takes_a_fresh_slot() -> None:
    """A busy loop wakes a write two seconds after its slot: going then, it would land two
    seconds closer to the next write than the platform allows; it takes the next slot free
    instead, and goes one whole window after the stale one."""
    clock = Clock()
    late = [2.0]

    async def sleep(seconds: float) -> None:
        clock.now += seconds + (late.pop() if late else 0.0)

    budget = WriteBudget({"post": Limit(1, 10.0, margin=1.0)}, clock=clock, sleep=sleep)
    post = Window("post")
    await budget.acquire(post)  # at 100, at once
    await budget.acquire(post)  # its slot was 111; it woke at 113
    assert clock.now == 122  # the fresh slot: 111 + 11
    assert budget.waiting(post) == 0
