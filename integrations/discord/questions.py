"""Messages that are questions: follow-ups in citebot's threads, and new forum posts.

The adapter says how a message reaches citebot (:class:`~bot.adapter.Heard`); the kit decides
from the place's settings whether it is answered, as on every platform:
- A mention of the bot in a thread it opened, or in a forum post it answered, is a follow-up
  (:attr:`Heard.MENTION`): a mention carries its text without the privileged intent.
- With ``DISCORD_MESSAGE_CONTENT=on`` (the Message Content intent, on in the Developer Portal
  too), any reply in a thread citebot opened is a follow-up where ``follow_ups_without_mention``
  is on (:attr:`Heard.REPLY`), and so is the poster's own reply in a forum post citebot
  answered; each new forum post is answered in it where the forum's ``auto_answer`` is on
  (:attr:`Heard.POST`: its title and its first message are the question), and from then on
  the post is citebot's to follow (noted with the kit's ``join_thread``).

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

from bot.adapter import Admitted, Arrival, Heard, Kit, Question, WriteBudget
from integrations.discord.place import place_of
from integrations.discord.sink import DiscordAnswerSink
from integrations.discord.wire import DiscordWire

__all__ = ["Questions"]

log = logging.getLogger(__name__)

_PLAIN = (discord.MessageType.default, discord.MessageType.reply)


@dataclass(frozen=True, slots=True)
class _Heard:
    thread: discord.Thread
    text: str
    heard: Heard


class Questions:
    def __init__(
        self,
        *,
        kit: Kit,
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
        heard = await self._heard(message)
        if heard is None:
            return
        thread = heard.thread
        sink = DiscordAnswerSink(
            wire=self._wire, budget=self._budget, channel_id=thread.id, reply_to=message.id
        )

        async def refuse(words: str) -> None:
            await self._kit.refuse(sink, words)

        async def answer(admitted: Admitted) -> None:
            if heard.heard is Heard.POST:  # the post is citebot's to follow from now on
                await self._kit.join_thread(
                    str(thread.id),
                    str(thread.id),
                    person=str(message.author.id),
                    server=str(thread.guild.id),
                )
            question = Question(
                text=heard.text,
                platform=self._kit.name,
                user_id=str(message.author.id),
                channel_id=str(thread.parent_id),
                server_id=str(thread.guild.id),
                thread_id=str(thread.id),
            )
            await self._kit.ask(question, sink)

        arrival = Arrival(
            keys=(f"message:{message.id}",),
            venue=place_of(thread.guild.id, thread, thread.id),
            heard=heard.heard,
        )
        await self._kit.take(arrival, answer, refuse=refuse)

    async def _heard(self, message: discord.Message) -> _Heard | None:
        """How ``message`` reaches citebot, and where; None when it does not (whether the
        place's settings let it in is the kit's to say)."""
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
        if forum and message.id == thread.id:  # a new post: its starter message
            if not self._message_content or not text:
                return None
            return _Heard(thread, _post_question(thread.name, text), Heard.POST)
        ours = thread.owner_id == me.id or (
            forum and await self._kit.thread_of(str(thread.id)) is not None
        )
        if not ours:
            return None
        if mentioned:
            return _Heard(thread, text, Heard.MENTION)
        if not self._message_content or not text or _addressed_elsewhere(message, me.id):
            return None
        if forum and message.author.id != thread.owner_id:
            return None  # in a forum post, the others' replies are answers to the poster
        return _Heard(thread, text, Heard.REPLY)


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
