"""``report``: what was asked in this team, channel or group chat and how it went, for its
admins.

Admitted as ``settings`` is (:mod:`.admins`, at each command and each press: anyone else is
refused in their language and shown nothing), then shown in the admin's language as one card
(:mod:`.report_view`) from the kit's neutral :class:`~bot.adapter.Report` of the place, for
today (UTC), the last 7 days (the default) or the last 30: an argument (``report 30d``) or the
buttons under it, which show the report again in its place. In a channel the report is the
channel's (``report team``: the team's, its channels together).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from microsoft_teams.api.activities import MessageActivity

from bot.adapter import PERIODS, Admitted, StateUnavailable, Venue, reported_since
from bot.i18n.wording import Wording
from bot.render.ports import Payload
from integrations.teams.admin import AdminCommand
from integrations.teams.chatting import card_message, plain
from integrations.teams.place import Conversation
from integrations.teams.report_view import report_card

__all__ = ["Reports"]

log = logging.getLogger(__name__)

_READ_AS = {"7": "7d", "30": "30d", "": "7d"}


class Reports(AdminCommand):
    duty = "report"

    async def command(self, activity: MessageActivity, where: Conversation, rest: str) -> None:
        """``report [team] [today|7d|30d]``."""
        words_given = rest.strip().lower().split()
        team = "team" in words_given
        written = next((word for word in words_given if word != "team"), "")
        period = _READ_AS.get(written, written)

        async def act(admitted: Admitted) -> None:
            if period not in PERIODS:
                said = admitted.words.setting_one_of("report", PERIODS, repr(written))
                await self._chat.say(where, said)
                return
            shown = await self._report(where, admitted.words, period, team=team)
            await self._chat.say(where, shown)

        await self._admit(activity, where, act)

    async def pressed(
        self, activity: MessageActivity, where: Conversation, value: dict[str, Any]
    ) -> None:
        """A period's button under a report: the report of that period in its place."""
        period = value.get("period")
        team = bool(value.get("team"))

        async def act(admitted: Admitted) -> None:
            if period not in PERIODS:
                return
            shown = await self._report(where, admitted.words, str(period), team=team)
            if activity.reply_to_id:
                await self._chat.replace(where, activity.reply_to_id, shown)
            else:
                await self._chat.say(where, shown)

        await self._admit(activity, where, act)

    async def _report(
        self, where: Conversation, words: Wording, period: str, *, team: bool
    ) -> Payload:
        channel = where.id if where.kind == "channel" and not team else None
        venue = Venue(server=where.server, channel=channel)
        try:
            report = await self._kit.report(venue, reported_since(period, time.time()))
        except StateUnavailable:
            return plain(words.could_not_read_report())
        named = where.id if channel else (where.server or where.id)
        log.info("report of %s (%s) shown", named, period)
        card = report_card(
            report,
            place=named,
            period=period,
            wording=words,
            kept=self._kit.settings.answer_log,
            team=team,
        )
        return card_message(card)
