"""What a server's admins ask of citebot (``/citebot settings``, ``/citebot report``): who may,
and how they are answered.

Discord sets a default permission per top-level command only, and ``/citebot`` also carries
``forget-me``, which everyone may use, so each step checks the member's own Manage Server
permission (``interaction.permissions``: Discord resolves it, Administrator included) before
anything, in a server inside the guild allowlist. Anyone else is told so, privately and in their
language, and nothing is done or shown. Everything is answered privately (ephemeral), in the
admin's Discord language, else the place's.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import discord

from bot.adapter import Admins, Admitted, Kit
from bot.i18n.wording import Wording
from bot.render.ports import Payload
from integrations.discord.markdown import DiscordMarkdown
from integrations.discord.place import Here, arrival, here
from integrations.discord.types import EPHEMERAL, CallbackType
from integrations.discord.wire import DiscordWire, message_body

__all__ = ["Admin", "AdminCommand", "place_names", "plain", "private"]

log = logging.getLogger(__name__)

_MARKDOWN = DiscordMarkdown()


@dataclass(frozen=True, slots=True)
class Admin:
    """An admin let through: where they act, in their words."""

    here: Here
    words: Wording


class AdminCommand:
    """The steps every admin's command takes: admit, defer, answer privately."""

    def __init__(self, *, kit: Kit, wire: DiscordWire) -> None:
        self._kit = kit
        self._wire = wire

    async def _admit(
        self,
        interaction: discord.Interaction,
        act: Callable[[Admin], Awaitable[None]],
        *,
        duty: Literal["settings", "report"] = "settings",
    ) -> None:
        """Through the kit's steps, an admin's gate: the member's own Manage Server (or
        Administrator) permission, as Discord resolves it for the interaction, in a server
        the allowlists let in. Anyone else is told why, privately, and nothing is done."""
        at = here(interaction)
        permissions = interaction.permissions

        async def is_admin() -> bool:
            return permissions.manage_guild or permissions.administrator

        async def refuse(words: str) -> None:
            log.info("an admin's command refused to %s in %s", interaction.user.id, at.place.server)
            await self._respond(interaction, CallbackType.MESSAGE, private(plain(words)))

        async def admitted(passed: Admitted) -> None:
            await act(Admin(at, passed.words))

        gate = Admins(is_admin=is_admin, duty=duty)
        await self._kit.take(arrival(interaction), admitted, gate=gate, refuse=refuse)

    async def _defer(self, interaction: discord.Interaction) -> None:
        """ "is thinking…", seen by the admin alone (the only flag a deferral takes)."""
        await self._respond(interaction, CallbackType.DEFERRED_MESSAGE, {"flags": EPHEMERAL})

    async def _respond(
        self, interaction: discord.Interaction, kind: int, data: Mapping[str, Any] | None = None
    ) -> None:
        await self._wire.respond(interaction.id, interaction.token, kind, data)

    async def _show(self, interaction: discord.Interaction, body: Payload) -> None:
        """Show ``body`` in the deferred response (or in the message whose component was
        used)."""
        await self._wire.edit_interaction_message(
            interaction.application_id, interaction.token, None, message_body(body)
        )


def plain(text: str) -> Payload:
    """Words of citebot's (with an admin's value in them, maybe) as literal text."""
    lines = [_MARKDOWN.escape(line, line_start=True) for line in text.split("\n")]
    return {"content": "\n".join(lines)}


def private(payload: Payload) -> Payload:
    return message_body(payload, ephemeral=True)


def place_names(interaction: discord.Interaction, words: Wording) -> Callable[[str | None], str]:
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
