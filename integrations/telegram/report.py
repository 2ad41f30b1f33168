"""``/report``: what was asked in this group and how it went, for its administrators.

Admitted as ``/settings`` is (:mod:`.admins`, at each command and each press: anyone else is
refused in their language and shown nothing), then shown in the admin's language as one
message (:mod:`.report_view`) from the kit's neutral :class:`~bot.ops.report.Report` of the
group, for today (UTC), the last 7 days (the default) or the last 30: an argument
(``/report 30d``) or the buttons under it, which show the report again in its place.
"""

from __future__ import annotations

import logging
import time

from aiogram.types import CallbackQuery, Message, Update, User

from bot.adapter import PERIODS, Admitted, StateUnavailable, reported_since
from bot.i18n.wording import Wording
from integrations.telegram.admins import AdminCommand
from integrations.telegram.chatting import answer_press, chat_of, fence, reply, show
from integrations.telegram.markdown import TelegramHTML
from integrations.telegram.report_view import PERIOD, period_buttons, report_text

__all__ = ["GroupReport"]

log = logging.getLogger(__name__)

_HTML = TelegramHTML()
_READ_AS = {"7": "7d", "30": "30d", "": "7d"}


class GroupReport(AdminCommand):
    duty = "report"

    async def command(self, update: Update, message: Message, rest: str) -> None:
        """``/report [today|7d|30d]``."""
        user = message.from_user
        assert user is not None
        written = rest.strip().lower()
        period = _READ_AS.get(written, written)

        async def act(admitted: Admitted) -> None:
            if period not in PERIODS:
                said = admitted.words.setting_one_of("/report", PERIODS, repr(rest.strip()))
                await self._say(message, said)
                return
            text, buttons = await self._report(message, admitted.words, period, user)
            await reply(self._api, message, text, buttons=buttons)

        await self._admit(update, message, user, act, lambda words: self._say(message, words))

    async def pressed(self, update: Update, query: CallbackQuery, message: Message) -> None:
        """A period's button under a report: the report of that period in its place."""
        period = (query.data or "").removeprefix(PERIOD)

        async def act(admitted: Admitted) -> None:
            if period not in PERIODS:
                await answer_press(self._api, query, alert=True)
                return
            await answer_press(self._api, query)
            text, buttons = await self._report(message, admitted.words, period, query.from_user)
            await show(self._api, message, text, buttons=buttons)

        async def refuse(words: str) -> None:
            await answer_press(self._api, query, words, alert=True)

        await self._admit(update, message, query.from_user, act, refuse)

    async def _report(
        self, message: Message, words: Wording, period: str, user: User
    ) -> tuple[str, dict[str, object] | None]:
        try:
            report = await self._kit.report(
                fence(chat_of(message)), reported_since(period, time.time())
            )
        except StateUnavailable:
            return _HTML.escape(words.could_not_read_report(), line_start=True), None
        text = report_text(
            report,
            group=message.chat.title or str(message.chat.id),
            wording=words,
            kept=self._kit.settings.answer_log,
        )
        log.info("report of %s (%s) shown to %s", message.chat.id, period, user.id)
        return text, period_buttons(period, words)
