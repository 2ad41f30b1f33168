"""Where an interaction happens, as the adapter needs it: the place whose settings and
allowlists apply, the asker's language, and what the app may do there.

An app installed to a user can be used where its bot is not a member: a server that never added
the bot, a group DM, a DM between two people (Discord's ``authorizing_integration_owners`` then
holds the user's install alone). There the interaction's own token is all it has (no bot token:
no thread, no message after the token's 15 minutes) and five followups per interaction at most
(receiving-and-responding.mdx, Create Followup Message).
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.adapter import Arrival, Venue
from bot.i18n.wording import catalogue_language

__all__ = [
    "FOLLOWUPS_WITHOUT_BOT",
    "Here",
    "arrival",
    "here",
    "language_of",
    "may_thread",
    "place_of",
]

FOLLOWUPS_WITHOUT_BOT = 5
"""Followups an interaction may send where only a user's install reaches (error 40094 past)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Here:
    place: Venue
    language: str | None
    """The asker's catalogue (None: the place's language, else the worker's)."""
    bot_member: bool
    """Whether the bot is a member here (a server that added it, its own DM): its token may
    post, open threads, and edit after the interaction's token has expired."""

    @property
    def followups(self) -> int | None:
        """The most followups one interaction may send here (None: as many as it needs)."""
        return None if self.bot_member else FOLLOWUPS_WITHOUT_BOT


def place_of(guild_id: int | None, channel: object, channel_id: int | None) -> Venue:
    """Where a question is asked: a thread is judged by its parent channel (a forum post by its
    forum); a DM is outside any server."""
    parent = channel.parent_id if isinstance(channel, discord.Thread) else channel_id
    return Venue(
        server=None if guild_id is None else str(guild_id),
        channel=None if parent is None else str(parent),
        direct=guild_id is None,
    )


def language_of(interaction: discord.Interaction) -> str | None:
    """The catalogue for the user's Discord language (``pt-BR`` -> ``pt_BR``); None: the
    default. ``locale`` is the user's own client language; ``guild_locale`` is not read: it is
    ``en-US`` unless a community server changed it, so it would hide ``CITEBOT_LANGUAGE``."""
    return catalogue_language(interaction.locale.value)


def here(interaction: discord.Interaction) -> Here:
    if interaction.guild_id is not None:
        member = interaction.is_guild_integration()
    else:  # the bot's own DM (BOT_DM), not a DM between people or a group (PRIVATE_CHANNEL)
        member = interaction.context.dm_channel and not interaction.context.private_channel
    return Here(
        place=place_of(interaction.guild_id, interaction.channel, interaction.channel_id),
        language=language_of(interaction),
        bot_member=member,
    )


def arrival(interaction: discord.Interaction) -> Arrival:
    """A command, a click or a modal as the kit takes it: claimed by its id, where it
    happens, in the person's Discord language."""
    at = here(interaction)
    return Arrival(keys=(f"interaction:{interaction.id}",), venue=at.place, language=at.language)


def may_thread(interaction: discord.Interaction) -> bool:
    """Whether a thread may be made under the answer: asking where Discord will refuse (403
    50013) counts toward its invalid-request limit, and interactions say what the bot may do
    (where it is not a member, nothing a thread needs)."""
    allowed = interaction.app_permissions
    return (
        type(interaction.channel) is discord.TextChannel
        and allowed.create_public_threads
        and allowed.send_messages_in_threads
    )
