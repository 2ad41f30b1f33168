"""Teams' pace of a bot's writes to one conversation (:data:`~.limits.PER_CONVERSATION`: seven a
second, eight in two, sixty in thirty, 1,800 an hour), as the core's write budget keeps it
(:class:`~bot.adapter.WriteBudget`) for every answer in the conversation and every worker on
one Redis.

A write that must land (an answer's message, its final update, a settings card) waits for its
slot in every window; one that can be skipped (the typing indicator, a stream's update, an
early edit) goes only when each window has a slot now, and is dropped otherwise, so that the
finals never wait behind the extras and Teams seldom answers 429 (the wire honours its
``Retry-After`` when it does).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.adapter import Limit, Window, WriteBudget
from integrations.teams.limits import PER_CONVERSATION
from integrations.teams.sink import Pace
from integrations.teams.wire import Throttled

__all__ = ["SHORT_MARGIN", "pace_limits", "paced", "throttled", "windows"]


SHORT_MARGIN = 1.0
"""Seconds added to Teams' one- and two-second windows: a slot is taken before the SDK's
client builds and sends the activity, which a busy worker took more than the budget's quarter
second to do, and a write on time then landed inside the window with one sent late (a 429,
two test suites sharing two cores). A conversation still takes seven writes in two seconds."""


def pace_limits() -> dict[str, Limit]:
    """The budget's limits: each of Teams' windows a conversation."""
    return {
        f"{seconds:g}s": Limit(calls, seconds, margin=SHORT_MARGIN if seconds <= 2 else None)
        for calls, seconds in PER_CONVERSATION
    }


def windows(conversation: str) -> tuple[Window, ...]:
    """Every window a write to ``conversation`` counts in."""
    return tuple(Window(name, conversation) for name in pace_limits())


def throttled(budget: WriteBudget, heard: Callable[[], None]) -> Throttled:
    """What a 429 does (:class:`~.wire.TeamsWire`'s ``throttled``): counted (``heard``), and
    the conversation's writes held for as long as Teams asked, in every worker (the writes
    that can be skipped are, the others wait)."""

    async def throttle(conversation: str, seconds: float) -> None:
        heard()
        if conversation:
            await budget.pause(windows(conversation)[0], seconds)

    return throttle


def paced(budget: WriteBudget) -> Pace:
    """The :data:`~.sink.Pace` every Teams write takes, on ``budget``."""

    async def pace(conversation: str, final: bool) -> bool:
        return await budget.take(*windows(conversation), final=final)

    return pace
