"""``/citebot report``: what was asked in this server, for its admins.

Admitted as ``/citebot settings`` is (:mod:`integrations.discord.admins`: Manage Server,
checked by the worker; anyone else is refused in their language and shown nothing), deferred
privately at once (a report over many answers can take seconds to read), then shown in the
admin's language as one embed (:mod:`integrations.discord.report_view`) from the kit's neutral
:class:`~bot.ops.report.Report` of the whole server, whichever channel it is asked in.
"""

from __future__ import annotations

import logging
import time

import discord

from bot.adapter import StateUnavailable, Venue, reported_since
from integrations.discord.admins import Admin, AdminCommand, place_names, plain
from integrations.discord.report_view import report_embed

__all__ = ["ServerReport"]

log = logging.getLogger(__name__)


class ServerReport(AdminCommand):
    async def report(self, interaction: discord.Interaction, period: str) -> None:
        """``period``: ``today`` (the UTC day), ``7d`` or ``30d``."""

        async def act(admin: Admin) -> None:
            await self._report(interaction, admin, period)

        await self._admit(interaction, act, duty="report")

    async def _report(self, interaction: discord.Interaction, admin: Admin, period: str) -> None:
        await self._defer(interaction)
        server = admin.here.place.server
        words = admin.words
        try:
            report = await self._kit.report(
                Venue(server=server), reported_since(period, time.time())
            )
        except StateUnavailable:
            await self._show(interaction, plain(words.could_not_read_report()))
            return
        names = place_names(interaction, words)
        embed = report_embed(
            report,
            server=names(f"discord:{server}"),
            place=names,
            wording=words,
            kept=self._kit.settings.answer_log,
        )
        await self._show(interaction, {"embeds": [embed]})
        log.info("report of %s (%s) shown to %s", server, period, interaction.user.id)
