"""A resource one worker at a time may run (a platform's single update reader), shared by the
workers on one Redis: one runs it, a stopping one hands it over at once, a dead one's lease
lapses and another takes it over. (Discord's shards, many resources, in
tests/integrations/discord/test_shards.py; as real processes in test_many_workers.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.state.coordination import Coordination
from bot.state.shares import FairShare, Times

QUICK = Times(lease_ttl=30.0, tick=0.05, settle=0.0)
"""Leases far longer than the test: whatever moves, moved because a worker let it go."""
LAPSING = Times(lease_ttl=0.6, tick=0.05, settle=0.0)


class Reader:
    """Runs the resource while the share gives it this worker."""

    def __init__(self) -> None:
        self.running: set[int] = set()
        self.starts = 0

    async def start_resource(self, number: int) -> None:
        assert number not in self.running
        self.running.add(number)
        self.starts += 1

    async def stop_resource(self, number: int) -> None:
        self.running.discard(number)


async def until(predicate: Callable[[], bool]) -> None:
    """Poll ``predicate``: the leases live in Redis, which tells no one when they change."""
    deadline = asyncio.get_running_loop().time() + 10
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "the reader never moved"
        await asyncio.sleep(0.02)


def share(
    coordination: Coordination,
    accepting: Callable[[], bool] = lambda: True,
    *,
    times: Times = QUICK,
) -> FairShare:
    return FairShare(
        coordination=coordination, group="telegram:bot", accepting=accepting, times=times
    )


async def test_one_worker_runs_the_reader_and_hands_it_over_when_it_stops(
    coordinations: Callable[[], Coordination],
) -> None:
    accepting = {"first": True}
    first, second = Reader(), Reader()
    shares = [share(coordinations(), lambda: accepting["first"]), share(coordinations())]
    await shares[0].start(first)
    await until(lambda: first.running == {0})
    await shares[1].start(second)
    await asyncio.sleep(QUICK.tick * 10)  # many ticks: the newcomer takes nothing held
    assert (first.running, second.running) == ({0}, set())
    accepting["first"] = False  # SIGTERM
    await until(lambda: second.running == {0})
    assert first.running == set()
    for plan, reader in zip(shares, (first, second), strict=True):
        await plan.stop(reader)


async def test_a_dead_workers_reader_is_taken_over_once_its_lease_lapses(
    coordinations: Callable[[], Coordination],
) -> None:
    first, second = Reader(), Reader()
    dying = share(coordinations(), times=LAPSING)
    living = share(coordinations(), times=LAPSING)
    await dying.start(first)
    await until(lambda: first.running == {0})
    await living.start(second)
    assert dying._loop is not None
    dying._loop.cancel()  # SIGKILL: no renewal, nothing let go
    await until(lambda: second.running == {0})
    assert second.starts == 1
    await living.stop(second)
