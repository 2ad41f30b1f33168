"""Closing a Discord answer whose worker died: its hook for the core's closer (:mod:`bot.orphans`).

The note follows what the person last saw, through the routes and buckets the answer's own
writes use: a followup on the interaction's webhook while its token lives (the first followup
also resolves a deferred "is thinking…" response), else a bot-token message in the channel,
replying to the answer (not where the bot is no member: a user's install elsewhere). Nothing
is edited: the record may be a second old, and an edit could hide text the person already read.
"""

from __future__ import annotations

import logging

import discord

from bot.adapter import Note, Whereabouts, WriteBudget
from integrations.discord.routes import (
    INVALID_WEBHOOK_TOKEN,
    TOO_MANY_FOLLOWUPS,
    channel,
    webhook,
)
from integrations.discord.wire import DiscordWire, message_body

__all__ = ["DiscordOrphans"]

log = logging.getLogger(__name__)


class DiscordOrphans:
    """The :class:`~bot.orphans.OrphanHook` of one bot's answers."""

    def __init__(self, *, wire: DiscordWire, budget: WriteBudget) -> None:
        self._wire = wire
        self._budget = budget

    async def close(self, where: Whereabouts, note: Note) -> None:
        body = message_body(note.notice, ephemeral=where.private)
        if where.secret is not None and where.via is not None:
            await self._budget.acquire(webhook(where.secret))
            try:
                await self._wire.followup(int(where.via), where.secret, body)
                return
            except discord.HTTPException as error:
                if error.code not in (INVALID_WEBHOOK_TOKEN, TOO_MANY_FOLLOWUPS):
                    raise
        if where.private or not where.bot_present:
            log.info("an interrupted answer's token expired (private, or no bot there): no note")
            return
        shown = [m for m in where.messages if m is not None]
        anchor = shown[-1] if shown else where.question
        if anchor is not None:
            body = {
                **body,
                "message_reference": {"message_id": anchor, "fail_if_not_exists": False},
            }
        await self._budget.acquire(channel(where.conversation))
        await self._wire.create_message(int(where.conversation), body)
