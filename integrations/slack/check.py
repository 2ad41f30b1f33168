""" "Check with sources" on any message: a message shortcut (its ``callback_id`` declared in
the app manifest, :mod:`integrations.slack.manifest`).

The message's words, as people read them (a mention as the name it shows, a link as its text),
go upstream as a claim to check (:meth:`Wording.claim_question`, in the asker's language). In
the message's thread citebot first quotes the claim and its author by name, in rich text (which
Slack parses for nothing: the author is quoted, never pinged), then answers there as it answers
a mention: its status while it thinks, the answer with its footnotes, the cards with their quote
checks. A message with no words, a place citebot may not answer in, or a channel citebot is not
a member of is told to the asker alone (the shortcut's ``response_url``), and nothing is posted.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from slack_sdk.errors import SlackApiError

from bot.adapter import Admitted
from bot.render.ports import Payload
from bot.render.text import clip
from integrations.slack import limits
from integrations.slack.answering import Answers, Asked
from integrations.slack.blocks import fit
from integrations.slack.context import Context, action_key
from integrations.slack.conversation import question_text
from integrations.slack.markdown import UNFURL_OFF, SlackMarkdown
from integrations.slack.words import add_me_first

if TYPE_CHECKING:
    from slack_bolt.app.async_app import AsyncApp

__all__ = ["CHECK_CALLBACK", "ClaimChecks", "claim_header"]

log = logging.getLogger(__name__)

CHECK_CALLBACK = "citebot_check"
"""The message shortcut's ``callback_id`` (the manifest declares it)."""
NOT_A_MEMBER = frozenset({"not_in_channel", "channel_not_found", "is_archived"})
QUOTE_ROOM = 2500
NAMES_RESOLVED = 10

_USER = re.compile(r"<@([UW][A-Z0-9]+)(?:\|([^>]*))?>")
_GROUP = re.compile(r"<!subteam\^[A-Z0-9]+(?:\|([^>]*))?>")
_SPECIAL = re.compile(r"<!(here|channel|everyone)(?:\|[^>]*)?>")
_CHANNEL = re.compile(r"<#([CG][A-Z0-9]+)(?:\|([^>]*))?>")
_MARKDOWN = SlackMarkdown()


def claim_header(label: str, claim: str, author: str | None) -> Payload:
    """The thread's first reply: ``label`` in bold, the claim quoted, its author named."""
    said = _MARKDOWN.kill_mentions(clip(claim, QUOTE_ROOM))
    elements: list[dict[str, Any]] = [
        {"type": "rich_text_section", "elements": [_bold(label)]},
        {"type": "rich_text_quote", "elements": [{"type": "text", "text": said}]},
    ]
    if author:
        by = f"— {_MARKDOWN.kill_mentions(author)}"
        elements.append({"type": "rich_text_section", "elements": [{"type": "text", "text": by}]})
    return {
        "text": fit(f"{label}: {claim}", limits.TEXT - 100),
        "blocks": [{"type": "rich_text", "elements": elements}],
        **UNFURL_OFF,
    }


def _bold(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text, "style": {"bold": True}}


class ClaimChecks:
    def __init__(self, context: Context, *, answers: Answers) -> None:
        self._context = context
        self._kit = context.kit
        self._web = context.web
        self._answers = answers

    def register(self, app: AsyncApp) -> None:
        app.message_shortcut(CHECK_CALLBACK)(self._on_shortcut)

    async def _on_shortcut(self, ack: Any, body: dict[str, Any], respond: Any) -> None:
        await ack()
        user, team = str(body["user"]["id"]), str((body.get("team") or {}).get("id"))
        channel = str(body["channel"]["id"])
        message = body.get("message") or {}
        thread_ts = str(message.get("thread_ts") or message.get("ts") or body.get("message_ts"))

        async def refuse(said: str) -> None:
            await respond(text=said, response_type="ephemeral")

        async def act(admitted: Admitted) -> None:
            words = admitted.words
            claim = await self._readable(str(message.get("text") or ""))
            if not claim:
                await refuse(words.nothing_to_check())
                return
            header = claim_header(words.check_with_sources(), claim, await self._author(message))
            try:
                await self._web.chat_postMessage(channel=channel, thread_ts=thread_ts, **header)
            except SlackApiError as error:
                code = str(error.response.get("error"))
                log.info("could not check a message where it was: %s", code)
                await refuse(add_me_first(words) if code in NOT_A_MEMBER else words.try_again())
                return
            asked = Asked(
                text=self._kit.claim_question(words, claim),
                team=team,
                channel=channel,
                user=user,
                thread_ts=thread_ts,
                follow_up_before=None,
                direct=channel.startswith("D"),
            )
            await self._answers.answer(asked, admitted)

        shortcut = self._context.arrival(action_key(body), user=user, team=team, channel=channel)
        await self._kit.take(shortcut, act, refuse=refuse, spawn=True)

    async def _readable(self, text: str) -> str:
        """A message's text as people read it: mentions as the names they show, links and
        channels as their text, citebot's own mention dropped."""
        ids = list(dict.fromkeys(m.group(1) for m in _USER.finditer(text)))[:NAMES_RESOLVED]
        names = {user: await self._context.members.name(user) for user in ids}

        def user(found: re.Match[str]) -> str:
            if found.group(1) == self._context.me.user_id:
                return found.group(0)  # question_text drops it
            return "@" + (found.group(2) or names.get(found.group(1)) or found.group(1))

        text = _USER.sub(user, text)
        text = _GROUP.sub(lambda m: m.group(1) or "@group", text)
        text = _SPECIAL.sub(lambda m: "@" + m.group(1), text)
        text = _CHANNEL.sub(lambda m: "#" + (m.group(2) or m.group(1)), text)
        return question_text(text, bot_user_id=self._context.me.user_id)

    async def _author(self, message: dict[str, Any]) -> str | None:
        if message.get("user"):
            return await self._context.members.name(str(message["user"]))
        profile = message.get("bot_profile") or {}
        name = message.get("username") or profile.get("name")
        return str(name) if name else None
