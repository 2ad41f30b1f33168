"""citebot's application commands, declared once for the worker, ``citebot sync-commands`` and
``citebot manifest discord``.

- ``/ask question:<text> private:<bool>``;
- ``/citebot settings show|set|unset|history``, ``/citebot answers list|add|remove`` (the
  server's own answers) and ``/citebot report period:<today|7d|30d>``, for a server's admins,
  beside ``/citebot forget-me``, which everyone may use: so ``/citebot`` sets no default
  permission, and the adapter checks Manage Server itself;
- the message commands "Check with sources" and "Check with sources privately", named in each
  language citebot speaks (``name_localizations``).

Every command may be installed to a server or to a user (``integration_types`` 0 and 1) and
used in servers, in the bot's DM and in other DMs and group DMs (``contexts`` 0, 1 and 2).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from bot.adapter import KEYS
from bot.i18n.wording import Wording
from integrations.discord.admin_view import Where
from integrations.discord.report_view import PERIODS

__all__ = [
    "CHECK",
    "CHECK_PRIVATELY",
    "Handlers",
    "add_commands",
    "command_tree",
    "declared_tree",
    "localized_names",
]

CHECK = Wording().check_with_sources()
CHECK_PRIVATELY = Wording().check_with_sources_privately()
_MESSAGE_COMMANDS: dict[str, Callable[[Wording], str]] = {
    CHECK: Wording.check_with_sources,
    CHECK_PRIVATELY: Wording.check_with_sources_privately,
}


class Handlers(Protocol):
    """What answers each command (the bot)."""

    async def ask(
        self, interaction: discord.Interaction, question: str, private: bool | None
    ) -> None: ...

    async def check(
        self, interaction: discord.Interaction, message: discord.Message, *, private: bool | None
    ) -> None:
        """``private`` None: as the place's ``private_by_default`` says."""

    async def settings_show(self, interaction: discord.Interaction, where: Where | None) -> None:
        """``where`` None: the settings in effect here, whichever place set them."""

    async def settings_set(
        self, interaction: discord.Interaction, setting: str, where: Where
    ) -> None: ...

    async def settings_unset(
        self, interaction: discord.Interaction, setting: str, where: Where
    ) -> None: ...

    async def settings_history(self, interaction: discord.Interaction, where: Where | None) -> None:
        """``where`` None: the server's changes and this channel's."""

    async def answers_list(self, interaction: discord.Interaction, where: Where) -> None: ...

    async def answers_add(self, interaction: discord.Interaction, where: Where) -> None: ...

    async def answers_remove(
        self, interaction: discord.Interaction, answer: str, where: Where
    ) -> None: ...

    async def report(self, interaction: discord.Interaction, period: str) -> None:
        """``period``: one of :data:`~integrations.discord.report_view.PERIODS`."""

    async def forget_me(self, interaction: discord.Interaction) -> None: ...


def command_tree(client: discord.Client) -> app_commands.CommandTree[Any]:
    """A tree whose every command may be installed to a server or a user and used anywhere."""
    return app_commands.CommandTree(
        client,
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
    )


class _Unanswered:
    """The handlers of commands declared only (synced, printed), never run."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"a declared command's {name} answers nothing")


def declared_tree() -> app_commands.CommandTree[Any]:
    """The commands as declared, for ``citebot sync-commands`` and ``citebot manifest``: no
    client runs them (one is made, never connected, as discord.py's tree needs one; its
    warnings about voice support are about nothing citebot uses)."""
    voice = logging.getLogger("discord.client")
    level = voice.level
    voice.setLevel(logging.ERROR)
    try:
        client = discord.Client(intents=discord.Intents.default())
    finally:
        voice.setLevel(level)
    tree = command_tree(client)
    add_commands(tree, cast(Handlers, _Unanswered()))
    return tree


_SETTINGS = [app_commands.Choice(name=key, value=key) for key in KEYS]
_PERIODS = [app_commands.Choice(name=name, value=value) for value, name in PERIODS.items()]


def add_commands(tree: app_commands.CommandTree[Any], handlers: Handlers) -> None:
    """Every command, each answered by ``handlers``."""

    @tree.command(name="ask", description="Ask a question; the answer cites its sources")
    @app_commands.describe(
        question="What you want to know",
        private="Only you see the answer (no thread); by default as this server's admins chose",
    )
    async def ask(
        interaction: discord.Interaction, question: str, private: bool | None = None
    ) -> None:
        await handlers.ask(interaction, question, private)

    tree.add_command(_citebot(handlers))

    async def check(interaction: discord.Interaction, message: discord.Message) -> None:
        await handlers.check(interaction, message, private=None)

    async def check_privately(interaction: discord.Interaction, message: discord.Message) -> None:
        await handlers.check(interaction, message, private=True)

    tree.add_command(app_commands.ContextMenu(name=CHECK, callback=check))
    tree.add_command(app_commands.ContextMenu(name=CHECK_PRIVATELY, callback=check_privately))
    del ask


def _citebot(handlers: Handlers) -> app_commands.Group:
    citebot = app_commands.Group(
        name="citebot", description="citebot's settings and report here, and your data"
    )
    settings = app_commands.Group(
        name="settings",
        description="citebot's settings here (for those who may manage the server)",
        parent=citebot,
    )
    where_show = "The server's, or this channel's (the default: all in effect here)"
    where = "The server's (the default), or this channel's"

    @settings.command(name="show", description="The settings in effect here")
    @app_commands.describe(where=where_show)
    async def show(interaction: discord.Interaction, where: Where | None = None) -> None:
        await handlers.settings_show(interaction, where)

    @settings.command(name="set", description="Change a setting here")
    @app_commands.describe(setting="The setting to change", where=where)
    @app_commands.choices(setting=_SETTINGS)
    async def set_(interaction: discord.Interaction, setting: str, where: Where = "server") -> None:
        await handlers.settings_set(interaction, setting, where)

    @settings.command(name="unset", description="Let a setting follow the server or the default")
    @app_commands.describe(setting="The setting to let go", where=where)
    @app_commands.choices(setting=_SETTINGS)
    async def unset(
        interaction: discord.Interaction, setting: str, where: Where = "server"
    ) -> None:
        await handlers.settings_unset(interaction, setting, where)

    @settings.command(name="history", description="Who changed which setting here, and when")
    @app_commands.describe(where="Only the server's, or only this channel's (default: both)")
    async def history(interaction: discord.Interaction, where: Where | None = None) -> None:
        await handlers.settings_history(interaction, where)

    answers = app_commands.Group(
        name="answers",
        description="Questions this server answers itself (for those who may manage it)",
        parent=citebot,
    )

    @answers.command(name="list", description="The own answers kept here, with their IDs")
    @app_commands.describe(where=where)
    async def answers_list(interaction: discord.Interaction, where: Where = "server") -> None:
        await handlers.answers_list(interaction, where)

    @answers.command(name="add", description="Keep a question and the answer it gets here")
    @app_commands.describe(where=where)
    async def answers_add(interaction: discord.Interaction, where: Where = "server") -> None:
        await handlers.answers_add(interaction, where)

    @answers.command(name="remove", description="Remove an own answer by its ID")
    @app_commands.describe(id="As list shows it", where=where)
    async def answers_remove(
        interaction: discord.Interaction, id: str, where: Where = "server"
    ) -> None:
        await handlers.answers_remove(interaction, id, where)

    @citebot.command(name="report", description="What was asked here and how it went (admins)")
    @app_commands.describe(period="How far back (the default: the last 7 days)")
    @app_commands.choices(period=_PERIODS)
    async def report(interaction: discord.Interaction, period: str = "7d") -> None:
        await handlers.report(interaction, period)

    @citebot.command(name="forget-me", description="Delete everything citebot keeps about you")
    async def forget_me(interaction: discord.Interaction) -> None:
        await handlers.forget_me(interaction)

    del show, set_, unset, history, answers_list, answers_add, answers_remove, report, forget_me
    return citebot


def localized_names(name: str) -> dict[str, str]:
    """A message command's name in each Discord locale whose language citebot speaks (Discord
    shows it in the context menu in the user's own language)."""
    said = _MESSAGE_COMMANDS.get(name)
    if said is None:
        return {}
    names: dict[str, str] = {}
    for locale in discord.Locale:
        language = Wording(language=locale.value).language
        if language == "en":  # English is the name itself; a language without a catalogue too
            continue
        names[locale.value] = said(Wording(language=language))
    return names
