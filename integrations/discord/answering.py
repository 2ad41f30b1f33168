"""An answer to an interaction: ``/ask``, a related question's button, a claim checked.

The answer streams into the interaction's response, then its followups; the cards go in a
thread on it where the bot may open one, else as followups. Where the bot is not a member (a
user's install), the interaction's five followups are shared out: the answer takes at most
:data:`ANSWER_MESSAGES_WITHOUT_BOT` messages, the cards the rest, and cards that do not fit
are listed, linked, in the last one (:func:`integrations.discord.cards.left_over`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

import discord

from bot.adapter import Kit, Question, WriteBudget
from bot.render.ports import Payload
from integrations.discord.cards import left_over
from integrations.discord.place import FOLLOWUPS_WITHOUT_BOT, Here, may_thread
from integrations.discord.routes import InteractionToken
from integrations.discord.sink import DiscordAnswerSink, thread_name
from integrations.discord.wire import DiscordWire

__all__ = [
    "ALREADY_ACKNOWLEDGED",
    "ANSWER_MESSAGES_WITHOUT_BOT",
    "UNKNOWN_INTERACTION",
    "InteractionAnswers",
]

log = logging.getLogger(__name__)

ALREADY_ACKNOWLEDGED = 40060
UNKNOWN_INTERACTION = 10062
ANSWER_MESSAGES_WITHOUT_BOT = FOLLOWUPS_WITHOUT_BOT - 2
"""The response and two followups, where only a user's install reaches: the other three
followups are the cards'."""

OurThread = Callable[[object], discord.Thread | None]


class InteractionAnswers:
    """Answers to interactions, written through one bot's wire and buckets."""

    def __init__(
        self, *, kit: Kit, wire: DiscordWire, budget: WriteBudget, our_thread: OurThread
    ) -> None:
        self._kit = kit
        self._wire = wire
        self._budget = budget
        self._our_thread = our_thread

    async def answer(
        self,
        interaction: discord.Interaction,
        question: str,
        *,
        private: bool,
        here: Here,
        own_answers: bool = True,
    ) -> None:
        """Defer ("is thinking…", private or not), then answer ``question`` in the response
        (``own_answers`` False: from the sources, the asker having pressed "Ask the
        sources")."""
        issued = time.monotonic()
        try:
            response = await interaction.response.defer(ephemeral=private, thinking=True)
        except discord.HTTPException as error:
            if error.code not in (ALREADY_ACKNOWLEDGED, UNKNOWN_INTERACTION):
                raise
            # Another session took it (a worker on a store that is down), or it came too late.
            log.warning("interaction %s not answered here: %s", interaction.id, error.text)
            return
        original = response.message_id if response is not None else None
        assert interaction.channel_id is not None
        thread = self._our_thread(interaction.channel)
        if thread is not None:
            conversation: tuple[int, int | None] = (thread.parent_id, thread.id)
        else:  # in someone's thread or forum post, its parent's settings apply
            conversation = (int(here.place.channel or interaction.channel_id), original)
        token = self.token(interaction, issued=issued, original=original)
        sink = self.sink(
            interaction,
            here,
            token=token,
            private=private,
            can_thread=may_thread(interaction),
            name=thread_name(question),
        )
        await self.ask(
            interaction,
            question,
            sink,
            here,
            conversation=conversation,
            remember=not private,
            messages=ANSWER_MESSAGES_WITHOUT_BOT,
            own_answers=own_answers,
        )

    @staticmethod
    def token(
        interaction: discord.Interaction, *, issued: float, original: int | None
    ) -> InteractionToken:
        return InteractionToken(
            application_id=interaction.application_id,
            token=interaction.token,
            issued_at=issued,
            original_id=original,
        )

    def sink(
        self,
        interaction: discord.Interaction,
        here: Here,
        *,
        token: InteractionToken,
        private: bool,
        can_thread: bool,
        name: str,
        original_taken: bool = False,
    ) -> DiscordAnswerSink:
        """Where an interaction's answer goes: its response and followups, as many as the
        place allows, the cards that do not fit listed in the asker's words."""
        words = self._kit.wording(here.language)

        def overflow(payloads: Sequence[Payload]) -> Payload | None:
            return left_over(payloads, words)

        assert interaction.channel_id is not None
        return DiscordAnswerSink(
            wire=self._wire,
            budget=self._budget,
            channel_id=interaction.channel_id,
            ephemeral=private,
            interaction=token,
            can_thread=can_thread,
            thread_name=name,
            bot_member=here.bot_member,
            followups=here.followups,
            overflow=overflow,
            original_taken=original_taken,
        )

    async def ask(
        self,
        interaction: discord.Interaction,
        question: str,
        sink: DiscordAnswerSink,
        here: Here,
        *,
        conversation: tuple[int, int | None],
        remember: bool,
        messages: int,
        own_answers: bool = True,
    ) -> None:
        """Ask ``question`` into ``sink``; ``conversation``: its channel (a thread's parent,
        whose settings apply) and the thread its turns are remembered in for follow-ups (not
        for a private answer: ``remember`` False); ``messages``: how many it may take where
        only a user's install reaches."""
        channel, thread = conversation
        await self._kit.ask(
            Question(
                text=question,
                platform=self._kit.name,
                user_id=str(interaction.user.id),
                channel_id=str(channel),
                server_id=None if interaction.guild_id is None else str(interaction.guild_id),
                direct=here.place.direct,
                thread_id=None if thread is None or not remember else str(thread),
                language=here.language,
                locale=interaction.locale.value,
                own_answers=own_answers,
            ),
            sink,
            max_messages=None if here.bot_member else messages,
        )
