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

from bot.i18n.wording import catalogue_language
from bot.kit import Venue
from bot.render.ports import Payload
from bot.render.text import clip
from integrations.slack import limits
from integrations.slack.blocks import fit
from integrations.slack.conversation import question_text
from integrations.slack.markdown import UNFURL_OFF, SlackMarkdown
from integrations.slack.words import add_me_first

if TYPE_CHECKING:
    from slack_bolt.app.async_app import AsyncApp

    from integrations.slack.app import SlackBot

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
    def __init__(self, bot: SlackBot) -> None:
        self._bot = bot
        self._kit = bot.kit
        self._web = bot.web

    def register(self, app: AsyncApp) -> None:
        app.message_shortcut(CHECK_CALLBACK)(self._on_shortcut)

    async def _on_shortcut(self, ack: Any, body: dict[str, Any], respond: Any) -> None:
        await ack()
        if not await self._kit.claim(f"action:{body.get('trigger_id')}"):
            return
        user, team = str(body["user"]["id"]), str((body.get("team") or {}).get("id"))
        channel = str(body["channel"]["id"])
        message = body.get("message") or {}
        thread_ts = str(message.get("thread_ts") or message.get("ts") or body.get("message_ts"))
        direct = channel.startswith("D")
        place = Venue(server=team, channel=channel, direct=direct)
        language = catalogue_language(await self._bot.locales.locale(user, team=team))
        words = await self._kit.words(place, language)
        claim = await self._readable(str(message.get("text") or ""))
        refusal = await self._kit.refusal(place, language)
        if not claim or refusal is not None:
            await respond(text=refusal or words.nothing_to_check(), response_type="ephemeral")
            return
        header = claim_header(words.check_with_sources(), claim, await self._author(message))
        try:
            await self._web.chat_postMessage(channel=channel, thread_ts=thread_ts, **header)
        except SlackApiError as error:
            code = str(error.response.get("error"))
            log.info("could not check a message where it was: %s", code)
            said = add_me_first(words) if code in NOT_A_MEMBER else words.try_again()
            await respond(text=said, response_type="ephemeral")
            return
        self._kit.spawn(
            self._bot.answer(
                text=self._kit.claim_question(words, claim),
                team=team,
                channel=channel,
                user=user,
                thread_ts=thread_ts,
                follow_up_before=None,
                direct=direct,
            )
        )

    async def _readable(self, text: str) -> str:
        """A message's text as people read it: mentions as the names they show, links and
        channels as their text, citebot's own mention dropped."""
        ids = list(dict.fromkeys(m.group(1) for m in _USER.finditer(text)))[:NAMES_RESOLVED]
        names = {user: await self._bot.members.name(user) for user in ids}

        def user(found: re.Match[str]) -> str:
            if found.group(1) == self._bot.bot_user_id:
                return found.group(0)  # question_text drops it
            return "@" + (found.group(2) or names.get(found.group(1)) or found.group(1))

        text = _USER.sub(user, text)
        text = _GROUP.sub(lambda m: m.group(1) or "@group", text)
        text = _SPECIAL.sub(lambda m: "@" + m.group(1), text)
        text = _CHANNEL.sub(lambda m: "#" + (m.group(2) or m.group(1)), text)
        return question_text(text, bot_user_id=self._bot.bot_user_id)

    async def _author(self, message: dict[str, Any]) -> str | None:
        if message.get("user"):
            return await self._bot.members.name(str(message["user"]))
        profile = message.get("bot_profile") or {}
        name = message.get("username") or profile.get("name")
        return str(name) if name else None
