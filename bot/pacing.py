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
    """At most ``writes`` writes per ``per_seconds`` in each channel, shared across answers."""

    def __init__(self, *, writes: int, per_seconds: float) -> None:
        if writes < 1 or per_seconds <= 0:
            raise ValueError("a budget needs at least one write per positive period")
        self.writes = writes
        self.per_seconds = per_seconds
        self._recent: defaultdict[str, deque[float]] = defaultdict(deque)
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def acquire(self, key: str) -> None:
        """Wait for a write slot in channel ``key`` and take it (first come, first served)."""
        async with self._locks[key]:
            recent = self._recent[key]
            while True:
                now = time.monotonic()
                while recent and now - recent[0] >= self.per_seconds:
                    recent.popleft()
                if len(recent) < self.writes:
                    recent.append(now)
                    return
                await asyncio.sleep(self.per_seconds - (now - recent[0]))


@dataclass(frozen=True, slots=True, kw_only=True)
class Pacer:
    """The pacing of one platform: per-answer spacing plus the shared per-channel budget."""

    min_interval: float = 1.0
    budget: ChannelBudget | None = None
