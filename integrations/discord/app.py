"""The Discord bot: its commands, its buttons, menus and modals, and the messages that are
questions.

It translates only: a command, click or message becomes a :class:`bot.answer.Question`, a
:class:`bot.kit.Venue` and a :class:`~integrations.discord.sink.DiscordAnswerSink`, and the
platform kit does the rest. Each way in has its module: ``/ask`` and related questions
(:mod:`.answering`), "Check with sources" (:mod:`.check`), ``/citebot settings``
(:mod:`.admin`), ``/citebot answers`` (:mod:`.answers`), ``/citebot report``
(:mod:`.report`), ``/citebot forget-me`` and the bot removed from a server
(:mod:`.forgetting`), 👍/👎 (:mod:`.feedback`), "Ask the sources" and "Ask a person"
(:mod:`.buttons`), follow-ups and forum posts (:mod:`.questions`).

Every way in is claimed once by its Discord id before anything is done, so any number of
workers receiving the same gateway events answer it once, and passes the kit's one
authorization check, a thread judged by its parent channel. Without the privileged Message
Content intent (``DISCORD_MESSAGE_CONTENT``) slash commands, message commands and mentions of
the bot still carry their text.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from bot.adapter import Act, Admitted, Kit, WriteBudget
from integrations.discord.admin import SettingsAdmin
from integrations.discord.admin_view import SET, Where
from integrations.discord.answering import InteractionAnswers
from integrations.discord.answers import ANSWER, OwnAnswersAdmin
from integrations.discord.buttons import AnswerButtons
from integrations.discord.cards import ACTION, FEEDBACK, RELATED
from integrations.discord.check import ClaimChecks
from integrations.discord.commands import add_commands, command_tree
from integrations.discord.feedback import REASON, Feedback
from integrations.discord.forgetting import FORGET, Forgetting
from integrations.discord.place import arrival, here
from integrations.discord.questions import Questions
from integrations.discord.report import ServerReport
from integrations.discord.settings import DiscordSettings
from integrations.discord.shards import ShardedClient, Shards
from integrations.discord.syncing import sync_if_changed
from integrations.discord.wire import DiscordWire, rate_limit_trace

log = logging.getLogger(__name__)

__all__ = ["CitebotDiscord", "intents"]


def intents(environment: DiscordSettings) -> discord.Intents:
    """discord.py's defaults (no privileged intent), and Message Content when switched on."""
    chosen = discord.Intents.default()
    chosen.message_content = environment.message_content
    return chosen


class CitebotDiscord(ShardedClient):
    """One bot process: the shards ``shard_plan`` gives it (:mod:`integrations.discord.shards`)."""

    def __init__(
        self,
        *,
        kit: Kit,
        environment: DiscordSettings,
        shard_plan: Shards,
        sync: bool = True,
        ready: asyncio.Event | None = None,
        budget: WriteBudget,
        **options: Any,
    ) -> None:
        super().__init__(
            shard_plan=shard_plan,
            ready=ready,
            intents=intents(environment),
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=rate_limit_trace(kit.rate_limited),
            # nothing reads a cached message back; 1000 of them only held memory
            max_messages=None,
            **options,
        )
        self.kit = kit
        self.environment = environment
        self.wire = DiscordWire(self.http)
        self.answers = InteractionAnswers(
            kit=kit, wire=self.wire, budget=budget, our_thread=self._our_thread
        )
        self.checks = ClaimChecks(kit=kit, wire=self.wire, budget=budget, answers=self.answers)
        self.admin = SettingsAdmin(kit=kit, wire=self.wire)
        self.own_answers = OwnAnswersAdmin(kit=kit, wire=self.wire)
        self.reports = ServerReport(kit=kit, wire=self.wire)
        self.forgetting = Forgetting(kit=kit, wire=self.wire)
        self.feedback = Feedback(kit=kit, wire=self.wire)
        self.buttons = AnswerButtons(kit=kit, wire=self.wire, answers=self.answers)
        self.questions = Questions(
            kit=kit,
            wire=self.wire,
            budget=budget,
            me=lambda: self.user,
            message_content=environment.message_content,
        )
        self.tree: app_commands.CommandTree[CitebotDiscord] = command_tree(self)
        self._sync = sync
        add_commands(self.tree, self)

    async def setup_hook(self) -> None:
        # The gateway is asked of the configured REST base, so a proxy or simulator serves both;
        # discord.py also falls back to DEFAULT_GATEWAY after an invalidated session.
        shards, url, limits = await self.http.get_bot_gateway()
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await self.plan_shards(recommended=shards, limits=dict(limits))
        if self._sync:
            await sync_if_changed(self, self.tree, self.wire)

    def _our_thread(self, channel: object) -> discord.Thread | None:
        """The channel if it is a thread this bot opened (a conversation), else None."""
        if (
            isinstance(channel, discord.Thread)
            and self.user is not None
            and (channel.owner_id == self.user.id)
        ):
            return channel
        return None

    async def _take(self, interaction: discord.Interaction, act: Act) -> None:
        """A command or a click through the kit's steps, refused privately in the asker's
        words where citebot may not answer."""

        async def refuse(words: str) -> None:
            await interaction.response.send_message(words, ephemeral=True)

        await self.kit.take(arrival(interaction), act, refuse=refuse)

    # -- the commands (commands.Handlers) ------------------------------------------------------

    async def ask(
        self, interaction: discord.Interaction, question: str, private: bool | None
    ) -> None:
        """``private`` None: the asker did not say, and the place's ``private_by_default``
        decides."""

        async def answer(admitted: Admitted) -> None:
            chosen = admitted.settings.private_by_default if private is None else private
            await self.answers.answer(interaction, question, private=chosen, here=here(interaction))

        await self._take(interaction, answer)

    async def check(
        self, interaction: discord.Interaction, message: discord.Message, *, private: bool | None
    ) -> None:
        await self.checks.check(interaction, message, private=private)

    async def settings_show(self, interaction: discord.Interaction, where: Where | None) -> None:
        await self.admin.show(interaction, where)

    async def settings_set(
        self, interaction: discord.Interaction, setting: str, where: Where
    ) -> None:
        await self.admin.set(interaction, setting, where)

    async def settings_unset(
        self, interaction: discord.Interaction, setting: str, where: Where
    ) -> None:
        await self.admin.unset(interaction, setting, where)

    async def settings_history(self, interaction: discord.Interaction, where: Where | None) -> None:
        await self.admin.history(interaction, where)

    async def answers_list(self, interaction: discord.Interaction, where: Where) -> None:
        await self.own_answers.list(interaction, where)

    async def answers_add(self, interaction: discord.Interaction, where: Where) -> None:
        await self.own_answers.add(interaction, where)

    async def answers_remove(
        self, interaction: discord.Interaction, answer: str, where: Where
    ) -> None:
        await self.own_answers.remove(interaction, answer, where)

    async def report(self, interaction: discord.Interaction, period: str) -> None:
        await self.reports.report(interaction, period)

    async def forget_me(self, interaction: discord.Interaction) -> None:
        await self.forgetting.asked(interaction)

    # -- servers ---------------------------------------------------------------------------------

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """GUILD_DELETE without ``unavailable``: the bot was removed (an outage is
        ``on_guild_unavailable``, and deletes nothing)."""
        self.forgetting.removed(guild.id)

    # -- messages ------------------------------------------------------------------------------

    async def on_message(self, message: discord.Message) -> None:
        await self.questions.on_message(message)

    # -- buttons, menus and modals ----------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if not interaction.data:
            return
        custom_id = str(interaction.data.get("custom_id", ""))
        if interaction.type is discord.InteractionType.modal_submit:
            if custom_id.startswith(SET):
                await self.admin.submitted(interaction)
            elif custom_id.startswith(ANSWER):
                await self.own_answers.submitted(interaction)
            elif custom_id.startswith(REASON):
                await self._take(interaction, lambda _: self.feedback.reason(interaction))
            return
        if interaction.type is not discord.InteractionType.component:
            return
        if custom_id.startswith(SET):
            await self.admin.chosen(interaction)
            return
        if custom_id == FORGET:  # everyone's, wherever they are: no place refuses it
            await self.forgetting.confirmed(interaction)
            return
        if custom_id.startswith(FEEDBACK):
            await self._take(interaction, lambda _: self.feedback.clicked(interaction, custom_id))
        elif custom_id.startswith(ACTION):
            await self._take(interaction, lambda _: self.buttons.pressed(interaction, custom_id))
        elif custom_id.startswith(RELATED):
            await self._take(interaction, lambda _: self._related(interaction, custom_id))

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
        await self.answers.answer(interaction, labels[0], private=private, here=here(interaction))
