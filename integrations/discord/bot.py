"""The Discord bot: ``/ask``, its buttons, and follow-ups in the threads it made.

It translates only: a command, click or mention becomes a :class:`bot.answer.Question`, a
:class:`bot.kit.Place` and a :class:`DiscordAnswerSink`, and the platform kit does the rest.
No privileged intent is needed: slash commands carry their text, and mentions of the bot carry
theirs.

Every way in (``/ask`` in a channel, a thread or a DM, a mention in the bot's thread, a button)
is claimed once by its Discord id before anything is done, so any number of workers receiving
the same gateway events answer it once, and passes the kit's one authorization check, a thread
judged by its parent channel.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from bot.answer import Question
from bot.i18n.wording import catalogue_language
from bot.kit import Place, PlatformKit
from integrations.discord.commands import add_ask_command, sync_if_changed
from integrations.discord.settings import DiscordSettings
from integrations.discord.shards import ShardedClient, Shards
from integrations.discord.sink import (
    DiscordAnswerSink,
    InteractionToken,
    RouteBudgets,
    answer_key,
    thread_name,
)
from integrations.discord.wire import DiscordWire, rate_limit_trace

log = logging.getLogger(__name__)

__all__ = ["CitebotDiscord"]

FEEDBACK = "citebot:feedback:"
RELATED = "citebot:related:"
ALREADY_ACKNOWLEDGED = 40060
UNKNOWN_INTERACTION = 10062


def _place(guild_id: int | None, channel: object, channel_id: int | None) -> Place:
    """Where a question is asked: a thread is judged by its parent channel (a forum post by its
    forum); a DM is outside any server."""
    parent = channel.parent_id if isinstance(channel, discord.Thread) else channel_id
    return Place(
        server=None if guild_id is None else str(guild_id),
        channel=None if parent is None else str(parent),
        direct=guild_id is None,
    )


def _mention_free(text: str, bot_id: int) -> str:
    return re.sub(rf"<@!?{bot_id}>", " ", text).strip()


def _may_thread(interaction: discord.Interaction) -> bool:
    """Whether a thread may be made under the answer: asking where Discord will refuse (403
    50013) counts toward its invalid-request limit, and interactions say what the bot may do."""
    allowed = interaction.app_permissions
    return (
        type(interaction.channel) is discord.TextChannel
        and allowed.create_public_threads
        and allowed.send_messages_in_threads
    )


def _language(interaction: discord.Interaction) -> str | None:
    """The catalogue for the user's Discord language (``pt-BR`` -> ``pt_BR``); None: the
    default. ``locale`` is the user's own client language; ``guild_locale`` is not read: it is
    ``en-US`` unless a community server changed it, so it would hide ``CITEBOT_LANGUAGE``."""
    return catalogue_language(interaction.locale.value)


class CitebotDiscord(ShardedClient):
    """One bot process: the shards ``shard_plan`` gives it (:mod:`integrations.discord.shards`)."""

    def __init__(
        self,
        *,
        kit: PlatformKit,
        environment: DiscordSettings,
        shard_plan: Shards,
        sync: bool = True,
        ready: asyncio.Event | None = None,
        **options: Any,
    ) -> None:
        super().__init__(
            shard_plan=shard_plan,
            ready=ready,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=rate_limit_trace(kit.rate_limited),
            # nothing reads a cached message back; 1000 of them only held memory
            max_messages=None,
            **options,
        )
        self.kit = kit
        self.environment = environment
        self.wire = DiscordWire(self.http)
        self.budgets = RouteBudgets()
        """Discord's buckets, shared by every answer this bot writes."""
        self.tree: app_commands.CommandTree[CitebotDiscord] = app_commands.CommandTree(self)
        self._sync = sync
        add_ask_command(self.tree, self._ask)

    async def setup_hook(self) -> None:
        # The gateway is asked of the configured REST base, so a proxy or simulator serves both;
        # discord.py also falls back to DEFAULT_GATEWAY after an invalidated session.
        shards, url, limits = await self.http.get_bot_gateway()
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await self.plan_shards(recommended=shards, limits=dict(limits))
        if self._sync:
            await sync_if_changed(self, self.tree)

    # -- questions -----------------------------------------------------------------------------

    async def _refused_here(self, interaction: discord.Interaction) -> bool:
        """Refuse (privately, in the asker's words) a click or command where citebot may not
        answer; True when refused."""
        place = _place(interaction.guild_id, interaction.channel, interaction.channel_id)
        refusal = await self.kit.refusal(place, _language(interaction))
        if refusal is None:
            return False
        await interaction.response.send_message(refusal, ephemeral=True)
        return True

    def _our_thread(self, channel: object) -> discord.Thread | None:
        """The channel if it is a thread this bot opened (a conversation), else None."""
        if (
            isinstance(channel, discord.Thread)
            and self.user is not None
            and (channel.owner_id == self.user.id)
        ):
            return channel
        return None

    async def _ask(
        self, interaction: discord.Interaction, question: str, private: bool | None
    ) -> None:
        """``private`` None: the asker did not say, and the place's ``private_by_default``
        decides."""
        if not await self.kit.claim(f"interaction:{interaction.id}"):
            return
        if await self._refused_here(interaction):
            return
        if private is None:
            place = _place(interaction.guild_id, interaction.channel, interaction.channel_id)
            private = (await self.kit.settings_at(place)).private_by_default
        await self._answer_interaction(interaction, question, private=private)

    async def _answer_interaction(
        self, interaction: discord.Interaction, question: str, *, private: bool
    ) -> None:
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
        channel = interaction.channel
        assert interaction.channel_id is not None
        thread = self._our_thread(channel)
        if thread is not None:
            conversation: tuple[int, int | None] = (thread.parent_id, thread.id)
        else:
            conversation = (interaction.channel_id, original)
        sink = DiscordAnswerSink(
            wire=self.wire,
            budgets=self.budgets,
            channel_id=interaction.channel_id,
            ephemeral=private,
            interaction=InteractionToken(
                application_id=interaction.application_id,
                token=interaction.token,
                issued_at=issued,
                original_id=original,
            ),
            can_thread=_may_thread(interaction),
            thread_name=thread_name(question),
        )
        await self.kit.ask(
            Question(
                text=question,
                platform=self.kit.name,
                user_id=str(interaction.user.id),
                channel_id=str(conversation[0]),
                server_id=None if interaction.guild_id is None else str(interaction.guild_id),
                thread_id=None if private or conversation[1] is None else str(conversation[1]),
                language=_language(interaction),
                locale=interaction.locale.value,
            ),
            sink,
        )

    async def on_message(self, message: discord.Message) -> None:
        """A mention of the bot in one of its threads is a follow-up question."""
        if message.author.bot or self.user is None or self.user.id not in message.raw_mentions:
            return
        thread = self._our_thread(message.channel)
        if thread is None or not await self.kit.claim(f"message:{message.id}"):
            return
        sink = DiscordAnswerSink(
            wire=self.wire, budgets=self.budgets, channel_id=thread.id, reply_to=message.id
        )
        place = _place(message.guild.id if message.guild else None, thread, thread.id)
        refusal = await self.kit.refusal(place, None)
        if refusal is not None:
            await self.kit.refuse(sink, refusal)
            return
        await self.kit.ask(
            Question(
                text=_mention_free(message.content, self.user.id),
                platform=self.kit.name,
                user_id=str(message.author.id),
                channel_id=str(thread.parent_id),
                server_id=str(message.guild.id) if message.guild else None,
                thread_id=str(thread.id),
            ),
            sink,
        )

    # -- buttons -------------------------------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component or not interaction.data:
            return
        custom_id = str(interaction.data.get("custom_id", ""))
        if not custom_id.startswith((FEEDBACK, RELATED)):
            return
        if not await self.kit.claim(f"interaction:{interaction.id}"):
            return
        if await self._refused_here(interaction):
            return
        if custom_id.startswith(FEEDBACK):
            await self._feedback(interaction, custom_id.removeprefix(FEEDBACK))
        elif custom_id.startswith(RELATED):
            await self._related(interaction, custom_id)

    async def _feedback(self, interaction: discord.Interaction, value: str) -> None:
        """Thank first: the 3 s to acknowledge must not wait on the state store."""
        assert interaction.message is not None
        wording = self.kit.wording(_language(interaction))
        await interaction.response.send_message(wording.feedback_thanks(), ephemeral=True)
        await self.kit.vote(
            answer_key=answer_key(interaction.message.id),
            user_id=str(interaction.user.id),
            value=value,
        )

    async def _related(self, interaction: discord.Interaction, custom_id: str) -> None:
        """Ask the clicked related question where the button is (the answer's thread); under a
        private answer, privately again (only the asker sees those buttons at all)."""
        assert interaction.message is not None
        labels = [
            child.label
            for row in interaction.message.components
            for child in getattr(row, "children", ())
            if getattr(child, "custom_id", None) == custom_id
        ]
        if not labels or not labels[0]:
            await interaction.response.defer()
            return
        private = interaction.message.flags.ephemeral
        await self._answer_interaction(interaction, labels[0], private=private)
