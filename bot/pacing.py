"""How often an answer may write to a platform.

An answer writes at most every ``min_interval`` seconds (the flow coalesces: the latest text
wins when its turn comes). Platforms also throttle whole channels or workspaces: Discord about 5
writes per 5 s per channel, Slack so many calls a minute per method per workspace. A
:class:`RateBudget` models one such limit as a sliding window per key, shared by every answer
of the process; the adapters key it by what the platform counts (a channel, a method, an
interaction's token). A key lives only while its window holds a call: one per answer (a token,
a thread) would otherwise stay for the life of the worker.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = ["Pacer", "RateBudget"]


class RateBudget:
    """At most ``calls`` calls in any ``per_seconds`` window, for each key.

    A caller reserves its slot at once (first come, first served) and sleeps until it; no lock
    is held, so one budget serves every event loop that uses it. ``margin`` widens the window
    the budget keeps to, so that calls reserved exactly a window apart still arrive a window
    apart at a server whose clock reads them a little later or earlier.
    """

    def __init__(
        self,
        *,
        calls: int,
        per_seconds: float,
        margin: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if calls < 1 or per_seconds <= 0 or margin < 0:
            raise ValueError("a budget needs at least one call per positive period")
        self.calls = calls
        self.per_seconds = per_seconds
        self.window = per_seconds + margin
        self._clock = clock
        self._slots: dict[str, deque[float]] = {}
        self._next_sweep = clock() + self.window

    @property
    def keys(self) -> int:
        """How many keys hold a call in their window (memory held, for tests and metrics)."""
        return len(self._slots)

    def _live(self, key: str, now: float) -> deque[float]:
        """``key``'s calls still in the window (a new, unstored deque when none)."""
        if now >= self._next_sweep:
            self._sweep(now)
        slots = self._slots.get(key)
        if slots is None:
            return deque()
        while slots and now - slots[0] >= self.window:
            slots.popleft()
        if not slots:
            del self._slots[key]
        return slots

    def _sweep(self, now: float) -> None:
        """Forget every key whose calls all left the window: once a window, so each key costs
        O(1) amortised however many come and go. A new dict, sized for the keys still live (a
        dict never shrinks its table: one busy minute would be held for good)."""
        self._next_sweep = now + self.window
        self._slots = {
            key: slots
            for key, slots in self._slots.items()
            if slots and now - slots[-1] < self.window
        }

    def _next(self, slots: deque[float] | list[float], now: float) -> float:
        at = now if len(slots) < self.calls else slots[-self.calls] + self.window
        return max(at, slots[-1]) if slots else at

    def delay(self, key: str, *, after: int = 0) -> float:
        """Seconds until a slot is free in ``key`` once ``after`` more have been taken
        (0 when one is free now); takes nothing."""
        now = self._clock()
        slots = list(self._live(key, now))
        for _ in range(after):
            slots.append(self._next(slots, now))
        return max(self._next(slots, now) - now, 0.0)

    def next_at(self, key: str) -> float:
        """When (on the clock) the next slot in ``key`` is free; takes nothing."""
        now = self._clock()
        return self._next(list(self._live(key, now)), now)

    def reserve(self, key: str, *, at: float | None = None) -> float:
        """Take the next slot in ``key`` (no sooner than ``at``, on the clock: a write counted
        in several windows takes the same time in each); returns how many seconds from now
        it is."""
        now = self._clock()
        slots = self._live(key, now)
        slots.append(max(self._next(slots, now), now if at is None else at))
        self._slots[key] = slots
        return max(slots[-1] - now, 0.0)

    def adopt(self, key: str, slots: Iterable[float]) -> None:
        """Take ``key``'s slots (clock times) as counted elsewhere: a window several workers
        share, of which this budget keeps the latest copy for :meth:`delay`."""
        self._slots[key] = deque(sorted(slots))

    async def acquire(self, key: str) -> None:
        """Wait for a slot in ``key`` and take it."""
        wait = self.reserve(key)
        if wait > 0:
            await asyncio.sleep(wait)


@dataclass(frozen=True, slots=True, kw_only=True)
class Pacer:
    """The pacing of one answer: writes at least ``min_interval`` seconds apart. The shared
    limits (a channel's, a method's) depend on the route a write takes, so the adapters keep
    those in :class:`RateBudget` s of their own."""

    min_interval: float = 1.0
