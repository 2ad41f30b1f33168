"""The buttons beside 👍/👎 under an answer that a workspace's admins set up: "Ask the sources"
under an own answer, "Ask a person" where ``handoff`` names a user group or a person.

The kit decides (:mod:`bot.kit_community`): only the asker's press acts, once. Here a press
becomes the answer's key (the reply holding the buttons, as for a vote), and the kit's decision
is shown: the question asked again of the sources in the same thread, or the one message that
mentions exactly the place's group (``<!subteam^S…>``) or person (``<@U…>``), in the answer's
thread, with a link to the question; the asker is named in plain text (a ``<@U…>`` would notify
them). What the presser is told, they alone see.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from slack_sdk.errors import SlackApiError

from bot.adapter import Admitted, Handoff
from integrations.slack.answering import Answers, Asked
from integrations.slack.cards import ACTION
from integrations.slack.context import Context, action_key
from integrations.slack.markdown import mrkdwn
from integrations.slack.sink import vote_key

if TYPE_CHECKING:
    from slack_bolt.app.async_app import AsyncApp

__all__ = ["ACTIONS", "AnswerButtons", "Press", "handoff_text", "press_of"]

log = logging.getLogger(__name__)

ACTIONS = re.compile(rf"^{ACTION}(ask_sources|ask_person)$")


def handoff_text(handoff: Handoff, *, asker: str, link: str | None) -> str:
    """The one message "Ask a person" posts, as mrkdwn: the group or person mentioned, the
    asker named, the link to the question."""
    target = handoff.target
    mention = f"<!subteam^{target}>" if target.startswith("S") else f"<@{target}>"
    words = handoff.words
    said = mrkdwn(words.handoff_request("\x00", "\x01"))
    text = said.replace("\x00", mention).replace("\x01", mrkdwn(asker))
    if link is None:
        return text
    return f"{text}\n<{link}|{mrkdwn(words.handoff_question())}>"


@dataclass(frozen=True, slots=True)
class Press:
    """A button under an answer, pressed: where, by whom."""

    channel: str
    user: str
    thread: str | None
    team: str | None
    message_ts: str
    """The message the button is on: the reply holding 👍/👎, which names the answer."""

    @property
    def answer_key(self) -> str:
        return vote_key(self.channel, self.message_ts)

    @property
    def direct(self) -> bool:
        return self.channel.startswith("D")


def press_of(body: dict[str, Any]) -> Press:
    """The press ``body`` tells of (an action under an answer)."""
    container = body.get("container", {})
    return Press(
        channel=str(container.get("channel_id")),
        user=str(body["user"]["id"]),
        thread=container.get("thread_ts"),
        team=body.get("user", {}).get("team_id"),
        message_ts=str(container.get("message_ts")),
    )


class AnswerButtons:
    def __init__(self, context: Context, *, answers: Answers) -> None:
        self._context = context
        self._kit = context.kit
        self._web = context.web
        self._answers = answers

    def register(self, app: AsyncApp) -> None:
        app.action(ACTIONS)(self._on_press)

    async def _on_press(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        press = press_of(body)
        whisper = functools.partial(self._context.whisper, press.channel, press.user, press.thread)

        async def act(admitted: Admitted) -> None:
            key, user, language = press.answer_key, press.user, admitted.language
            if action.get("action_id") == f"{ACTION}ask_sources":
                asked = await self._kit.sources_asked(
                    answer_key=key, user_id=user, language=language
                )
                if isinstance(asked, str):
                    await whisper(asked)
                    return
                again = Asked(
                    text=asked.text,
                    team=press.team,
                    channel=press.channel,
                    user=user,
                    thread_ts=str(press.thread or press.message_ts),
                    follow_up_before="",
                    direct=press.direct,
                    own_answers=False,
                )
                await self._answers.answer(again, admitted)
                return
            handed = await self._kit.person_asked(answer_key=key, user_id=user, language=language)
            if isinstance(handed, str):
                await whisper(handed)
                return
            await self._post(handed, press.channel, str(press.thread or press.message_ts))
            await whisper(self._kit.wording(language).handoff_done())

        pressed = self._context.arrival(
            action_key(body, action), user=press.user, team=press.team, channel=press.channel
        )
        await self._kit.take(pressed, act, refuse=whisper, spawn=True)

    async def _post(self, handoff: Handoff, channel: str, thread: str) -> None:
        asker = handoff.question.user_id
        link: str | None = None
        with contextlib.suppress(SlackApiError):
            found = await self._web.chat_getPermalink(channel=channel, message_ts=thread)
            link = str(found["permalink"])
        with contextlib.suppress(SlackApiError):
            info = await self._web.users_info(user=asker)
            profile = info["user"].get("profile") or {}
            asker = str(profile.get("display_name") or profile.get("real_name") or asker)
        text = handoff_text(handoff, asker=asker, link=link)
        await self._web.chat_postMessage(
            channel=channel, thread_ts=thread, text=text, unfurl_links=False, unfurl_media=False
        )
