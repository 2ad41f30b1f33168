"""One answer per thread at a time; later questions wait their turn in arrival order."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.state import State
from bot.state.base import StateBase
from tests.bot.state.conftest import shared_backends
from tests.patience import PATIENCE


class Thread:
    """Questions asked in one thread, each answered under the thread's lease; ``log`` is what
    a user would see happen, in order. An answer is done while it still holds the lease (its
    last message is posted inside it): after the lease is left, the next answer may already
    be under way, so nothing logged then has an order."""

    def __init__(self, key: str = "T1") -> None:
        self.key = key
        self.log: list[str] = []
        self.tasks: list[asyncio.Task[None]] = []
        self._done: dict[str, asyncio.Event] = {}

    async def ask(self, state: State, name: str, *, ttl: float = 30.0) -> None:
        """Start answering ``name`` and return once it is answering or queued."""
        settled = asyncio.Event()
        self._done[name] = asyncio.Event()

        async def queued(place: int) -> None:
            self.log.append(f"{name} queued #{place}")
            settled.set()

        async def answer() -> None:
            async with state.lease(self.key, ttl=ttl, on_wait=queued):
                self.log.append(f"{name} answering")
                settled.set()
                await self._done[name].wait()
                self.log.append(f"{name} done")

        self.tasks.append(asyncio.create_task(answer()))
        await settled.wait()

    def __enter__(self) -> Thread:
        return self

    def __exit__(self, *exc_info: object) -> None:
        for task in self.tasks:
            task.cancel()

    def finish(self, name: str) -> None:
        self._done[name].set()

    async def all_done(self) -> None:
        await asyncio.gather(*self.tasks)


IN_ARRIVAL_ORDER = [
    "A answering",
    "B queued #1",
    "C queued #2",
    "A done",
    "B answering",
    "B done",
    "C answering",
    "C done",
]
"""A, B and C asked in one thread, in that order: one answers, the others wait their turn."""


async def test_three_questions_are_answered_in_arrival_order(state: State) -> None:
    with Thread() as thread:
        for name in ("A", "B", "C"):
            await thread.ask(state, name)
        for name in ("A", "B", "C"):
            thread.finish(name)
        await thread.all_done()
    assert thread.log == IN_ARRIVAL_ORDER


@shared_backends
async def test_questions_through_different_workers_share_one_queue(
    open_states: Callable[[], State],
) -> None:
    one, two = open_states(), open_states()
    with Thread() as thread:
        await thread.ask(one, "A")
        await thread.ask(two, "B")
        await thread.ask(one, "C")
        thread.finish("A")
        thread.finish("B")
        thread.finish("C")
        await thread.all_done()
    assert thread.log == IN_ARRIVAL_ORDER


async def test_other_threads_do_not_wait(state: State) -> None:
    with Thread("T1") as first, Thread("T2") as second:
        await first.ask(state, "A")
        await second.ask(state, "B")
        assert second.log == ["B answering"]
        first.finish("A")
        second.finish("B")
        await first.all_done()
        await second.all_done()


async def test_a_question_that_gives_up_waiting_leaves_the_queue(state: State) -> None:
    with Thread() as thread:
        await thread.ask(state, "A")
        await thread.ask(state, "B")
        await thread.ask(state, "C")
        thread.tasks[1].cancel()
        thread.finish("A")
        thread.finish("C")
        await asyncio.gather(*thread.tasks, return_exceptions=True)
    assert thread.tasks[1].cancelled()
    assert thread.log == [
        "A answering",
        "B queued #1",
        "C queued #2",
        "A done",
        "C answering",
        "C done",
    ]


async def test_a_failed_answer_frees_the_thread(state: State) -> None:
    with pytest.raises(RuntimeError):
        async with state.lease("T1"):
            raise RuntimeError("upstream down")
    async with asyncio.timeout(PATIENCE), state.lease("T1"):
        pass


async def test_a_long_answer_keeps_its_lease_past_the_ttl(state: State) -> None:
    with Thread() as thread:
        await thread.ask(state, "A", ttl=1.0)
        await thread.ask(state, "B", ttl=1.0)
        await asyncio.sleep(1.5)  # the holder renews (each third of its ttl); B still waits
        thread.finish("A")
        thread.finish("B")
        await thread.all_done()
    assert thread.log == ["A answering", "B queued #1", "A done", "B answering", "B done"]


async def test_a_dead_workers_lease_passes_on_after_its_ttl(state: State) -> None:
    # A worker killed mid-answer never leaves and never renews: its place in the queue is all
    # that remains of it.
    assert isinstance(state, StateBase)  # every backend keeps its queue through StateBase
    await state._claim("T1", "killed-worker", 0.3)
    with Thread() as thread:
        await thread.ask(state, "B")
        thread.finish("B")
        async with asyncio.timeout(PATIENCE):
            await thread.all_done()
    assert thread.log == ["B queued #1", "B answering", "B done"]
