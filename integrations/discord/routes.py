"""The routes an answer's writes take on Discord, and the buckets each counts in.

An answer writes through its interaction's webhook while the token lives (15 minutes), else
through the bot token on its channel. Discord counts a webhook's writes per token, bot-token
messages per channel, threads started per parent channel (observed limits, docs/rate-limits.md):
:data:`DISCORD_LIMITS` in the core's write budget, shared by the workers on one Redis.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.adapter import Limit, Window, WriteBudget

__all__ = [
    "DISCORD_LIMITS",
    "INVALID_WEBHOOK_TOKEN",
    "TOKEN_MARGIN",
    "TOKEN_TTL",
    "TOO_MANY_FOLLOWUPS",
    "Dropped",
    "InteractionToken",
    "channel",
    "pace",
    "threads",
    "webhook",
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


DISCORD_LIMITS: Mapping[str, Limit] = {
    # Per interaction token, so per answer (Discord: 5 per 2 s): its followups and edits, at
    # most one a second on average, which the answer's 1-s pacing fits in whole, so only a
    # flush that adds a message (two calls) ever waits. One answer's: never on Redis. No
    # margin: Discord's own window is less than half as long (a margin would cost every
    # answer an edit in five).
    "webhook": Limit(5, 5.0, margin=0.0, shared=False),
    # Per channel (Discord: 5 per 5 s): bot-token messages and edits; the fifth call is the
    # margin.
    "channel": Limit(4, 5.0, margin=0.0),
    # Per parent channel (Discord: 10 per 10 s, a window that starts at its first call): threads
    # started on messages. A second's margin: under load a create reaches Discord up to a
    # second after its slot, and a window counted from Discord's first arrival then holds one
    # too many.
    "threads": Limit(9, 10.0, margin=1.0),
    # Per identify bucket (shard id % max_concurrency): one a 5 s.
    "identify": Limit(1, 5.0),
}
"""Discord's buckets as the bot keeps to them (observed limits, docs/rate-limits.md)."""


def webhook(token: str) -> Window:
    """An interaction's webhook, by its token."""
    return Window("webhook", token)


def channel(channel_id: object) -> Window:
    return Window("channel", str(channel_id))


def threads(channel_id: object) -> Window:
    return Window("threads", str(channel_id))


class Dropped(Exception):
    """An intermediate write that does not go (its bucket is full): the next carries its text."""


async def pace(budget: WriteBudget, window: Window, *, final: bool) -> None:
    """Take a slot in ``window``; an intermediate write does not wait for one."""
    if not await budget.take(window, final=final):
        raise Dropped
