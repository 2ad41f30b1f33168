"""How often an answer may write to a platform.

Platforms throttle per message and per channel (Discord: about 5 writes per 5 s per channel,
edits included), so an answer writes at most every ``min_interval`` seconds and all answers in
a channel share one :class:`ChannelBudget`. Waiting writes are never queued: the flow coalesces
and shows the latest text when its turn comes.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict, deque
from dataclasses import dataclass

__all__ = ["ChannelBudget", "Pacer"]


class ChannelBudget:
    """At most ``writes`` writes per ``per_seconds`` in each channel, shared across answers.

    A caller reserves its slot at once (first come, first served) and sleeps until it; no lock
    is held, so one budget serves every event loop that uses it.
    """

    def __init__(self, *, writes: int, per_seconds: float) -> None:
        if writes < 1 or per_seconds <= 0:
            raise ValueError("a budget needs at least one write per positive period")
        self.writes = writes
        self.per_seconds = per_seconds
        self._slots: defaultdict[str, deque[float]] = defaultdict(deque)

    async def acquire(self, key: str) -> None:
        """Wait for a write slot in channel ``key`` and take it."""
        slots = self._slots[key]
        now = time.monotonic()
        while slots and now - slots[0] >= self.per_seconds:
            slots.popleft()
        at = now if len(slots) < self.writes else slots[-self.writes] + self.per_seconds
        slots.append(max(at, slots[-1]) if slots else at)
        if slots[-1] > now:
            await asyncio.sleep(slots[-1] - now)


@dataclass(frozen=True, slots=True, kw_only=True)
class Pacer:
    """The pacing of one platform: per-answer spacing plus the shared per-channel budget."""

    min_interval: float = 1.0
    budget: ChannelBudget | None = None
