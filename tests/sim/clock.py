"""A simulator's clock and the waiting on it, shared by the simulators whose time matters
(Telegram's callback queries and drafts, Teams' streams and tokens; both's rate windows): real
time that :meth:`SimClock.advance` moves on without a test sleeping, or, ``frozen``, only what
it adds, so that what is "too soon" is the test's to say and never the machine's load."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from tests.patience import PATIENCE

__all__ = ["SimClock"]


class SimClock:
    def __init__(self, *, frozen: bool = False) -> None:
        self._skew = 0.0
        self._frozen = (time.monotonic(), time.time()) if frozen else None
        self._changed = asyncio.Event()

    def now(self) -> float:
        """Monotonic seconds by the simulator's clock."""
        return (self._frozen[0] if self._frozen else time.monotonic()) + self._skew

    def wall(self) -> float:
        """Unix time by the simulator's clock."""
        return (self._frozen[1] if self._frozen else time.time()) + self._skew

    def advance(self, seconds: float) -> None:
        """Move the clock on: whatever ages by it ages, without the test sleeping."""
        self._skew += seconds
        self.touch()

    def touch(self) -> None:
        """Wake whoever waits in :meth:`until`."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def until(self, predicate: Callable[[], object], *, within: float = PATIENCE) -> None:
        """Wait until ``predicate()`` holds, re-checked whenever the simulator changes (and
        every 50 ms, for what only time changes)."""
        async with asyncio.timeout(within):
            while not predicate():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), 0.05)
