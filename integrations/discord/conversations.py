"""Messages that are questions: follow-ups in citebot's threads, and new forum posts.

- A mention of the bot in a thread it opened (or in a forum post it answers) is a follow-up,
  as always: a mention carries its text without the privileged intent.
- With ``DISCORD_MESSAGE_CONTENT=on`` (the Message Content intent, on in the Developer Portal
  too) and the place's ``follow_ups_without_mention`` on, any reply in a thread citebot opened
  is a follow-up, and so is the poster's own reply in a forum post citebot answers.
- With the intent and the forum's ``auto_answer`` on, each new forum post is answered in it
  (its title and its first message are the question).

A message is not a question when a bot or a webhook wrote it, when it mentions or replies to
someone else (people talking to each other in the thread), or when it is not a plain message
(a pin, a thread's creation). Edits are never questions: only new messages come here. A
question citebot may not answer where it is asked is refused when the bot was mentioned, and
left alone otherwise (nobody asked citebot).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.answer import Question
from bot.budgets import WriteBudget
from bot.kit import PlatformKit
from bot.places import PlaceSettings
from integrations.discord.here import place_of
from integrations.discord.sink import DiscordAnswerSink
from integrations.discord.wire import DiscordWire

__all__ = ["Conversations"]

log = logging.getLogger(__name__)

_PLAIN = (discord.MessageType.default, discord.MessageType.reply)


@dataclass(frozen=True, slots=True)
class _Heard:
    thread: discord.Thread
    text: str
    mentioned: bool


class Conversations:
    def __init__(
        self,
        *,
        kit: PlatformKit,
        wire: DiscordWire,
        budget: WriteBudget,
        me: Callable[[], discord.ClientUser | None],
        message_content: bool,
    ) -> None:
        self._kit = kit
        self._wire = wire
        self._budget = budget
        self._me = me
        self._message_content = message_content

    async def on_message(self, message: discord.Message) -> None:
        heard = await self._question(message)
        if heard is None or not await self._kit.claim(f"message:{message.id}"):
            return
        thread = heard.thread
        sink = DiscordAnswerSink(
            wire=self._wire, budget=self._budget, channel_id=thread.id, reply_to=message.id
        )
        place = place_of(thread.guild.id, thread, thread.id)
        refusal = await self._kit.refusal(place, None)
        if refusal is not None:
            if heard.mentioned:
                await self._kit.refuse(sink, refusal)
            return
        await self._kit.ask(
            Question(
                text=heard.text,
                platform=self._kit.name,
                user_id=str(message.author.id),
                channel_id=str(thread.parent_id),
                server_id=str(thread.guild.id),
                thread_id=str(thread.id),
            ),
            sink,
        )

    async def _question(self, message: discord.Message) -> _Heard | None:
        """The question ``message`` asks citebot, and where; None when it asks none."""
        me = self._me()
        thread = message.channel
        if (
            me is None
            or message.author.bot
            or message.webhook_id is not None
            or message.type not in _PLAIN
            or not isinstance(thread, discord.Thread)
        ):
            return None
        mentioned = me.id in message.raw_mentions
        text = re.sub(rf"<@!?{me.id}>", " ", message.content).strip()
        forum = isinstance(thread.parent, discord.ForumChannel)
        ours = thread.owner_id == me.id
        if mentioned and ours:
            return _Heard(thread, text, mentioned=True)
        if not (forum or ours) or not self._message_content or not text:
            return None
        settings = await self._settings(thread)
        if forum and message.id == thread.id:  # a new post: its starter message
            if not settings.auto_answer:
                return None
            return _Heard(thread, _post_question(thread.name, text), mentioned=False)
        if forum and not settings.auto_answer:
            return None
        if mentioned:
            return _Heard(thread, text, mentioned=True)
        if not settings.follow_ups_without_mention or _addressed_elsewhere(message, me.id):
            return None
        if forum and message.author.id != thread.owner_id:
            return None  # in a forum post, the others' replies are answers to the poster
        return _Heard(thread, text, mentioned=False)

    async def _settings(self, thread: discord.Thread) -> PlaceSettings:
        return await self._kit.settings_at(place_of(thread.guild.id, thread, thread.id))


def _addressed_elsewhere(message: discord.Message, me: int) -> bool:
    """Whether ``message`` speaks to someone else: it mentions another person, a role or
    everyone, or replies to a message not citebot's."""
    if any(user != me for user in message.raw_mentions):
        return True
    if message.raw_role_mentions or message.mention_everyone:
        return True
    reference = message.reference
    if reference is None or reference.message_id is None:
        return False
    replied = reference.resolved
    return not (isinstance(replied, discord.Message) and replied.author.id == me)


def _post_question(title: str, text: str) -> str:
    """A forum post's question: its title, then its message (unless it repeats the title)."""
    if text.startswith(title.strip()):
        return text
    return f"{title.strip()}\n\n{text}"
