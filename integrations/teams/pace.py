"""Teams' pace of a bot's writes to one conversation (:data:`~.limits.PER_CONVERSATION`: seven a
second, eight in two, sixty in thirty, 1,800 an hour), kept by every answer in it.

A write that must land (an answer's message, its final update, a settings card) waits for its
slot in every window; one that can be skipped (the typing indicator, a stream's update, an
early edit) goes only when each window has a slot now, and is dropped otherwise, so that the
finals never wait behind the extras and Teams never answers 429. The pace is this worker's: a
conversation's answers run in the worker that took the activity that asked them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from bot.adapter import RateBudget
from integrations.teams.limits import PER_CONVERSATION

__all__ = ["TeamsPace"]


class TeamsPace:
    """``await pace(conversation, final)``: the :data:`~.sink.Pace` every Teams write takes."""

    def __init__(
        self,
        *,
        limits: tuple[tuple[int, float], ...] = PER_CONVERSATION,
        margin: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._windows = [
            RateBudget(calls=calls, per_seconds=seconds, margin=margin, clock=clock)
            for calls, seconds in limits
        ]

    async def __call__(self, conversation: str, final: bool) -> bool:
        """Whether a write to ``conversation`` may go now; a ``final`` one waits for its slot
        in every window and goes."""
        while wait := max(window.delay(conversation) for window in self._windows):
            if not final:
                return False
            await asyncio.sleep(wait)
        for window in self._windows:  # no wait between the look and the taking: no race
            window.reserve(conversation)
        return True
