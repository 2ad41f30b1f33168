"""``/citebot settings``: a server's settings and one channel's, changed in Discord.

Each subcommand, menu and modal admits only the server's admins, through the kit's admins'
gate (:mod:`integrations.discord.admins`: anyone else is told so, privately and in their
language, and nothing changes), and answers privately in the admin's language. The settings
change through the kit (:meth:`~bot.adapter.Kit.change_setting`); a value refused is said in
the admin's words, a store that does not answer too.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.adapter import Refusal, StateUnavailable, Venue, made_or_refused, written
from bot.render.ports import Payload
from integrations.discord.admin_view import (
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
from integrations.discord.admins import Admin, AdminCommand, place_names, plain, private
from integrations.discord.modals import modal_values
from integrations.discord.place import Here
from integrations.discord.types import CallbackType

__all__ = ["SettingsAdmin", "target_of"]


class SettingsAdmin(AdminCommand):
    """The subcommands of ``/citebot settings``, and the menus and modals they open."""

    # -- the subcommands ---------------------------------------------------------------------

    async def show(self, interaction: discord.Interaction, where: Where | None) -> None:
        async def act(admin: Admin) -> None:
            await self._defer(interaction)
            target = target_of(admin.here, where or "channel")
            settings = await self._kit.settings_at(target)
            names = place_names(interaction, admin.words)
            place = names(_stored(target))
            await self._say(interaction, settings_listing(settings, place, names, admin.words))

        await self._admit(interaction, act)

    async def set(self, interaction: discord.Interaction, setting: str, where: Where) -> None:
        """A select menu of the setting's values, or a modal to write it."""

        async def act(admin: Admin) -> None:
            target = target_of(admin.here, where)
            value = written(getattr(await self._kit.settings_at(target), setting))
            if by_menu(setting):
                place = place_names(interaction, admin.words)(_stored(target))
                menu = value_menu(setting, where, value, place, admin.words)
                await self._respond(interaction, CallbackType.MESSAGE, private(menu))
            else:
                modal = value_modal(setting, where, value, admin.words)
                await self._respond(interaction, CallbackType.MODAL, modal)

        await self._admit(interaction, act)

    async def unset(self, interaction: discord.Interaction, setting: str, where: Where) -> None:
        async def act(admin: Admin) -> None:
            await self._defer(interaction)
            await self._change(interaction, admin, target_of(admin.here, where), setting, None)

        await self._admit(interaction, act)

    async def history(self, interaction: discord.Interaction, where: Where | None) -> None:
        async def act(admin: Admin) -> None:
            await self._defer(interaction)
            wheres: list[Where] = ["server", "channel"] if where is None else [where]
            try:
                changes = [
                    change
                    for target in dict.fromkeys(target_of(admin.here, w) for w in wheres)
                    for change in await self._kit.setting_history(target)
                ]
            except StateUnavailable:
                await self._say(interaction, admin.words.could_not_save())
                return
            changes.sort(key=lambda change: change.at)
            names = place_names(interaction, admin.words)
            await self._say(interaction, history_listing(changes, names, admin.words))

        await self._admit(interaction, act)

    # -- what the menus and modals send back -------------------------------------------------

    async def chosen(self, interaction: discord.Interaction) -> None:
        """A value picked in a setting's select menu: the menu's message says what changed."""
        found, data = _targeted(interaction)
        values = list(data.get("values") or ())
        if found is None or len(values) != 1:
            return
        where, key = found

        async def act(admin: Admin) -> None:
            await self._respond(interaction, CallbackType.DEFERRED_UPDATE)
            target = target_of(admin.here, where)
            await self._change(interaction, admin, target, key, values[0], menu=True)

        await self._admit(interaction, act)

    async def submitted(self, interaction: discord.Interaction) -> None:
        """A modal's value for a setting (empty: ``none``)."""
        found, data = _targeted(interaction)
        if found is None:
            return
        where, key = found
        value = (modal_values(data).get(VALUE) or "").strip() or "none"

        async def act(admin: Admin) -> None:
            await self._defer(interaction)
            await self._change(interaction, admin, target_of(admin.here, where), key, value)

        await self._admit(interaction, act)

    # -- the steps ----------------------------------------------------------------------------

    async def _change(
        self,
        interaction: discord.Interaction,
        admin: Admin,
        target: Venue,
        key: str,
        value: str | None,
        *,
        menu: bool = False,
    ) -> None:
        """Change ``key`` where ``target`` is and say so (``menu``: in place of the menu)."""
        words = admin.words
        change = self._kit.change_setting(target, key, value, by=str(interaction.user.id))
        made = await made_or_refused(change, words)
        if isinstance(made, Refusal):
            said = plain(made.said)["content"]
        else:
            now = shown_value(written(getattr(await self._kit.settings_at(target), key)), words)
            code = f"`{key}`"
            said = words.setting_saved(code, now) if value else words.setting_cleared(code, now)
        await self._say(interaction, said, menu=menu)

    async def _say(
        self, interaction: discord.Interaction, text: str, *, menu: bool = False
    ) -> None:
        """Show ``text`` in the deferred response (``menu``: in the menu's message, its menu
        gone)."""
        body: Payload = {"content": text, "components": []} if menu else {"content": text}
        await self._show(interaction, body)


def target_of(at: Here, where: Where) -> Venue:
    """The server's place, or the channel's where the command is run (a thread's parent)."""
    if where == "server":
        return Venue(server=at.place.server)
    return Venue(server=at.place.server, channel=at.place.channel)


def _stored(target: Venue) -> str:
    """``target`` as a stored place's text (``discord:GUILD/CHANNEL``)."""
    channel = f"/{target.channel}" if target.channel else ""
    return f"discord:{target.server}{channel}"


def _targeted(interaction: discord.Interaction) -> tuple[tuple[Where, str] | None, dict[str, Any]]:
    data: dict[str, Any] = dict(interaction.data or {})
    return setting_target(str(data.get("custom_id", ""))), data
