"""Slack events in: the slack-bolt AsyncApp, its features, and the messages that are
questions.

It builds each feature from one :class:`~integrations.slack.context.Context` (the kit, the Web
API client, the members and their locales, who citebot is) and the few features it uses, and
registers their listeners, as aiogram's dispatcher registers its routers: the settings page
(:mod:`.admin`), the report and the own answers in it (:mod:`.report`, :mod:`.answers`),
forgetting (:mod:`.forgetting`), the 👍/👎 and why (:mod:`.feedback`), "Ask the sources" and
"Ask a person" (:mod:`.buttons`), "Check with sources" (:mod:`.check`), the agent view's
greeting, titles and prompts (:mod:`.agent`). Mentions, DMs, replies in citebot's threads
and new posts where a channel asks for every one (:mod:`.questions`) become an
:class:`~bot.adapter.Arrival` for the kit, whose steps run as a task once Bolt has
acknowledged the event; one answer's flow is :mod:`.answering`'s. Each asker reads citebot's
own words (status, notices, cards, buttons) in their Slack locale (:class:`UserLocales`).

Every way in is claimed by its Slack id and passes the kit's fence (a channel of the
allowlist, or a DM: a thread is in its channel, since Slack's threads have no id of their own).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.authorization import AuthorizeResult
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from bot.adapter import Admitted, Arrival, Heard, Kit
from integrations.slack.admin import SettingsPages
from integrations.slack.agent import AgentView
from integrations.slack.answering import Answers, Asked, optional
from integrations.slack.answers import OwnAnswersPage
from integrations.slack.buttons import AnswerButtons
from integrations.slack.check import ClaimChecks
from integrations.slack.context import Context, Me, action_key
from integrations.slack.conversation import question_text
from integrations.slack.feedback import Feedback
from integrations.slack.forgetting import Forgetting
from integrations.slack.locales import UserLocales
from integrations.slack.members import Members
from integrations.slack.questions import ThreadOwners, mentions_anyone
from integrations.slack.report import Reports
from integrations.slack.sink import NativeStreams

__all__ = ["SlackBot"]

log = logging.getLogger(__name__)

RELATED_ACTION = re.compile(r"^citebot_related_\d+$")
PEOPLE_SUBTYPES = frozenset({"file_share", "thread_broadcast"})
"""Message subtypes a person sends; every other subtype (edits, deletions, bots) is not one."""


class SlackBot:
    """One workspace's listeners; :meth:`start` learns who the bot is (and checks the token).
    ``admin_users`` may change citebot's settings besides the workspace's admins and owners."""

    def __init__(
        self,
        *,
        web: AsyncWebClient,
        kit: Kit,
        streams: NativeStreams | None = None,
        update_interval: float = 1.0,
        admin_users: tuple[str, ...] = (),
    ) -> None:
        self.web = web
        self.kit = kit
        self.me = Me()
        self.context = Context(
            kit=kit,
            web=web,
            locales=UserLocales(web, kept=kit.kept("locale")),
            members=Members(web, admin_users=admin_users),
            me=self.me,
        )
        self.owners = ThreadOwners(web, self.me)
        self.agent = AgentView(self.context)
        self.answers = Answers(
            self.context, agent=self.agent, streams=streams, update_interval=update_interval
        )
        forgetting = Forgetting(self.context)
        self.pages = SettingsPages(self.context, reports=Reports(kit), forgetting=forgetting)
        self._features = (
            self.pages,
            forgetting,
            Feedback(self.context),
            AnswerButtons(self.context, answers=self.answers),
            OwnAnswersPage(self.context, pages=self.pages),
            ClaimChecks(self.context, answers=self.answers),
        )
        self._identity: AsyncSlackResponse | None = None

    @property
    def bot_user_id(self) -> str:
        return self.me.user_id

    async def start(self) -> None:
        """Ask who the bot is, once: every event's authorization reuses it (:meth:`app`)."""
        identity = self._identity = await self.web.auth_test()
        self.me.user_id = str(identity["user_id"])
        self.me.bot_id = str(identity.get("bot_id") or "")
        self.me.name = str(identity.get("user") or self.me.name)

    def app(self, *, signing_secret: str | None = None) -> AsyncApp:
        """The Bolt app of this workspace's listeners. Bolt's single-team authorization keeps
        ``auth.test``'s answer only once its first call returns, so a burst of events asked
        it once each (101 calls for 50 mentions): each event is authorized with the identity
        :meth:`start` asked for instead. Bolt's own client is then given no token (it is the
        one each event's authorization hands it); every call citebot makes is :attr:`web`'s."""
        app = AsyncApp(
            client=AsyncWebClient(
                base_url=self.web.base_url, session=self.web.session, timeout=self.web.timeout
            ),
            authorize=self._authorizer(),
            signing_secret=signing_secret or "",
            request_verification_enabled=signing_secret is not None,
        )
        app.event("app_mention")(self._on_mention)
        app.event("message")(self._on_message)
        app.event("app_home_opened")(self._on_home_opened)
        app.action(RELATED_ACTION)(self._on_related)
        for feature in self._features:
            feature.register(app)
        return app

    def _authorizer(self) -> Callable[..., Awaitable[AuthorizeResult]]:
        """Every event's authorization, as Bolt's single-team one writes it, from the identity
        asked once (:meth:`start`); a function, since Bolt passes what its parameters name."""
        identity = self._identity
        assert identity is not None, "start() first"
        token, scopes = self.web.token, identity.headers.get("x-oauth-scopes")

        async def authorize(user_id: str | None) -> AuthorizeResult:
            found = AuthorizeResult.from_auth_test_response(
                bot_token=token, bot_scopes=scopes, auth_test_response=identity
            )
            found["user_id"] = found.user_id = user_id
            return found

        return authorize

    # -- listeners ------------------------------------------------------------------------------
    def _not_a_person(self, event: dict[str, Any]) -> bool:
        """Edits, deletions, other apps and the bot itself write no questions."""
        subtype = event.get("subtype")
        if (
            (subtype and subtype not in PEOPLE_SUBTYPES)
            or event.get("bot_id")
            or event.get("edited")
        ):
            return True
        return not event.get("user") or event.get("user") == self.me.user_id

    async def _on_mention(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        if not self._not_a_person(event):
            await self._take(body, event, Heard.MENTION)

    async def _on_message(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        """A DM, or a message that names nobody: a reply in a thread (a follow-up where the
        thread is citebot's) or a new post."""
        if self._not_a_person(event):
            return
        if event.get("channel_type") == "im":
            await self._take(body, event, Heard.DIRECT)
            return
        if mentions_anyone(str(event.get("text", ""))):
            return  # citebot's mention is the app_mention event's; anyone else's is theirs
        thread_ts = event.get("thread_ts")
        if thread_ts is None:
            await self._take(body, event, Heard.POST)
        elif thread_ts != event["ts"]:
            await self._take(body, event, Heard.REPLY)

    async def _take(self, body: dict[str, Any], event: dict[str, Any], heard: Heard) -> None:
        """A person's message through the kit's steps, answered in its thread."""
        channel, ts = str(event["channel"]), str(event["ts"])
        thread_ts = event.get("thread_ts")
        user = str(event["user"])
        asked = Asked(
            text=question_text(str(event.get("text", "")), bot_user_id=self.me.user_id),
            team=event.get("team") or body.get("team_id"),
            channel=channel,
            user=user,
            thread_ts=str(thread_ts or ts),
            follow_up_before=ts if thread_ts else None,
            direct=heard is Heard.DIRECT,
        )

        async def ours() -> bool:
            return bool(await optional(self.owners.ours(channel, str(thread_ts)), "owner"))

        arrival = self.context.arrival(
            f"event:{body.get('event_id')}",
            f"message:{channel}:{ts}",
            user=user,
            team=asked.team,
            channel=channel,
            heard=heard,
            confirm=ours if heard is Heard.REPLY else None,
        )
        await self._ask(arrival, asked)

    async def _on_home_opened(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        if event.get("tab") == "messages":
            await optional(self.agent.greet(body, event), "the greeting")
        else:
            await optional(self.pages.on_home_opened(body, event), "the Home tab")

    async def _on_related(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        container = body.get("container", {})
        channel = str(container.get("channel_id"))
        user = str(body["user"]["id"])
        asked = Asked(
            text=str(action.get("value", "")),
            team=body.get("user", {}).get("team_id"),
            channel=channel,
            user=user,
            thread_ts=str(container.get("thread_ts") or container.get("message_ts")),
            follow_up_before="",
            direct=channel.startswith("D"),
        )
        key = action_key(body, action)
        await self._ask(
            self.context.arrival(key, user=user, team=asked.team, channel=channel), asked
        )

    async def _ask(self, arrival: Arrival, asked: Asked) -> None:
        """Through the kit's steps, as a task (Bolt has acknowledged the event): the answer in
        the thread, or a refusal there."""

        async def answer(admitted: Admitted) -> None:
            await self.answers.answer(asked, admitted)

        async def refuse(words: str) -> None:
            await self.answers.refuse(asked, words)

        await self.kit.take(arrival, answer, refuse=refuse, spawn=True)
