"""Slack's agent messaging experience (``features.agent_view``, the only one new apps may use
since 2026; docs.slack.dev ai/migrating-to-agent-messaging): a person's conversation with
citebot alone, in the app's Messages tab.

``app_home_opened`` with ``tab == "messages"`` replaces ``assistant_thread_started``: the first
time (the conversation holds no message yet, as the event's page asks apps to check) citebot
greets the person and suggests up to four prompts, in their language. A new question's thread is
titled with the question (``assistant.threads.setTitle``), and an answer's related questions
become the suggested prompts. ``setSuggestedPrompts`` is called without ``thread_ts``: the
method's page says an agent app's call with it "will silently fail"; without it the prompts go
under the conversation's latest message. All of these are niceties: when Slack refuses or fails
one, the conversation goes on without it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from slack_sdk.errors import SlackApiError

from bot.adapter import Admitted, Heard
from bot.i18n.wording import Wording
from bot.render.text import clip
from integrations.slack.context import Context
from integrations.slack.markdown import mrkdwn
from integrations.slack.members import team_of

__all__ = ["PROMPTS", "AgentView"]

log = logging.getLogger(__name__)

PROMPTS = 4
"""Suggested prompts Slack shows at most."""
PROMPT_TITLE = 75
THREAD_TITLE = 100


class AgentView:
    def __init__(self, context: Context) -> None:
        self._context = context
        self._web = context.web

    async def greet(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        """The Messages tab opened: a greeting and starter prompts, the first time only."""
        user, channel = str(event["user"]), str(event.get("channel") or "")
        if not channel:
            return

        async def act(admitted: Admitted) -> None:
            await self._greet(channel, admitted.words)

        key = f"event:{body.get('event_id')}"
        opened = self._context.arrival(
            key, user=user, team=team_of(body), channel=channel, heard=Heard.DIRECT
        )
        await self._context.kit.take(opened, act)

    async def _greet(self, channel: str, words: Wording) -> None:
        try:
            earlier = await self._web.conversations_history(channel=channel, limit=1)
        except SlackApiError as error:
            log.info("could not tell a first conversation: %s", error.response.get("error"))
            return
        if earlier.get("messages"):
            return
        await self._web.chat_postMessage(
            channel=channel, text=mrkdwn(words.greeting()), unfurl_links=False, unfurl_media=False
        )
        starters = words.starter_prompts()
        await self.suggest(
            channel,
            [message for _, message in starters],
            words,
            titles=[title for title, _ in starters],
            heading=words.try_asking(),
        )

    async def suggest(
        self,
        channel: str,
        questions: Sequence[str],
        words: Wording,
        *,
        titles: Sequence[str] | None = None,
        heading: str | None = None,
    ) -> None:
        """Show ``questions`` (up to four, each titled by ``titles`` or by itself) as the
        conversation's suggested prompts."""
        asked = [q.strip() for q in questions if q.strip()][:PROMPTS]
        if not asked:
            return
        named = titles or asked
        prompts = [
            {"title": clip(title, PROMPT_TITLE), "message": question}
            for title, question in zip(named, asked, strict=False)
        ]
        try:
            await self._web.assistant_threads_setSuggestedPrompts(
                channel_id=channel, prompts=prompts, title=heading or words.labels.related
            )
        except SlackApiError as error:
            log.info("no suggested prompts: %s", error.response.get("error"))

    async def title(self, channel: str, thread_ts: str, question: str) -> None:
        """Name a new conversation's thread after its question."""
        try:
            await self._web.assistant_threads_setTitle(
                channel_id=channel, thread_ts=thread_ts, title=clip(question, THREAD_TITLE)
            )
        except SlackApiError as error:
            log.info("no thread title: %s", error.response.get("error"))
