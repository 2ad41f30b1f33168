"""The routes an answer's writes take on Discord, and the buckets each counts in.

An answer writes through its interaction's webhook while the token lives (15 minutes), else
through the bot token on its channel. Discord counts a webhook's writes per token, bot-token
messages per channel, threads started per parent channel (observed limits, docs/rate-limits.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.adapter import RateBudget

__all__ = [
    "INVALID_WEBHOOK_TOKEN",
    "TOKEN_MARGIN",
    "TOKEN_TTL",
    "TOO_MANY_FOLLOWUPS",
    "Dropped",
    "InteractionToken",
    "RouteBudgets",
    "pace",
]

TOKEN_TTL = 15 * 60.0
TOKEN_MARGIN = 30.0
INVALID_WEBHOOK_TOKEN = 50027
TOO_MANY_FOLLOWUPS = 40094
"""A followup past the five an interaction may send where only a user's install reaches."""


@dataclass(frozen=True, slots=True, kw_only=True)
class InteractionToken:
    """What an interaction response needs: its webhook (app id + token) and when it was issued."""

    application_id: int
    token: str
    issued_at: float
    original_id: int | None = None


class Dropped(Exception):
    """An intermediate write that does not go (its bucket is full): the next carries its text."""


class RouteBudgets:
    """Discord's buckets as one bot process keeps to them, each a write under its limit."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.webhook = RateBudget(calls=5, per_seconds=5.0, clock=clock)
        """Per interaction token, so per answer (Discord: 5 per 2 s): its followups and edits,
        at most one a second on average, which the answer's 1-s pacing fits in whole, so only
        a flush that adds a message (two calls) ever waits."""
        self.channel = RateBudget(calls=4, per_seconds=5.0, clock=clock)
        """Per channel (Discord: 5 per 5 s): bot-token messages and edits."""
        self.threads = RateBudget(calls=9, per_seconds=10.0, clock=clock)
        """Per parent channel (Discord: 10 per 10 s): threads started on messages."""


async def pace(budget: RateBudget, key: object, *, final: bool) -> None:
    """Take a slot in ``key``'s bucket; an intermediate write does not wait for one."""
    if not final and budget.delay(str(key)) > 0:
        raise Dropped
    await budget.acquire(str(key))
