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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.adapter import Kit
from bot.i18n.wording import Wording
from bot.render.ports import Payload
from integrations.discord.here import Here, here
from integrations.discord.markdown import DiscordMarkdown
from integrations.discord.types import EPHEMERAL, CallbackType
from integrations.discord.wire import DiscordWire, message_body

__all__ = [
    "REPORT",
    "SETTINGS",
    "AdminCommand",
    "Admitted",
    "Refusals",
    "place_names",
    "plain",
    "private",
]

log = logging.getLogger(__name__)

_MARKDOWN = DiscordMarkdown()


@dataclass(frozen=True, slots=True)
class Refusals:
    """What a command says outside any server, and to a member who may not use it."""

    outside_servers: Callable[[Wording], str]
    not_an_admin: Callable[[Wording], str]


SETTINGS = Refusals(Wording.no_place_settings_here, Wording.admins_only)
REPORT = Refusals(Wording.no_report_here, Wording.report_admins_only)


@dataclass(frozen=True, slots=True)
class Admitted:
    here: Here
    words: Wording


class AdminCommand:
    """The steps every admin's command takes: admit, defer, answer privately."""

    def __init__(self, *, kit: Kit, wire: DiscordWire) -> None:
        self._kit = kit
        self._wire = wire

    async def _admit(self, interaction: discord.Interaction, refusals: Refusals) -> Admitted | None:
        """Claim the interaction, then check who may: an admin of a server inside the
        allowlists. Anyone else is told why, and None returned."""
        if not await self._kit.claim(f"interaction:{interaction.id}"):
            return None
        at = here(interaction)
        words = await self._kit.words(at.place, at.language)
        servers = self._kit.environment.allowed_servers
        permissions = interaction.permissions
        if at.place.server is None:
            refusal = refusals.outside_servers(words)
        elif servers and at.place.server not in servers:
            refusal = words.not_allowed_here()
        elif not (permissions.manage_guild or permissions.administrator):
            refusal = refusals.not_an_admin(words)
        else:
            return Admitted(at, words)
        log.info("an admin's command refused to %s in %s", interaction.user.id, at.place.server)
        await self._respond(interaction, CallbackType.MESSAGE, private(plain(refusal)))
        return None

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
