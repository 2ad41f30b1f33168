"""👍 and 👎 under an answer, and why a 👎 (Slack's AI guidelines: on a poor grade, a modal
asking why).

A click is kept as the person's vote at once, so a 👎 counts even if its modal is closed
unanswered; a 👎 then opens a modal (``views.open`` from the button's trigger) offering the four
reasons as radio buttons and an optional line of their own. Its submission keeps the vote again
with the reason and the words (the kit logs the reason, never the words), and thanks them in the
thread where only they see it. A 👍, or a 👎 whose modal Slack would not open, is thanked at
once.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any, cast

from slack_sdk.errors import SlackApiError

from bot.adapter import REASONS, VOTES, Admitted, Reason
from bot.i18n.wording import Wording
from integrations.slack.blocks import Block, plain_text
from integrations.slack.buttons import press_of
from integrations.slack.cards import FEEDBACK_ACTION
from integrations.slack.context import Context, action_key
from integrations.slack.members import team_of

if TYPE_CHECKING:
    from slack_bolt.app.async_app import AsyncApp

__all__ = ["REASON_CALLBACK", "Feedback", "reason_modal"]

log = logging.getLogger(__name__)

REASON_CALLBACK = "citebot_reason"
REASON_BLOCK, REASON_ACTION = "reason", "reason"
COMMENT_BLOCK, COMMENT_ACTION = "comment", "comment"
COMMENT_ROOM = 1000
TITLE_ROOM = 24


class Feedback:
    def __init__(self, context: Context) -> None:
        self._context = context
        self._kit = context.kit
        self._web = context.web

    def register(self, app: AsyncApp) -> None:
        app.action(FEEDBACK_ACTION)(self._on_click)
        app.view(REASON_CALLBACK)(self._on_reason)

    async def _on_click(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        value = str(action.get("value"))
        if value not in VOTES:  # not a vote: nothing citebot wrote
            return
        press = press_of(body)
        channel, user, thread = press.channel, press.user, press.thread

        async def refuse(words: str) -> None:
            await self._thank(channel, user, thread, words)

        async def act(admitted: Admitted) -> None:
            answer = press.answer_key
            await self._kit.vote(answer_key=answer, user_id=user, value=value)
            words = admitted.words
            if value == "down" and await self._ask_why(body, answer, channel, thread, words):
                return
            await self._thank(channel, user, thread, words.feedback_thanks())

        click = self._context.arrival(
            action_key(body, action), user=user, team=press.team, channel=channel
        )
        await self._kit.take(click, act, refuse=refuse)

    async def _ask_why(
        self, body: dict[str, Any], answer: str, channel: str, thread: str | None, words: Wording
    ) -> bool:
        """Open the modal asking why; False when Slack would not."""
        said = json.dumps({"answer": answer, "channel": channel, "thread": thread})
        try:
            await self._web.views_open(
                trigger_id=body["trigger_id"], view=reason_modal(words, said)
            )
        except SlackApiError as error:
            log.info("could not ask why a 👎: %s", error.response.get("error"))
            return False
        return True

    async def _on_reason(self, ack: Any, body: dict[str, Any], view: dict[str, Any]) -> None:
        await ack()
        meta = json.loads(view.get("private_metadata") or "{}")
        values = (view.get("state") or {}).get("values") or {}
        chosen = ((values.get(REASON_BLOCK) or {}).get(REASON_ACTION) or {}).get(
            "selected_option"
        ) or {}
        said = ((values.get(COMMENT_BLOCK) or {}).get(COMMENT_ACTION) or {}).get("value")
        reason = cast(Reason, chosen.get("value")) if chosen.get("value") in REASONS else None
        user, channel = str(body["user"]["id"]), str(meta.get("channel"))

        async def refuse(words: str) -> None:
            await self._thank(channel, user, meta.get("thread"), words)

        async def act(admitted: Admitted) -> None:
            await self._kit.vote(
                answer_key=str(meta.get("answer")),
                user_id=user,
                value="down",
                reason=reason,
                comment=str(said) if said else None,
            )
            await refuse(admitted.words.reason_thanks())

        sent = self._context.arrival(
            action_key(body), user=user, team=team_of(body), channel=channel
        )
        await self._kit.take(sent, act, refuse=refuse)

    async def _thank(self, channel: str, user: str, thread: str | None, words: str) -> None:
        """Say ``words`` in the thread, to ``user`` alone."""
        await self._context.whisper(channel, user, thread, words)


def reason_modal(words: Wording, private_metadata: str) -> dict[str, Any]:
    """The modal a 👎 opens: the four reasons as radio buttons, and a line of one's own."""
    labels = words.reason_labels
    options = [
        {"text": plain_text(labels.reasons[reason], 75), "value": reason} for reason in REASONS
    ]
    blocks: list[Block] = [
        {
            "type": "input",
            "block_id": REASON_BLOCK,
            "label": plain_text(labels.title, 2000),
            "element": {"type": "radio_buttons", "action_id": REASON_ACTION, "options": options},
        },
        {
            "type": "input",
            "block_id": COMMENT_BLOCK,
            "optional": True,
            "label": plain_text(labels.comment, 2000),
            "element": {
                "type": "plain_text_input",
                "action_id": COMMENT_ACTION,
                "multiline": True,
                "max_length": COMMENT_ROOM,
            },
        },
    ]
    return {
        "type": "modal",
        "callback_id": REASON_CALLBACK,
        "title": plain_text(words.labels.bad_answer, TITLE_ROOM),
        "submit": plain_text(labels.send, TITLE_ROOM),
        "private_metadata": private_metadata,
        "blocks": blocks,
    }
