"""What people do in the simulated Discord, each as Discord's gateway tells the bot: a slash
command (with its subcommands), a message command on someone's message, a click, a choice in a
select menu, a modal filled in, a message posted, edited or replied, a forum post started, the
bot removed from a guild."""

from __future__ import annotations

import secrets
import time
from typing import Any

from tests.sim.discord.events import GUILDS, announce, interaction_create, modal_submission
from tests.sim.discord.model import ChannelType, SimChannel, SimInteraction, SimMessage, SimUser
from tests.sim.discord.world import World

__all__ = ["People"]

_OPTION_TYPES = {bool: 5, int: 4, float: 10, str: 3}


class People(World):
    """The world, and the people acting in it (default: ``user``, in ``text``)."""

    def _who(self, user_id: int | None) -> SimUser:
        return self.users[user_id] if user_id is not None else self.user

    def _interaction(
        self,
        type_: int,
        channel: SimChannel,
        user: SimUser,
        data: dict[str, Any],
        message: SimMessage | None = None,
        *,
        locale: str = "en-US",
    ) -> dict[str, Any]:
        interaction = SimInteraction(
            id=self.ids(),
            token=f"aW50ZXJhY3Rpb24{secrets.token_urlsafe(48)}",
            type=type_,
            user=user,
            channel=channel,
            created=time.monotonic(),
            message=message,
            owners=self.integration_owners(channel, user),
        )
        self.interactions[interaction.token] = interaction
        return interaction_create(self, interaction, data, locale)

    async def _deliver(self, payload: dict[str, Any], channel: SimChannel) -> SimInteraction:
        interaction = self.interactions[payload["token"]]
        interaction.delivered = payload
        await self.dispatch("INTERACTION_CREATE", payload, guild_id=channel.guild_id)
        return interaction

    async def redeliver(self, interaction: SimInteraction) -> None:
        """The same INTERACTION_CREATE once more, as a second session identifying the same
        shard receives it (two unsharded workers each get every interaction)."""
        await self.dispatch(
            "INTERACTION_CREATE", interaction.delivered, guild_id=interaction.channel.guild_id
        )

    async def slash_command(
        self,
        name: str,
        options: dict[str, Any],
        *,
        channel_id: int | None = None,
        user_id: int | None = None,
        locale: str = "en-US",
    ) -> SimInteraction:
        """A person runs ``/name`` (INTERACTION_CREATE type 2) with their Discord client set to
        ``locale``; ``name`` may name a subcommand (``citebot settings set``), whose options
        ``options`` are then. Returns the interaction."""
        channel = self.channels[channel_id or self.text.id]
        command, *path = name.split()
        registered = self.commands.get(command, {"id": str(self.ids())})
        given = [
            {"name": key, "type": _OPTION_TYPES[type(value)], "value": value}
            for key, value in options.items()
        ]
        for depth, part in enumerate(reversed(path)):
            given = [{"name": part, "type": 1 if depth == 0 else 2, "options": given}]
        data: dict[str, Any] = {
            "id": registered["id"],
            "name": command,
            "type": 1,
            "options": given,
        }
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        payload = self._interaction(2, channel, self._who(user_id), data, locale=locale)
        return await self._deliver(payload, channel)

    async def message_command(
        self, name: str, target: SimMessage, *, user_id: int | None = None, locale: str = "en-US"
    ) -> SimInteraction:
        """A person picks the app's message command ``name`` on ``target`` (type 2, command
        type 3): Discord resolves the message, its content included without MESSAGE_CONTENT
        (gateway.mdx, Message Content Intent)."""
        channel = self.channels[target.channel_id]
        registered = self.commands.get(name)
        if registered is None or registered.get("type") != 3:
            raise AssertionError(f"no message command {name!r} is registered")
        data = {
            "id": registered["id"],
            "name": name,
            "type": 3,
            "target_id": str(target.id),
            "resolved": {"messages": {str(target.id): target.payload()}},
        }
        payload = self._interaction(2, channel, self._who(user_id), data, locale=locale)
        return await self._deliver(payload, channel)

    async def click_button(
        self, message_id: int, custom_id: str, *, user_id: int | None = None, locale: str = "en-US"
    ) -> SimInteraction:
        """A person clicks a button under a message (INTERACTION_CREATE type 3)."""
        message = self.messages[message_id]
        if custom_id not in {b.get("custom_id") for b in message.buttons()}:
            raise AssertionError(f"no button {custom_id!r} under message {message_id}")
        channel = self.channels[message.channel_id]
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self._interaction(3, channel, self._who(user_id), data, message, locale=locale)
        return await self._deliver(payload, channel)

    async def choose(
        self,
        message_id: int,
        custom_id: str,
        values: list[str],
        *,
        user_id: int | None = None,
        locale: str = "en-US",
    ) -> SimInteraction:
        """A person picks ``values`` in a string select under a message (type 3, component 3);
        only the options it offers can be picked."""
        message = self.messages[message_id]
        select = next((c for c in message.buttons() if c.get("custom_id") == custom_id), None)
        if select is None or select.get("type") != 3:
            raise AssertionError(f"no string select {custom_id!r} under message {message_id}")
        offered = {option["value"] for option in select["options"]}
        if not set(values) <= offered:
            raise AssertionError(f"{values} are not among the options {sorted(offered)}")
        channel = self.channels[message.channel_id]
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        payload = self._interaction(3, channel, self._who(user_id), data, message, locale=locale)
        return await self._deliver(payload, channel)

    async def submit_modal(
        self,
        shown: SimInteraction,
        values: dict[str, str | None],
        *,
        locale: str = "en-US",
    ) -> SimInteraction:
        """The person ``shown`` a modal fills it in (``custom_id`` -> what they typed or chose;
        None: left empty) and submits it (type 5). Refused as Discord's client would refuse it:
        a required field left empty, a choice not offered, text past its length."""
        if shown.modal is None:
            raise AssertionError("that interaction was not answered with a modal")
        data = modal_submission(shown.modal, values)
        payload = self._interaction(
            5, shown.channel, shown.user, data, shown.message, locale=locale
        )
        return await self._deliver(payload, shown.channel)

    async def user_message(
        self,
        channel_id: int,
        content: str,
        *,
        mentions: list[int] | None = None,
        user_id: int | None = None,
        reply_to: SimMessage | None = None,
    ) -> SimMessage:
        """A person posts (``reply_to``: as a reply); without MESSAGE_CONTENT the bot sees
        content only if mentioned or in its DM."""
        channel = self.channels[channel_id]
        mentioned = [self.users[i] for i in mentions or []]
        message = self.add_message(channel, self._who(user_id), {"content": content})
        message.mentions = mentioned
        message.reply_to = reply_to
        await announce(self, message)
        return message

    async def user_edit(self, message: SimMessage, content: str) -> None:
        """The author edits their message (MESSAGE_UPDATE)."""
        message.apply({"content": content}, create=False)
        await announce(self, message, "MESSAGE_UPDATE")

    async def start_forum_post(
        self, title: str, content: str, *, user_id: int | None = None
    ) -> SimChannel:
        """A person starts a post in the forum: a thread whose starter message has the thread's
        id; the gateway sends THREAD_CREATE, then MESSAGE_CREATE for the starter message."""
        author = self._who(user_id)
        post = SimChannel(
            id=self.ids(),
            type=ChannelType.PUBLIC_THREAD,
            name=title,
            guild_id=self.forum.guild_id,
            parent_id=self.forum.id,
            owner_id=author.id,
        )
        self.channels[post.id] = post
        starter = self.add_message(post, author, {"content": content})
        del self.messages[starter.id]
        starter.id = post.id
        self.messages[starter.id] = starter
        created = {**post.payload(), "newly_created": True}
        await self.dispatch("THREAD_CREATE", created, guild_id=post.guild_id, intent=GUILDS)
        await announce(self, starter)
        return post

    async def remove_bot(self, guild_id: int | None = None) -> None:
        """An admin removes the bot from a guild (default: the first): the guild's shard gets
        GUILD_DELETE with no ``unavailable`` ("If the unavailable field is not set, the user was
        removed from the guild", gateway-events.mdx, Guild Delete), and from then on the guild
        is one the bot is not in (its token refused, no events; people's own installs of the
        app still reach it)."""
        guild = guild_id or self.guild_id
        self.joined.discard(guild)
        await self.dispatch("GUILD_DELETE", {"id": str(guild)}, guild_id=guild, intent=GUILDS)

    def add_message(
        self,
        channel: SimChannel,
        author: SimUser,
        body: dict[str, Any],
        *,
        interaction: SimInteraction | None = None,
        flags: int = 0,
    ) -> SimMessage:
        message = SimMessage(
            id=self.ids(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            interaction=interaction,
            flags=flags,
            webhook_id=self.application_id if interaction else None,
        )
        message.apply(body, create=True)
        message.flags |= flags
        channel.messages.append(message)
        self.messages[message.id] = message
        return message
