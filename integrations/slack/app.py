"""Slack events in, answers out: the slack-bolt AsyncApp and what its listeners do.

Mentions, DMs, replies in citebot's threads and new posts where a channel asks for every one
(:mod:`.questions`) become a :class:`bot.answer.Question` for the platform kit; the answer
streams into the thread through a :class:`SlackSink`. Bolt acknowledges each event before the
listener runs, so listeners only filter and claim the event (once across workers) and hand the
answer to a task the kit tracks, so that shutdown can wait for it. Each asker reads citebot's
own words (status, notices, cards, buttons) in their Slack locale (:class:`UserLocales`). The
settings page (:mod:`.admin`), the 👍/👎 and why (:mod:`.feedback`), "Check with sources"
(:mod:`.claims`) and the agent view's greeting, titles and prompts (:mod:`.agent`) each have
their own module.

Every way in is claimed by its Slack id before anything is done and passes the kit's one
authorization check (a channel of the allowlist, or a DM: a thread is in its channel, since
Slack's threads have no id of their own). While an answer is on its way, the thread shows the
app's status with rotating loading messages (``assistant.threads.setStatus``, in channels too
since 2026-03-05) and no message; only where Slack refuses the status does a placeholder message
hold the answer's place. The answer's disclaimer (the place's, else the catalogue's) goes in a
context block with its feedback buttons. The status, the thread read back, titles and prompts
are niceties: when the network fails them, the question is answered without them.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable
from dataclasses import replace
from typing import Any, TypeVar

from slack_bolt.app.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.answer import Outcome, Question
from bot.i18n.wording import Wording, catalogue_language
from bot.kit import PlatformKit, Venue
from bot.upstream.errors import UpstreamError
from bot.upstream.events import Turn
from integrations.slack.admin import SettingsPages
from integrations.slack.agent import AgentView
from integrations.slack.answers_page import OwnAnswersPage
from integrations.slack.buttons import AnswerButtons
from integrations.slack.claims import ClaimChecks
from integrations.slack.conversation import question_text, thread_turns
from integrations.slack.feedback import Feedback
from integrations.slack.forgetting import Forgetting
from integrations.slack.locales import UserLocales
from integrations.slack.members import Members
from integrations.slack.questions import ThreadOwners, mentions_anyone
from integrations.slack.reporting import Reports
from integrations.slack.sink import NativeStreams, SlackSink

__all__ = ["SlackBot"]

log = logging.getLogger(__name__)

T = TypeVar("T")

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
        kit: PlatformKit,
        streams: NativeStreams | None = None,
        update_interval: float = 1.0,
        admin_users: tuple[str, ...] = (),
    ) -> None:
        self.web = web
        self.locales = UserLocales(web)
        self.members = Members(web, admin_users=admin_users)
        self.owners = ThreadOwners(web)
        self.kit = kit
        self.streams = streams or NativeStreams()
        self.update_interval = update_interval
        self.bot_user_id = ""
        self.bot_id = ""
        self.bot_name = "citebot"
        """How the bot is named in the workspace (``auth.test``'s ``user``): the placeholder
        says "citebot is thinking…" under that name."""
        self.pages = SettingsPages(self)
        self.forgetting = Forgetting(self)
        self.reports = Reports(self)
        self.agent = AgentView(self)

    async def start(self) -> None:
        identity = await self.web.auth_test()
        self.bot_user_id = str(identity["user_id"])
        self.bot_id = str(identity.get("bot_id") or "")
        self.bot_name = str(identity.get("user") or self.bot_name)
        self.owners.bot_user_id, self.owners.bot_id = self.bot_user_id, self.bot_id

    def app(self, *, signing_secret: str | None = None) -> AsyncApp:
        app = AsyncApp(
            client=self.web,
            signing_secret=signing_secret or "",
            request_verification_enabled=signing_secret is not None,
        )
        app.event("app_mention")(self._on_mention)
        app.event("message")(self._on_message)
        app.event("app_home_opened")(self._on_home_opened)
        app.action(RELATED_ACTION)(self._on_related)
        self.pages.register(app)
        self.forgetting.register(app)
        self.reports.register(app)
        Feedback(self).register(app)
        AnswerButtons(self).register(app)
        OwnAnswersPage(self).register(app)
        ClaimChecks(self).register(app)
        return app

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
        return not event.get("user") or event.get("user") == self.bot_user_id

    async def _on_mention(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        if not self._not_a_person(event):
            await self._take(body, event)

    async def _on_message(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        if self._not_a_person(event):
            return
        if event.get("channel_type") == "im" or await self._unmentioned_question(body, event):
            await self._take(body, event)

    async def _unmentioned_question(self, body: dict[str, Any], event: dict[str, Any]) -> bool:
        """A reply in citebot's thread, or a new post where the channel auto-answers, that
        mentions nobody, in a place citebot may answer (quietly not, elsewhere)."""
        if mentions_anyone(str(event.get("text", ""))):
            return False
        place = Venue(server=event.get("team") or body.get("team_id"), channel=event["channel"])
        if await self.kit.refusal(place, None) is not None:
            return False
        settings = await self.kit.settings_at(place)
        thread_ts = event.get("thread_ts")
        if thread_ts is None:
            return settings.auto_answer
        if thread_ts == event["ts"] or not settings.follow_ups_without_mention:
            return False
        owned = await _optional(self.owners.ours(str(event["channel"]), str(thread_ts)), "owner")
        return bool(owned)

    async def _take(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        """Claim a person's message and answer it in its thread."""
        channel, ts = str(event["channel"]), str(event["ts"])
        if not await self.kit.claim(f"event:{body.get('event_id')}", f"message:{channel}:{ts}"):
            return
        thread_ts = event.get("thread_ts")
        self.kit.spawn(
            self.answer(
                text=question_text(str(event.get("text", "")), bot_user_id=self.bot_user_id),
                team=event.get("team") or body.get("team_id"),
                channel=channel,
                user=str(event["user"]),
                thread_ts=str(thread_ts or ts),
                follow_up_before=ts if thread_ts else None,
                direct=event.get("channel_type") == "im",
            )
        )

    async def _on_home_opened(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        if event.get("tab") == "messages":
            await _optional(self.agent.greet(body, event), "the greeting")
        else:
            await _optional(self.pages.on_home_opened(body, event), "the Home tab")

    async def _on_related(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        if not await self.kit.claim(_action_key(body, action)):
            return
        container = body.get("container", {})
        channel = str(container.get("channel_id"))
        self.kit.spawn(
            self.answer(
                text=str(action.get("value", "")),
                team=body.get("user", {}).get("team_id"),
                channel=channel,
                user=str(body["user"]["id"]),
                thread_ts=str(container.get("thread_ts") or container.get("message_ts")),
                follow_up_before="",
                direct=channel.startswith("D"),
            )
        )

    # -- one answer -----------------------------------------------------------------------------
    async def answer(
        self,
        *,
        text: str,
        team: str | None,
        channel: str,
        user: str,
        thread_ts: str,
        follow_up_before: str | None,
        direct: bool,
        own_answers: bool = True,
    ) -> None:
        """Answer ``text`` in the thread ``thread_ts`` of ``channel`` (``follow_up_before``:
        the thread's messages before this one are its conversation, "" all of them;
        ``own_answers`` False: from the sources, "Ask the sources" pressed)."""
        locale = await self.locales.locale(user)
        language = catalogue_language(locale)
        place = Venue(server=team, channel=channel, direct=direct)
        settings = await self.kit.settings_at(place)
        wording = self.kit.wording(language or settings.language)
        sink = SlackSink(
            web=self.web,
            channel=channel,
            thread_ts=thread_ts,
            team_id=team,
            user_id=user,
            streams=self.streams,
            update_interval=self.update_interval,
            disclaimer=settings.disclaimer or wording.default_disclaimer(),
        )
        refusal = await self.kit.refusal(place, language)
        if refusal is not None:
            await self.kit.refuse(sink, refusal)
            return
        status = await _optional(self._status(channel, thread_ts, wording), "the status")
        if not status:  # Slack refused the status: a placeholder says it instead
            await _optional(sink.hold(f"{self.bot_name} {wording.thinking()}"), "the placeholder")
        if direct and follow_up_before is None:
            await _optional(self.agent.title(channel, thread_ts, text), "the title")
        question = Question(
            text=text,
            platform=self.kit.name,
            user_id=user,
            channel_id=channel,
            server_id=team,
            thread_id=thread_ts,
            language=language,
            locale=locale,
            own_answers=own_answers,
        )
        stopped: BaseException | None = None
        outcome: Outcome | None = None
        try:
            if follow_up_before is not None:
                history = await _optional(self._history(question, follow_up_before), "the thread")
                question = replace(question, history=history or ())
            outcome = await self.kit.ask(question, sink)
        except BaseException as error:
            stopped = error
            raise
        finally:
            await asyncio.shield(self._unstick(sink, wording, status=bool(status), why=stopped))
        await self._after(outcome, sink, wording, direct=direct)

    async def _after(
        self, outcome: Outcome | None, sink: SlackSink, wording: Wording, *, direct: bool
    ) -> None:
        """An answer cut short still shows its disclaimer; a DM answer's related questions
        become the conversation's suggested prompts."""
        if outcome is None:
            return
        if outcome.status == "interrupted" and outcome.text.strip():
            await _optional(sink.post_disclaimer(), "the disclaimer")
        related = outcome.rendered.layout.related if outcome.rendered is not None else ()
        if direct and related:
            await _optional(self.agent.suggest(sink.channel, related, wording), "the prompts")

    async def _unstick(
        self, sink: SlackSink, wording: Wording, *, status: bool, why: BaseException | None
    ) -> None:
        """Whatever happened to the answer, nothing is left "thinking": Slack clears the status
        when the bot replies, so with no reply posted an empty status clears it (as the method
        documents); a placeholder no text replaced says what happened."""
        if status and not sink.message_ts:
            await _optional(self._clear_status(sink.channel, sink.thread_ts), "the status")
        elif sink.holding:
            words = (
                wording.restarting()
                if isinstance(why, asyncio.CancelledError)
                else wording.explain(UpstreamError("the Slack answer failed"))  # generic
            )
            await _optional(sink.show((self.kit.presenter.notice(words),), final=True), "the note")

    async def _status(self, channel: str, thread_ts: str, wording: Wording) -> bool:
        """Show "is thinking…" and the rotating loading messages on the thread; False when
        Slack refused it."""
        try:
            await self.web.assistant_threads_setStatus(
                channel_id=channel,
                thread_ts=thread_ts,
                status=wording.thinking(),
                loading_messages=list(wording.loading_messages()),
            )
        except SlackApiError as error:  # a workspace without the scope, an unknown thread
            log.info("no thinking status: %s", error.response.get("error"))
            return False
        return True

    async def _clear_status(self, channel: str, thread_ts: str) -> None:
        try:
            await self.web.assistant_threads_setStatus(
                channel_id=channel, thread_ts=thread_ts, status=""
            )
        except SlackApiError as error:
            log.info("could not clear the status: %s", error.response.get("error"))

    async def _history(self, question: Question, before_ts: str) -> tuple[Turn, ...]:
        """The thread so far: remembered turns, else read back from Slack."""
        remembered = await self.kit.remembered(question)
        limit = self.kit.history_turns * 2
        if remembered or not limit:
            return remembered
        try:
            replies = await self.web.conversations_replies(
                channel=question.channel_id, ts=str(question.thread_id), limit=200
            )
        except SlackApiError as error:
            log.info("could not read the thread back: %s", error.response.get("error"))
            return ()
        return thread_turns(
            replies.get("messages", []),
            bot_user_id=self.bot_user_id,
            bot_id=self.bot_id,
            before_ts=before_ts or None,
            limit=limit,
        )


async def _optional(work: Awaitable[T], what: str) -> T | None:
    """A nicety the answer goes on without (the status, the thread read back): a network
    failure past the client's retries costs it, not the answer."""
    try:
        return await work
    except Exception as error:
        log.warning("answering without %s: %s", what, type(error).__name__)
        return None


def _action_key(body: dict[str, Any], action: dict[str, Any]) -> str:
    """A click's own id: its trigger (unique per click), else its time and who clicked."""
    trigger = body.get("trigger_id")
    if trigger:
        return f"action:{trigger}"
    return f"action:{body.get('user', {}).get('id')}:{action.get('action_ts')}"
