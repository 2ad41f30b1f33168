"""Forgetting on Discord: ``/citebot forget-me``, and a server that removes the bot.

``/citebot forget-me`` is everyone's, wherever the app can be used (a server, its DM, a DM or
group DM through a person's own install), and neither the allowlists nor a place's ``enabled``
stand in its way: a person's right to be forgotten does not depend on where they ask. It asks
first, privately and in the person's language: what will be deleted, that it cannot be undone,
and what it cannot delete (the messages already on Discord, which are Discord's), with one
button. The click deletes everything kept about whoever clicks (only the asker sees the message,
and nobody can delete anyone else's data this way) and says so in place of the question; a
store that does not answer is said, and the button stays for another try.

The bot removed from a server (the gateway's GUILD_DELETE without ``unavailable``; discord.py's
``on_guild_remove``) deletes everything kept about that server; an outage (``unavailable:
true``, ``on_guild_unavailable``) deletes nothing. When the store does not answer, the deletion
is tried again a few times, then logged as an error naming the server.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.adapter import FORGET_RETRIES, Admitted, ForgetTooSoon, Kit, StateUnavailable
from bot.i18n.wording import Wording
from bot.render.ports import Payload
from integrations.discord.admins import plain, private
from integrations.discord.place import arrival
from integrations.discord.types import ActionRow, CallbackType
from integrations.discord.wire import DiscordWire, message_body

__all__ = ["FORGET", "Forgetting"]

log = logging.getLogger(__name__)

FORGET = "citebot:forget"
"""``custom_id`` of the button that confirms forget-me."""
DISCORD = "Discord"


def _asked(words: Wording) -> Payload:
    asked = plain(f"{words.forget_me_asks()}\n\n{words.forget_me_leaves(DISCORD)}")
    button: ActionRow = {
        "type": 1,
        "components": [
            {"type": 2, "style": 4, "label": words.forget_me_button(), "custom_id": FORGET}
        ],
    }
    return {**asked, "components": [button]}


class Forgetting:
    def __init__(
        self, *, kit: Kit, wire: DiscordWire, retries: Sequence[float] = FORGET_RETRIES
    ) -> None:
        self._kit = kit
        self._wire = wire
        self._retries = tuple(retries)

    async def asked(self, interaction: discord.Interaction) -> None:
        """``/citebot forget-me``: what it will do, and the button that does it (anyone's,
        anywhere: no place refuses it)."""

        async def act(admitted: Admitted) -> None:
            body = private(_asked(admitted.words))
            await self._wire.respond(interaction.id, interaction.token, CallbackType.MESSAGE, body)

        await self._kit.take(arrival(interaction), act, gate="everyone")

    async def confirmed(self, interaction: discord.Interaction) -> None:
        """The button clicked: forget the person who clicked, and say so in its message."""

        async def act(admitted: Admitted) -> None:
            await self._wire.respond(
                interaction.id, interaction.token, CallbackType.DEFERRED_UPDATE
            )
            await self._forget(interaction, admitted.words)

        await self._kit.take(arrival(interaction), act, gate="everyone")

    async def _forget(self, interaction: discord.Interaction, words: Wording) -> None:
        try:
            forgotten = await self._kit.forget_person(str(interaction.user.id))
        except StateUnavailable:
            said = {**_asked(words), **plain(words.could_not_forget())}
        except ForgetTooSoon as soon:
            said = {**plain(words.forget_me_too_soon(soon.retry_after)), "components": []}
        else:
            log.info("forget-me: %d things kept about a person deleted", forgotten)
            done = f"{words.forgot_you()}\n\n{words.forget_me_leaves(DISCORD)}"
            said = {**plain(done), "components": []}
        await self._wire.edit_interaction_message(
            interaction.application_id, interaction.token, None, message_body(said)
        )

    def removed(self, guild_id: int) -> None:
        """The bot was removed from a server: delete its data, in the background."""
        self._kit.spawn(self._kit.forget_removed(str(guild_id), self._retries))
