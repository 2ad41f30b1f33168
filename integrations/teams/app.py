"""Teams' activities in: ``POST /api/messages``, checked, read with the Teams SDK's models and
handed to the feature that takes them.

Every activity's Bot Framework token is checked first (:class:`~.auth.ActivityTokens`): one
without a valid token gets 401 and nothing else happens; when the signing keys cannot be read
it gets 503 and Teams delivers it again. A message is acknowledged at once and taken in a task
the worker drains (Teams wants an answer within 15 seconds, an answer takes longer): a
question (:mod:`.questions`: a personal chat's message, a mention in a channel or a group
chat, a reply in a thread citebot answers, a post where the place answers every one) through
the kit's steps to :mod:`.answering`; a command (``settings``, ``report``, ``forget-me``,
``help``) to its feature; a press of one of citebot's buttons (a related question, "Ask the
sources", "Ask a person", a settings card's Save, a report's period, forget-me's button) to
the feature that drew it. An invoke is answered with what it asks for: the feedback form's
``message/submitAction`` empty once the vote is kept (:mod:`.feedback`), "Check with
sources"'s ``composeExtension/fetchTask`` with its short message (:mod:`.check`). The bot
removed from a team or a group chat forgets it (:mod:`.forgetting`). Anything else is
acknowledged and left alone.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from aiohttp import web
from microsoft_teams.api.activities import (
    Activity,
    ActivityTypeAdapter,
    ConversationUpdateActivity,
    MessageActivity,
    MessageSubmitActionInvokeActivity,
    UninstalledActivity,
)
from microsoft_teams.api.activities.invoke.message_extension import (
    MessageExtensionFetchTaskInvokeActivity,
)
from pydantic import ValidationError

from bot.adapter import FORGET_RETRIES, Admitted, Heard, Kit, Say
from integrations.teams import cards
from integrations.teams.admin import SettingsAdmin
from integrations.teams.admin_view import ANSWERS, SETTINGS
from integrations.teams.admins import Admins
from integrations.teams.answering import Answering
from integrations.teams.auth import ActivityTokens, KeysUnavailable, Unauthorized
from integrations.teams.buttons import AnswerButtons
from integrations.teams.chatting import Chat
from integrations.teams.check import ClaimCheck
from integrations.teams.feedback import Feedback
from integrations.teams.forgetting import FORGET, Forgetting
from integrations.teams.limits import STREAM_INTERVAL
from integrations.teams.place import Conversation, arrival, conversation_of
from integrations.teams.questions import Asked, asked, pressed
from integrations.teams.report import Reports
from integrations.teams.report_view import REPORT
from integrations.teams.sink import Pace
from integrations.teams.wire import TeamsWire

__all__ = ["TeamsBot"]

log = logging.getLogger(__name__)


class TeamsBot:
    """One bot's ways in; :meth:`handle` is its ``/api/messages``. ``checker`` None: activities
    are taken unsigned (``TEAMS_AUTH=off``)."""

    def __init__(
        self,
        *,
        kit: Kit,
        wire: TeamsWire,
        pace: Pace,
        checker: ActivityTokens | None,
        graph: bool,
        stream_interval: float = STREAM_INTERVAL,
        retries: Sequence[float] = FORGET_RETRIES,
    ) -> None:
        self.kit = kit
        self._checker = checker
        chat = Chat(wire=wire, pace=pace)
        self.chat = chat
        self.answering = Answering(kit=kit, chat=chat, stream_interval=stream_interval)
        admins = Admins(wire, graph=graph)
        self.settings = SettingsAdmin(kit=kit, chat=chat, admins=admins)
        self.reports = Reports(kit=kit, chat=chat, admins=admins)
        self.forgetting = Forgetting(kit=kit, chat=chat, retries=retries)
        self.feedback = Feedback(kit=kit)
        self.check = ClaimCheck(kit=kit, chat=chat, answering=self.answering)
        self.buttons = AnswerButtons(kit=kit, chat=chat, admins=admins, answering=self.answering)

    async def handle(self, request: web.Request) -> web.Response:
        """One activity Teams posted: checked, then taken (see the module's docstring)."""
        try:
            body = json.loads(await request.read())
        except ValueError:
            return web.Response(status=400)
        if not isinstance(body, dict):
            return web.Response(status=400)
        if self._checker is not None:
            try:
                await self._checker.check(request.headers.get("Authorization"), body)
            except Unauthorized as refused:
                log.warning("Teams: an activity refused, its token does not hold (%s)", refused)
                return web.Response(status=401)
            except KeysUnavailable:
                return web.Response(status=503, headers={"Retry-After": "5"})
        try:
            activity = ActivityTypeAdapter.validate_python(body)
        except ValidationError:
            log.info("Teams: an activity citebot does not take (%s)", str(body.get("type"))[:40])
            return web.Response(status=200)
        return await self._take(activity)

    async def _take(self, activity: Activity) -> web.Response:
        if isinstance(activity, MessageActivity):
            self.kit.spawn(self._message(activity))
        elif isinstance(activity, MessageSubmitActionInvokeActivity):
            await self.feedback.submitted(activity)
        elif isinstance(activity, MessageExtensionFetchTaskInvokeActivity):
            return web.json_response(await self.check.fetched(activity))
        elif isinstance(activity, ConversationUpdateActivity | UninstalledActivity):
            self.kit.spawn(self.forgetting.removed(activity))
        return web.Response(status=200)

    # -- messages -----------------------------------------------------------------------------
    async def _message(self, activity: MessageActivity) -> None:
        where = conversation_of(activity)
        value = pressed(activity)
        if value is not None:
            await self._pressed(activity, where, value)
            return
        wanted = asked(activity, where)
        if wanted is None:
            return
        if wanted.kind == "command":
            await self._command(activity, where, wanted)
        else:
            await self._question(activity, where, wanted.text, wanted.heard)

    async def _command(self, activity: MessageActivity, where: Conversation, wanted: Asked) -> None:
        if wanted.command == "settings":
            await self.settings.command(activity, where, wanted.text)
        elif wanted.command == "report":
            await self.reports.command(activity, where, wanted.text)
        elif wanted.command == "forget-me":
            await self.forgetting.command(activity, where)
        else:  # help

            async def act(admitted: Admitted) -> None:
                await self.chat.say(where, admitted.words.mention_help())

            await self.kit.take(arrival(activity), act, gate="everyone")

    async def _question(
        self, activity: MessageActivity, where: Conversation, text: str, heard: Heard
    ) -> None:
        """A question through the kit's steps: answered where it was asked, or refused there
        (where it named citebot)."""
        person = activity.from_

        async def answer(admitted: Admitted) -> None:
            await self.answering.ask(
                text, where=where, person=person, admitted=admitted, locale=activity.locale
            )

        async def refuse(words: str) -> None:
            await self.answering.refuse(where, person, words)

        async def ours() -> bool:
            return await self.answering.answers_in(where)

        came = arrival(activity, heard)
        if heard is Heard.REPLY:
            came = replace(came, confirm=ours)
        await self.kit.take(came, answer, refuse=refuse)

    async def _pressed(
        self, activity: MessageActivity, where: Conversation, value: dict[str, Any]
    ) -> None:
        """One of citebot's buttons, to the feature that drew it."""
        kind = value["citebot"]
        if kind == cards.RELATED and isinstance(value.get("question"), str):
            await self._question(activity, where, value["question"], Heard.MENTION)
        elif kind == cards.ACTION:

            async def act(admitted: Admitted) -> None:
                await self.buttons.pressed(activity, where, value, admitted)

            await self.kit.take(arrival(activity), act, refuse=self._saying(where))
        elif kind == SETTINGS:
            await self.settings.saved(activity, where, value)
        elif kind == ANSWERS:
            await self.settings.answers(activity, where, value)
        elif kind == REPORT:
            await self.reports.pressed(activity, where, value)
        elif kind == FORGET:
            await self.forgetting.pressed(activity, where, value)

    def _saying(self, where: Conversation) -> Say:
        async def say(words: str) -> None:
            await self.chat.say(where, words)

        return say
