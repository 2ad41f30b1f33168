"""Slack events in, answers out: the slack-bolt AsyncApp and what its listeners do.

Mentions and DMs become a :class:`bot.answer.Question` for the platform kit; the answer
streams into the thread through a :class:`SlackSink`. Bolt acknowledges each event before the
listener runs, so listeners only filter and claim the event (once across workers) and hand the
answer to a task the kit tracks, so that shutdown can wait for it. Each asker reads citebot's
own words (status, notices, cards, buttons) in their Slack locale (:class:`UserLocales`).

Every way in (a mention, a DM, a button) is claimed by its Slack id before anything is done and
passes the kit's one authorization check (a channel of the allowlist, or a DM: a thread is in
its channel, since Slack's threads have no id of their own).
The "is thinking…" status and reading a thread back are niceties: when the network fails them,
the question is answered without them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable
from dataclasses import replace
from typing import Any, TypeVar

from slack_bolt.app.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.answer import Question
from bot.i18n.wording import Wording, catalogue_language
from bot.kit import Place, PlatformKit
from bot.upstream.errors import UpstreamError
from bot.upstream.events import Turn
from integrations.slack.conversation import question_text, thread_turns
from integrations.slack.locales import UserLocales
from integrations.slack.sink import NativeStreams, SlackSink

__all__ = ["SlackBot"]

log = logging.getLogger(__name__)

T = TypeVar("T")

RELATED_ACTION = re.compile(r"^citebot_related_\d+$")
FEEDBACK_ACTION = "citebot_feedback"
PEOPLE_SUBTYPES = frozenset({"file_share", "thread_broadcast"})
"""Message subtypes a person sends; every other subtype (edits, deletions, bots) is not one."""


class SlackBot:
    """One workspace's listeners; :meth:`start` learns who the bot is (and checks the token)."""

    def __init__(
        self,
        *,
        web: AsyncWebClient,
        kit: PlatformKit,
        streams: NativeStreams | None = None,
        update_interval: float = 1.0,
    ) -> None:
        self.web = web
        self.locales = UserLocales(web)
        self.kit = kit
        self.streams = streams or NativeStreams()
        self.update_interval = update_interval
        self.bot_user_id = ""
        self.bot_id = ""
        self.bot_name = "citebot"
        """How the bot is named in the workspace (``auth.test``'s ``user``): the placeholder
        says "citebot is thinking…" under that name."""

    async def start(self) -> None:
        identity = await self.web.auth_test()
        self.bot_user_id = str(identity["user_id"])
        self.bot_id = str(identity.get("bot_id") or "")
        self.bot_name = str(identity.get("user") or self.bot_name)

    def app(self, *, signing_secret: str | None = None) -> AsyncApp:
        app = AsyncApp(
            client=self.web,
            signing_secret=signing_secret or "",
            request_verification_enabled=signing_secret is not None,
        )
        app.event("app_mention")(self._on_event)
        app.event("message")(self._on_event)
        app.action(RELATED_ACTION)(self._on_related)
        app.action(FEEDBACK_ACTION)(self._on_feedback)
        return app

    # -- listeners ------------------------------------------------------------------------------
    def _ignored(self, event: dict[str, Any]) -> bool:
        """Edits, deletions, other apps, the bot itself, and channel chatter are not questions."""
        subtype = event.get("subtype")
        if (
            (subtype and subtype not in PEOPLE_SUBTYPES)
            or event.get("bot_id")
            or event.get("edited")
        ):
            return True
        if not event.get("user") or event.get("user") == self.bot_user_id:
            return True
        return event.get("type") == "message" and event.get("channel_type") != "im"

    async def _on_event(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        if self._ignored(event):
            return
        channel, ts = str(event["channel"]), str(event["ts"])
        if not await self.kit.claim(f"event:{body.get('event_id')}", f"message:{channel}:{ts}"):
            return
        thread_ts = event.get("thread_ts")
        self.kit.spawn(
            self._answer(
                text=question_text(str(event.get("text", "")), bot_user_id=self.bot_user_id),
                team=event.get("team") or body.get("team_id"),
                channel=channel,
                user=str(event["user"]),
                thread_ts=str(thread_ts or ts),
                follow_up_before=ts if thread_ts else None,
                direct=event.get("channel_type") == "im",
            )
        )

    async def _on_related(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        if not await self.kit.claim(_action_key(body, action)):
            return
        container = body.get("container", {})
        channel = str(container.get("channel_id"))
        self.kit.spawn(
            self._answer(
                text=str(action.get("value", "")),
                team=body.get("user", {}).get("team_id"),
                channel=channel,
                user=str(body["user"]["id"]),
                thread_ts=str(container.get("thread_ts") or container.get("message_ts")),
                follow_up_before="",
                direct=channel.startswith("D"),
            )
        )

    async def _on_feedback(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        if not await self.kit.claim(_action_key(body, action)):
            return
        container = body.get("container", {})
        channel, user = str(container.get("channel_id")), str(body["user"]["id"])
        language = catalogue_language(await self.locales.locale(user))
        team = body.get("user", {}).get("team_id")
        refusal = await self.kit.refusal(_place(team, channel, channel.startswith("D")), language)
        if refusal is None:
            await self.kit.vote(
                answer_key=f"{self.kit.name}:{channel}:{container.get('message_ts')}",
                user_id=user,
                value=str(action.get("value")),
            )
        words = refusal or self.kit.wording(language).feedback_thanks()
        thanks = self.kit.presenter.notice(words)
        with contextlib.suppress(SlackApiError):
            await self.web.chat_postEphemeral(
                channel=channel,
                user=user,
                thread_ts=container.get("thread_ts"),
                **{k: v for k, v in thanks.items() if k in ("markdown_text", "text", "blocks")},
            )

    # -- one answer -----------------------------------------------------------------------------
    async def _answer(
        self,
        *,
        text: str,
        team: str | None,
        channel: str,
        user: str,
        thread_ts: str,
        follow_up_before: str | None,
        direct: bool,
    ) -> None:
        sink = SlackSink(
            web=self.web,
            channel=channel,
            thread_ts=thread_ts,
            team_id=team,
            user_id=user,
            streams=self.streams,
            update_interval=self.update_interval,
        )
        locale = await self.locales.locale(user)
        language = catalogue_language(locale)
        place = _place(team, channel, direct)
        wording = await self.kit.words(place, language)
        refusal = await self.kit.refusal(place, language)
        if refusal is not None:
            await self.kit.refuse(sink, refusal)
            return
        # Slack documents the "is thinking…" status for assistant threads (the app's DM);
        # elsewhere a placeholder holds the answer's place and its first text replaces it.
        status = direct and await _optional(
            self._status(channel, thread_ts, wording.thinking()), "the status"
        )
        if not status:
            await _optional(sink.hold(f"{self.bot_name} {wording.thinking()}"), "the placeholder")
        question = Question(
            text=text,
            platform=self.kit.name,
            user_id=user,
            channel_id=channel,
            server_id=team,
            thread_id=thread_ts,
            language=language,
            locale=locale,
        )
        stopped: BaseException | None = None
        try:
            if follow_up_before is not None:
                history = await _optional(self._history(question, follow_up_before), "the thread")
                question = replace(question, history=history or ())
            await self.kit.ask(question, sink)
        except BaseException as error:
            stopped = error
            raise
        finally:
            await asyncio.shield(self._unstick(sink, wording, status=bool(status), why=stopped))

    async def _unstick(
        self, sink: SlackSink, wording: Wording, *, status: bool, why: BaseException | None
    ) -> None:
        """Whatever happened to the answer, nothing is left "thinking": Slack clears the status
        when the bot replies, so with no reply posted an empty status clears it (as the method
        documents for assistant threads); a placeholder no text replaced says what happened."""
        if status and not sink.message_ts:
            await _optional(self._status(sink.channel, sink.thread_ts, ""), "the status")
        elif sink.holding:
            words = (
                wording.restarting()
                if isinstance(why, asyncio.CancelledError)
                else wording.explain(UpstreamError("the Slack answer failed"))  # generic
            )
            await _optional(sink.show((self.kit.presenter.notice(words),), final=True), "the note")

    async def _status(self, channel: str, thread_ts: str, status: str) -> bool:
        """Set the assistant thread's status; False when Slack refused it."""
        try:
            await self.web.assistant_threads_setStatus(
                channel_id=channel, thread_ts=thread_ts, status=status
            )
        except SlackApiError as error:  # not every workspace offers assistant threads
            log.info("no thinking status: %s", error.response.get("error"))
            return False
        return True

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


def _place(team: str | None, channel: str, direct: bool) -> Place:
    """Where a question is asked: the workspace and channel (a thread is in its channel)."""
    return Place(server=team, channel=channel, direct=direct)


def _action_key(body: dict[str, Any], action: dict[str, Any]) -> str:
    """A click's own id: its trigger (unique per click), else its time and who clicked."""
    trigger = body.get("trigger_id")
    if trigger:
        return f"action:{trigger}"
    return f"action:{body.get('user', {}).get('id')}:{action.get('action_ts')}"
