"""The Discord bot: ``/ask``, its buttons, and follow-ups in the threads it made.

It translates only: a command, click or mention becomes a :class:`bot.answer.Question` and a
:class:`DiscordAnswerSink`, and :class:`bot.service.AnswerService` does the rest. No privileged
intent is needed: slash commands carry their text, and mentions of the bot carry theirs.

Every way in (``/ask`` in a channel, a thread or a DM, a mention in the bot's thread, a button)
is claimed once in the state store by its Discord id before anything is done, so any number of
workers receiving the same gateway events answer it once, and passes one authorization check
(:meth:`CitebotDiscord._allowed`), a thread judged by its parent channel.
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
from bot.pacing import Pacer
from bot.render.ports import Presenter
from bot.service import AnswerService
from config import Settings
from integrations.discord.commands import add_ask_command, sync_if_changed
from integrations.discord.shards import ShardedClient, Shards
from integrations.discord.sink import (
    DiscordAnswerSink,
    InteractionToken,
    RouteBudgets,
    thread_name,
)
from integrations.discord.wire import DiscordWire, rate_limit_trace

log = logging.getLogger(__name__)

__all__ = ["CitebotDiscord"]

FEEDBACK = "citebot:feedback:"
RELATED = "citebot:related:"
PLATFORM = "discord"
CLAIM_SECONDS = 1.0
"""The longest a claim may wait for the state store: the interaction must be acknowledged
within 3 s, so past this the worker answers (the store failing open, as everywhere)."""
ALREADY_ACKNOWLEDGED = 40060
UNKNOWN_INTERACTION = 10062


def _place(channel: object, channel_id: int | None) -> int | None:
    """Where a question is asked, for the allowlists: a thread's parent channel (a forum post's
    forum), else the channel itself."""
    if isinstance(channel, discord.Thread):
        return channel.parent_id
    return channel_id


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
        settings: Settings,
        service: AnswerService,
        presenter: Presenter,
        pacer: Pacer,
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
            http_trace=rate_limit_trace(service.metrics.platform_429s.labels("discord").inc),
            # nothing reads a cached message back; 1000 of them only held memory
            max_messages=None,
            **options,
        )
        self.settings = settings
        self.service = service
        self.presenter = presenter
        self.pacer = pacer
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

    def _allowed(self, guild_id: int | None, place: int | None) -> bool:
        """The one authorization check of every way in; ``place`` is :func:`_place`'s."""
        guilds = self.settings.discord_guild_allowlist
        channels = self.settings.discord_channel_allowlist
        return (not guilds or str(guild_id) in guilds) and (not channels or str(place) in channels)

    async def _claim(self, kind: str, discord_id: int) -> bool:
        """Whether this worker is the one to act on it: the first to claim it in the state
        store. Another worker's claim is dropped without a trace but a counter."""
        try:
            async with asyncio.timeout(CLAIM_SECONDS):
                first = await self.service.state.first_time(f"{PLATFORM}:{kind}:{discord_id}")
        except TimeoutError:
            log.warning("the state store did not answer a claim in time; answering anyway")
            return True
        if not first:
            self.service.metrics.dedup_hits.labels(PLATFORM).inc()
            log.info("dropped a %s another worker took (%s)", kind, discord_id)
        return first

    async def _refused_here(self, interaction: discord.Interaction) -> bool:
        """Refuse (privately, in the asker's words) a click or command where citebot may not
        answer; True when refused."""
        if self._allowed(interaction.guild_id, _place(interaction.channel, interaction.channel_id)):
            return False
        wording = self.service.wording_for(_language(interaction), PLATFORM)
        await interaction.response.send_message(wording.not_allowed_here(), ephemeral=True)
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

    async def _ask(self, interaction: discord.Interaction, question: str, private: bool) -> None:
        if not await self._claim("interaction", interaction.id):
            return
        if await self._refused_here(interaction):
            return
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
        await self.service.ask(
            Question(
                text=question,
                platform=PLATFORM,
                user_id=str(interaction.user.id),
                channel_id=str(conversation[0]),
                thread_id=None if private or conversation[1] is None else str(conversation[1]),
                language=_language(interaction),
                locale=interaction.locale.value,
            ),
            presenter=self.presenter,
            sink=sink,
            pacer=self.pacer,
        )

    async def on_message(self, message: discord.Message) -> None:
        """A mention of the bot in one of its threads is a follow-up question."""
        if message.author.bot or self.user is None or self.user.id not in message.raw_mentions:
            return
        thread = self._our_thread(message.channel)
        if thread is None or not await self._claim("message", message.id):
            return
        sink = DiscordAnswerSink(
            wire=self.wire, budgets=self.budgets, channel_id=thread.id, reply_to=message.id
        )
        if not self._allowed(message.guild.id if message.guild else None, thread.parent_id):
            await self.service.refuse(
                sink, self.presenter, self.service.wording_for(None, PLATFORM).not_allowed_here()
            )
            return
        await self.service.ask(
            Question(
                text=_mention_free(message.content, self.user.id),
                platform=PLATFORM,
                user_id=str(message.author.id),
                channel_id=str(thread.parent_id),
                thread_id=str(thread.id),
            ),
            presenter=self.presenter,
            sink=sink,
            pacer=self.pacer,
        )

    # -- buttons -------------------------------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component or not interaction.data:
            return
        custom_id = str(interaction.data.get("custom_id", ""))
        if not custom_id.startswith((FEEDBACK, RELATED)):
            return
        if not await self._claim("interaction", interaction.id):
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
        wording = self.service.wording_for(_language(interaction), PLATFORM)
        await interaction.response.send_message(wording.feedback_thanks(), ephemeral=True)
        await self.service.record_feedback(
            platform=PLATFORM,
            answer_key=f"{PLATFORM}:{interaction.message.id}",
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
