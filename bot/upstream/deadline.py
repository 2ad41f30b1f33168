"""One answer's wall-clock deadline, checked on every read at almost no cost.

``asyncio.timeout_at`` around each read would do, but it schedules and cancels a timer each
time (3.8 µs a read under uvloop, three times the parsing of the event): with hundreds of
answers at 50 tokens a second, that is a few percent of a worker's CPU for a deadline that
almost never fires. Here one timer per attempt does: when it fires during a read, it cancels
the reading task the way ``asyncio.timeout`` does (and tells its own cancellation from anyone
else's with ``uncancel``); when it fires between reads, the next read raises at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

__all__ = ["Deadline", "DeadlinePassed"]

T = TypeVar("T")


class DeadlinePassed(Exception):
    """The deadline passed before (or while) waiting."""


class Deadline:
    """Created in the task that waits, at the event loop's time ``when``; close it after."""

    def __init__(self, when: float) -> None:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("a Deadline belongs to a task")
        self._task = task
        self._waiting = False
        self._passed = False
        self._handle = loop.call_at(when, self._fire)

    def _fire(self) -> None:
        self._passed = True
        if self._waiting:
            self._task.cancel()

    async def wait(self, awaitable: Awaitable[T]) -> T:
        """``await awaitable``, unless the deadline passes first (:class:`DeadlinePassed`)."""
        if self._passed:
            if asyncio.iscoroutine(awaitable):
                awaitable.close()
            raise DeadlinePassed
        self._waiting = True
        try:
            return await awaitable
        except asyncio.CancelledError:
            if self._passed and self._task.uncancel() == 0:
                raise DeadlinePassed from None
            raise
        finally:
            self._waiting = False

    def close(self) -> None:
        self._handle.cancel()
