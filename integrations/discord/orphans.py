"""Closing a Discord answer whose worker died (:mod:`bot.inflight`).

The note follows what the person last saw, through the routes and buckets the answer's own
writes use: a followup on the interaction's webhook while its token lives (the first followup
also resolves a deferred "is thinking…" response), else a bot-token message in the channel,
replying to the answer (not where the bot is no member: a user's install elsewhere). Nothing
is edited: the record may be a second old, and an edit could hide text the person already read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

import discord

from bot.adapter import Orphan
from bot.i18n.wording import Wording
from bot.render.ports import Presenter
from integrations.discord.routes import INVALID_WEBHOOK_TOKEN, TOO_MANY_FOLLOWUPS, RouteBudgets
from integrations.discord.wire import DiscordWire, message_body

__all__ = ["DiscordOrphans"]

log = logging.getLogger(__name__)


class DiscordOrphans:
    """A :data:`bot.inflight.Closer` for one bot's answers."""

    def __init__(
        self,
        *,
        wire: DiscordWire,
        budgets: RouteBudgets,
        presenter: Presenter,
        wording_for: Callable[[str | None], Wording],
    ) -> None:
        self._wire = wire
        self._budgets = budgets
        self._presenter = presenter
        self._wording_for = wording_for

    async def __call__(self, orphan: Orphan) -> None:
        place = orphan.place
        wording = self._wording_for(orphan.language)
        words = wording.interrupted() if place.get("shown") else wording.restarting()
        ephemeral = bool(place.get("ephemeral"))
        body = message_body(self._presenter.notice(words), ephemeral=ephemeral)
        application = place.get("application_id")
        if orphan.secret is not None and application is not None:
            await self._budgets.webhook.acquire(orphan.secret)
            try:
                await self._wire.followup(int(application), orphan.secret, body)
                return
            except discord.HTTPException as error:
                if error.code not in (INVALID_WEBHOOK_TOKEN, TOO_MANY_FOLLOWUPS):
                    raise
        if ephemeral or place.get("bot_member") is False:
            log.info("an interrupted answer's token expired (private, or no bot there): no note")
            return
        await self._post_in_channel(place, body)

    async def _post_in_channel(self, place: Mapping[str, Any], body: dict[str, Any]) -> None:
        channel = int(place["channel_id"])
        shown = [int(m) for m in place.get("messages") or () if m is not None]
        anchor = shown[-1] if shown else place.get("reply_to")
        if anchor is not None:
            body = {
                **body,
                "message_reference": {"message_id": str(anchor), "fail_if_not_exists": False},
            }
        await self._budgets.channel.acquire(str(channel))
        await self._wire.create_message(channel, body)
