"""A resource one worker at a time may run (a platform's single update reader), shared by the
workers on one Redis: one runs it, a stopping one hands it over at once, a dead one's lease
lapses and another takes it over; several resources reach every worker joining, one at a
time. (Discord's shards, many resources, in
tests/integrations/discord/test_shards.py; as real processes in test_many_workers.py.)"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable

from bot.shares import FairShare, Times
from bot.state.coordination import Coordination
from tests.patience import PATIENCE

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
    deadline = asyncio.get_running_loop().time() + PATIENCE
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "the reader never moved"
        await asyncio.sleep(0.02)


def share(
    coordination: Coordination,
    accepting: Callable[[], bool] = lambda: True,
    *,
    times: Times = QUICK,
    count: int = 1,
) -> FairShare:
    return FairShare(
        coordination=coordination,
        group="telegram:bot",
        count=count,
        accepting=accepting,
        times=times,
    )


async def test_one_worker_at_a_time_runs_the_reader_and_hands_it_over_when_it_stops(
    coordinations: Callable[[], Coordination],
) -> None:
    """Which of two workers runs it is the fair share's choice (the lower worker id); never
    both, and the other takes it when the one running it stops."""
    accepting = {"first": True, "second": True}
    readers = {"first": Reader(), "second": Reader()}
    shares = {
        name: share(coordinations(), functools.partial(accepting.__getitem__, name))
        for name in readers
    }
    await shares["first"].start(readers["first"])
    await until(lambda: readers["first"].running == {0})
    await shares["second"].start(readers["second"])
    for _ in range(20):  # twenty ticks: the share settles, one reader at every moment
        await asyncio.sleep(QUICK.tick)
        running = [name for name, reader in readers.items() if reader.running]
        assert len(running) <= 1
    (holder,) = running
    other = "second" if holder == "first" else "first"
    accepting[holder] = False  # SIGTERM
    await until(lambda: readers[other].running == {0})
    assert readers[holder].running == set()
    for name, plan in shares.items():
        await plan.stop(readers[name])


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


async def test_workers_joining_one_at_a_time_each_get_their_share(
    coordinations: Callable[[], Coordination],
) -> None:
    """Four resources, three workers starting one after another, each once the share has
    settled: the last comes to run one too (a worker holding two of four lets one go when a
    third arrives), and every resource runs in exactly one worker."""
    readers = [Reader() for _ in range(3)]
    shares = [share(coordinations(), count=4) for _ in readers]

    def spread(workers: int) -> bool:
        running = [reader.running for reader in readers[:workers]]
        every = sorted(number for numbers in running for number in numbers)
        return every == [0, 1, 2, 3] and all(numbers for numbers in running)

    for workers, (plan, reader) in enumerate(zip(shares, readers, strict=True), start=1):
        await plan.start(reader)
        await until(functools.partial(spread, workers))
    assert sorted(len(reader.running) for reader in readers) == [1, 1, 2]
    for plan, reader in zip(shares, readers, strict=True):
        await plan.stop(reader)
