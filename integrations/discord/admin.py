"""``/citebot settings``: a server's settings and one channel's, changed in Discord.

Discord sets a default permission per top-level command only, and ``/citebot`` also carries
commands every member may use, so each subcommand, menu and modal checks the member's own
Manage Server permission (``interaction.permissions``: Discord resolves it, Administrator
included) before anything: anyone else is told so, privately and in their language, and nothing
changes. Everything is answered privately (ephemeral), in the admin's Discord language, else the
place's. The settings change through the kit (:meth:`~bot.kit.PlatformKit.change_setting`); a
value refused is said in the admin's words, a store that does not answer too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n.wording import Wording
from bot.kit import Place, PlatformKit
from bot.places import SettingRefused
from bot.places.keys import written
from bot.render.ports import Payload
from bot.state import StateUnavailable
from integrations.discord.admin_views import (
    VALUE,
    Where,
    by_menu,
    history_listing,
    setting_target,
    settings_listing,
    shown_value,
    value_menu,
    value_modal,
)
from integrations.discord.here import Here, here
from integrations.discord.markdown import DiscordMarkdown
from integrations.discord.modals import modal_values
from integrations.discord.types import EPHEMERAL, CallbackType
from integrations.discord.wire import DiscordWire, message_body

__all__ = ["SettingsAdmin"]

log = logging.getLogger(__name__)

_MARKDOWN = DiscordMarkdown()


@dataclass(frozen=True, slots=True)
class _Admitted:
    here: Here
    words: Wording


class SettingsAdmin:
    """The subcommands of ``/citebot settings``, and the menus and modals they open."""

    def __init__(self, *, kit: PlatformKit, wire: DiscordWire) -> None:
        self._kit = kit
        self._wire = wire

    # -- the subcommands ---------------------------------------------------------------------

    async def show(self, interaction: discord.Interaction, where: Where | None) -> None:
        admitted = await self._admit(interaction)
        if admitted is None:
            return
        await self._defer(interaction)
        target = _target(admitted.here, where or "channel")
        settings = await self._kit.settings_at(target)
        names = _names(interaction, admitted.words)
        place = names(_stored(target))
        await self._say(interaction, settings_listing(settings, place, names, admitted.words))

    async def set(self, interaction: discord.Interaction, setting: str, where: Where) -> None:
        """A select menu of the setting's values, or a modal to write it."""
        admitted = await self._admit(interaction)
        if admitted is None:
            return
        target = _target(admitted.here, where)
        value = written(getattr(await self._kit.settings_at(target), setting))
        if by_menu(setting):
            place = _names(interaction, admitted.words)(_stored(target))
            menu = value_menu(setting, where, value, place, admitted.words)
            await self._respond(interaction, CallbackType.MESSAGE, _private(menu))
        else:
            modal = value_modal(setting, where, value, admitted.words)
            await self._respond(interaction, CallbackType.MODAL, modal)

    async def unset(self, interaction: discord.Interaction, setting: str, where: Where) -> None:
        admitted = await self._admit(interaction)
        if admitted is None:
            return
        await self._defer(interaction)
        await self._change(interaction, admitted, _target(admitted.here, where), setting, None)

    async def history(self, interaction: discord.Interaction, where: Where | None) -> None:
        admitted = await self._admit(interaction)
        if admitted is None:
            return
        await self._defer(interaction)
        wheres: list[Where] = ["server", "channel"] if where is None else [where]
        try:
            changes = [
                change
                for target in dict.fromkeys(_target(admitted.here, w) for w in wheres)
                for change in await self._kit.setting_history(target)
            ]
        except StateUnavailable:
            await self._say(interaction, admitted.words.could_not_save())
            return
        changes.sort(key=lambda change: change.at)
        names = _names(interaction, admitted.words)
        await self._say(interaction, history_listing(changes, names, admitted.words))

    # -- what the menus and modals send back -------------------------------------------------

    async def chosen(self, interaction: discord.Interaction) -> None:
        """A value picked in a setting's select menu: the menu's message says what changed."""
        found, data = _targeted(interaction)
        values = list(data.get("values") or ())
        if found is None or len(values) != 1:
            return
        admitted = await self._admit(interaction)
        if admitted is None:
            return
        await self._respond(interaction, CallbackType.DEFERRED_UPDATE)
        where, key = found
        target = _target(admitted.here, where)
        await self._change(interaction, admitted, target, key, values[0], menu=True)

    async def submitted(self, interaction: discord.Interaction) -> None:
        """A modal's value for a setting (empty: ``none``)."""
        found, data = _targeted(interaction)
        if found is None:
            return
        admitted = await self._admit(interaction)
        if admitted is None:
            return
        await self._defer(interaction)
        where, key = found
        value = (modal_values(data).get(VALUE) or "").strip() or "none"
        await self._change(interaction, admitted, _target(admitted.here, where), key, value)

    # -- the steps ----------------------------------------------------------------------------

    async def _admit(self, interaction: discord.Interaction) -> _Admitted | None:
        """Claim the interaction, then check who may: an admin of a server inside the
        allowlists. Anyone else is told why, and None returned."""
        if not await self._kit.claim(f"interaction:{interaction.id}"):
            return None
        at = here(interaction)
        words = await self._kit.words(at.place, at.language)
        servers = self._kit.environment.allowed_servers
        permissions = interaction.permissions
        if at.place.server is None:
            refusal = words.no_place_settings_here()
        elif servers and at.place.server not in servers:
            refusal = words.not_allowed_here()
        elif not (permissions.manage_guild or permissions.administrator):
            refusal = words.admins_only()
        else:
            return _Admitted(at, words)
        log.info("settings refused to %s in %s", interaction.user.id, at.place.server)
        await self._respond(interaction, CallbackType.MESSAGE, _private(_plain(refusal)))
        return None

    async def _change(
        self,
        interaction: discord.Interaction,
        admitted: _Admitted,
        target: Place,
        key: str,
        value: str | None,
        *,
        menu: bool = False,
    ) -> None:
        """Change ``key`` where ``target`` is and say so (``menu``: in place of the menu)."""
        words = admitted.words
        try:
            await self._kit.change_setting(target, key, value, by=str(interaction.user.id))
        except SettingRefused as refused:
            said = _plain(refused.said(words))["content"]
        except StateUnavailable:
            said = _plain(words.could_not_save())["content"]
        else:
            now = shown_value(written(getattr(await self._kit.settings_at(target), key)), words)
            code = f"`{key}`"
            said = words.setting_saved(code, now) if value else words.setting_cleared(code, now)
        await self._say(interaction, said, menu=menu)

    async def _defer(self, interaction: discord.Interaction) -> None:
        """ "is thinking…", seen by the admin alone (the only flag a deferral takes)."""
        await self._respond(interaction, CallbackType.DEFERRED_MESSAGE, {"flags": EPHEMERAL})

    async def _respond(
        self, interaction: discord.Interaction, kind: int, data: Mapping[str, Any] | None = None
    ) -> None:
        await self._wire.respond(interaction.id, interaction.token, kind, data)

    async def _say(
        self, interaction: discord.Interaction, text: str, *, menu: bool = False
    ) -> None:
        """Show ``text`` in the deferred response (``menu``: in the menu's message, its menu
        gone)."""
        body: Payload = {"content": text, "components": []} if menu else {"content": text}
        await self._wire.edit_interaction_message(
            interaction.application_id, interaction.token, None, message_body(body)
        )


def _target(at: Here, where: Where) -> Place:
    """The server's place, or the channel's where the command is run (a thread's parent)."""
    if where == "server":
        return Place(server=at.place.server)
    return Place(server=at.place.server, channel=at.place.channel)


def _stored(target: Place) -> str:
    """``target`` as a stored place's text (``discord:GUILD/CHANNEL``)."""
    channel = f"/{target.channel}" if target.channel else ""
    return f"discord:{target.server}{channel}"


def _names(interaction: discord.Interaction, words: Wording) -> Callable[[str | None], str]:
    """How each stored place reads: the server by its name, a channel as its link."""
    guild = interaction.guild
    server_name = guild.name if guild is not None and guild.name else None

    def name(place: str | None) -> str:
        if place is None:
            return words.settings_labels.default
        server, _, channel = place.removeprefix("discord:").partition("/")
        if channel:
            return f"<#{channel}>"
        return server_name or server

    return name


def _targeted(interaction: discord.Interaction) -> tuple[tuple[Where, str] | None, dict[str, Any]]:
    data: dict[str, Any] = dict(interaction.data or {})
    return setting_target(str(data.get("custom_id", ""))), data


def _plain(text: str) -> Payload:
    """Words of citebot's (with an admin's value in them, maybe) as literal text."""
    lines = [_MARKDOWN.escape(line, line_start=True) for line in text.split("\n")]
    return {"content": "\n".join(lines)}


def _private(payload: Payload) -> Payload:
    return message_body(payload, ephemeral=True)
