"""One answer in a Slack thread: the status while it is thought of, the answer streamed into
the thread through a :class:`SlackSink`, and nothing left "thinking" whatever happens.

While an answer is on its way, the thread shows the app's status with rotating loading
messages (``assistant.threads.setStatus``, in channels too since 2026-03-05) and no message;
only where Slack refuses the status does a placeholder message hold the answer's place. The
answer's disclaimer (the place's, else the catalogue's) goes in a context block with its
feedback buttons. The status, the thread read back, titles and prompts are niceties: when the
network fails them, the question is answered without them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, replace
from typing import TypeVar

from slack_sdk.errors import SlackApiError

from bot.adapter import Admitted, Outcome, Question, Turn, UpstreamError
from bot.i18n.wording import Wording
from integrations.slack.agent import AgentView
from integrations.slack.context import Context
from integrations.slack.conversation import thread_turns
from integrations.slack.sink import NativeStreams, SlackSink

__all__ = ["Answers", "Asked", "optional"]

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True, slots=True, kw_only=True)
class Asked:
    """A question and where its answer goes."""

    text: str
    team: str | None
    channel: str
    user: str
    thread_ts: str
    """The thread the answer goes in (a mention's own ``ts`` starts one)."""
    follow_up_before: str | None
    """The thread's messages before this one are its conversation ("": all of them); None:
    a new conversation."""
    direct: bool
    own_answers: bool = True
    """False: asked of the sources, the place's own answers passed over ("Ask the sources")."""


class Answers:
    def __init__(
        self,
        context: Context,
        *,
        agent: AgentView,
        streams: NativeStreams | None = None,
        update_interval: float = 1.0,
    ) -> None:
        self._context = context
        self._kit = context.kit
        self._web = context.web
        self._agent = agent
        self._streams = streams or NativeStreams()
        self._update_interval = update_interval

    def _sink(self, asked: Asked, disclaimer: str | None = None) -> SlackSink:
        """Where ``asked``'s answer goes (``disclaimer``: under its feedback buttons)."""
        return SlackSink(
            web=self._web,
            channel=asked.channel,
            thread_ts=asked.thread_ts,
            team_id=asked.team,
            user_id=asked.user,
            streams=self._streams,
            update_interval=self._update_interval,
            disclaimer=disclaimer,
        )

    async def refuse(self, asked: Asked, words: str) -> None:
        """Say ``words`` in the thread instead of an answer."""
        await self._kit.refuse(self._sink(asked), words)

    async def answer(self, asked: Asked, admitted: Admitted) -> None:
        """Answer ``asked`` (let through by the kit) in its thread."""
        wording = admitted.words
        sink = self._sink(asked, admitted.settings.disclaimer or wording.default_disclaimer())
        status = await optional(self._status(asked.channel, asked.thread_ts, wording), "the status")
        if not status:  # Slack refused the status: a placeholder says it instead
            holding = f"{self._context.me.name} {wording.thinking()}"
            await optional(sink.hold(holding), "the placeholder")
        if asked.direct and asked.follow_up_before is None:
            await optional(
                self._agent.title(asked.channel, asked.thread_ts, asked.text), "the title"
            )
        question = Question(
            text=asked.text,
            platform=self._kit.name,
            user_id=asked.user,
            channel_id=asked.channel,
            server_id=asked.team,
            thread_id=asked.thread_ts,
            direct=asked.direct,
            language=admitted.language,
            locale=await self._context.locales.locale(asked.user, team=asked.team),
            own_answers=asked.own_answers,
        )
        stopped: BaseException | None = None
        outcome: Outcome | None = None
        try:
            if asked.follow_up_before is not None:
                read = self._history(question, asked.follow_up_before)
                history = await optional(read, "the thread")
                question = replace(question, history=history or ())
            outcome = await self._kit.ask(question, sink)
        except BaseException as error:
            stopped = error
            raise
        finally:
            await asyncio.shield(self._unstick(sink, wording, status=bool(status), why=stopped))
        await self._after(outcome, sink, wording, direct=asked.direct)

    async def _after(
        self, outcome: Outcome | None, sink: SlackSink, wording: Wording, *, direct: bool
    ) -> None:
        """An answer cut short still shows its disclaimer; a DM answer's related questions
        become the conversation's suggested prompts."""
        if outcome is None:
            return
        if outcome.status == "interrupted" and outcome.text.strip():
            await optional(sink.post_disclaimer(), "the disclaimer")
        related = outcome.rendered.layout.related if outcome.rendered is not None else ()
        if direct and related:
            await optional(self._agent.suggest(sink.channel, related, wording), "the prompts")

    async def _unstick(
        self, sink: SlackSink, wording: Wording, *, status: bool, why: BaseException | None
    ) -> None:
        """Whatever happened to the answer, nothing is left "thinking": Slack clears the status
        when the bot replies, so with no reply posted an empty status clears it (as the method
        documents); a placeholder no text replaced says what happened."""
        if status and not sink.message_ts:
            await optional(self._clear_status(sink.channel, sink.thread_ts), "the status")
        elif sink.holding:
            words = (
                wording.restarting()
                if isinstance(why, asyncio.CancelledError)
                else wording.explain(UpstreamError("the Slack answer failed"))  # generic
            )
            await optional(sink.show((self._kit.presenter.notice(words),), final=True), "the note")

    async def _status(self, channel: str, thread_ts: str, wording: Wording) -> bool:
        """Show "is thinking…" and the rotating loading messages on the thread; False when
        Slack refused it."""
        try:
            await self._web.assistant_threads_setStatus(
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
            await self._web.assistant_threads_setStatus(
                channel_id=channel, thread_ts=thread_ts, status=""
            )
        except SlackApiError as error:
            log.info("could not clear the status: %s", error.response.get("error"))

    async def _history(self, question: Question, before_ts: str) -> tuple[Turn, ...]:
        """The thread so far: remembered turns, else read back from Slack."""
        remembered = await self._kit.remembered(question)
        limit = self._kit.history_turns * 2
        if remembered or not limit:
            return remembered
        try:
            replies = await self._web.conversations_replies(
                channel=question.channel_id, ts=str(question.thread_id), limit=200
            )
        except SlackApiError as error:
            log.info("could not read the thread back: %s", error.response.get("error"))
            return ()
        me = self._context.me
        return thread_turns(
            replies.get("messages", []),
            bot_user_id=me.user_id,
            bot_id=me.bot_id,
            before_ts=before_ts or None,
            limit=limit,
        )


async def optional(work: Awaitable[T], what: str) -> T | None:
    """A nicety the answer goes on without (the status, the thread read back): a network
    failure past the client's retries costs it, not the answer."""
    try:
        return await work
    except Exception as error:
        log.warning("answering without %s: %s", what, type(error).__name__)
        return None
