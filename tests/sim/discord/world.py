"""What the simulated Discord holds, and what each user and session may see of it: the guilds
(the one the bot joined, more of them, and a foreign one where people use the app without its
bot, as a user install), its channels, DMs and group DMs, the people and their permissions, the
gateway sessions events go to, and the failures a test injects."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from tests.sim.discord.events import GUILDS
from tests.sim.discord.guilds import (
    CREATE_PUBLIC_THREADS,
    EVERYONE_PERMISSIONS,
    INTERACTION_PERMISSIONS,
    guild_payload,
)
from tests.sim.discord.model import (
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    ChannelType,
    SimChannel,
    SimInteraction,
    SimMessage,
    SimUser,
    Snowflakes,
)
from tests.sim.discord.wire import Bucket, RecordedRequest, Refusal

if TYPE_CHECKING:
    from tests.sim.discord.gateway import GatewaySession

__all__ = ["World"]


class World:
    """One guild the bot joined (text, no-thread-permission, forum with a post), a guild it did
    not (``foreign``: its app used there by a user install), a DM with the bot, a group DM
    without it; the bot, a member (``user``) and an admin with Manage Server (``admin``)."""

    def __init__(self, *, token: str, shards: int, max_concurrency: int) -> None:
        self.token = token
        self.shards = shards
        """The shard count ``GET /gateway/bot`` recommends."""
        self.max_concurrency = max_concurrency
        self.message_content_allowed = True
        """Whether the app's Message Content intent is on in its Developer Portal: an IDENTIFY
        asking for it otherwise is closed with 4014 (Disallowed intent(s))."""
        self.guild_names: dict[int, str] = {}
        self.joined: set[int] = set()
        """The guilds the bot is a member of; the others only see the app through a user's
        install (no GUILD_CREATE, no events, the bot token refused with 50001)."""
        self._extra_guilds = 0
        self.ids = Snowflakes()
        self.application_id = self.ids()
        self.bot = SimUser(id=self.application_id, name="citebot", bot=True)
        self.user = SimUser(id=self.ids(), name="alice")
        self.admin = SimUser(
            id=self.ids(), name="ada", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD
        )
        self.users = {u.id: u for u in (self.bot, self.user, self.admin)}
        self.guild_id = self.ids()
        self.guild_names[self.guild_id] = "Sim Guild"
        self.joined.add(self.guild_id)
        self.channels: dict[int, SimChannel] = {}
        self.text = self._channel(ChannelType.TEXT, "general", guild=True)
        self.no_threads = self._channel(
            ChannelType.TEXT, "announcements", guild=True, can_create_threads=False
        )
        self.forum = self._channel(ChannelType.FORUM, "questions", guild=True)
        self.forum_post = self._channel(
            ChannelType.PUBLIC_THREAD,
            "a forum post",
            guild=True,
            parent_id=self.forum.id,
            owner_id=self.user.id,
        )
        self.dm = self._channel(ChannelType.DM, "", recipient=self.user)
        self.group_dm = self._channel(ChannelType.GROUP_DM, "friends", recipient=self.user)
        self.foreign = self._foreign_guild("Elsewhere")
        self.messages: dict[int, SimMessage] = {}
        self.interactions: dict[str, SimInteraction] = {}
        self.commands: dict[str, dict[str, Any]] = {}
        self.command_puts = 0
        self.requests: list[RecordedRequest] = []
        self.rules: list[Refusal] = []
        self.buckets: dict[tuple[Any, ...], Bucket] = {}
        self.sessions: list[GatewaySession] = []
        self.resumable: dict[str, GatewaySession] = {}
        """Sessions whose connection closed with a resumable code, by session id: events still
        reach them (for the RESUME to replay)."""
        self.changed = asyncio.Condition()

    # -- the world -------------------------------------------------------------------------

    def _channel(self, type_: int, name: str, *, guild: bool = False, **kwargs: Any) -> SimChannel:
        channel = SimChannel(
            id=self.ids(),
            type=type_,
            name=name,
            guild_id=self.guild_id if guild else None,
            **kwargs,
        )
        self.channels[channel.id] = channel
        return channel

    def add_text_channel(self, name: str, *, guild_id: int | None = None) -> SimChannel:
        """Another text channel in the guild (default: the first); add it before the bot
        connects so its guild has it (benches ask one question per channel to stay inside the
        per-channel budget)."""
        channel = SimChannel(
            id=self.ids(), type=ChannelType.TEXT, name=name, guild_id=guild_id or self.guild_id
        )
        self.channels[channel.id] = channel
        return channel

    def add_thread(self, parent: SimChannel, name: str, *, owner: SimUser) -> SimChannel:
        """A public thread under ``parent`` started by ``owner`` (the bot: one of its answer
        threads); add it before the bot connects so its guild has it."""
        thread = SimChannel(
            id=self.ids(),
            type=ChannelType.PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
        )
        self.channels[thread.id] = thread
        return thread

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        """GUILD_CREATE for ``guild_id`` (default: the first guild)."""
        return guild_payload(self, guild_id or self.guild_id)

    def _new_guild_id(self) -> int:
        self._extra_guilds += 1
        return ((self.guild_id >> 22) + self._extra_guilds) << 22 | self._extra_guilds

    def add_guild(self, name: str) -> SimChannel:
        """Another guild the bot joined, with one text channel (returned). Guilds added one
        after another fall on consecutive shards ((guild_id >> 22) % count), so a few of them
        spread over every shard."""
        guild_id = self._new_guild_id()
        self.guild_names[guild_id] = name
        self.joined.add(guild_id)
        return self.add_text_channel(name, guild_id=guild_id)

    def _foreign_guild(self, name: str) -> SimChannel:
        guild_id = self._new_guild_id()
        self.guild_names[guild_id] = name
        return self.add_text_channel("chat", guild_id=guild_id)

    def guild_ids(self) -> list[int]:
        """The guilds the bot joined, the first one first."""
        others = (g for g in self.guild_names if g != self.guild_id and g in self.joined)
        return [self.guild_id, *others]

    def shard_of(self, guild_id: int | None) -> int:
        """The shard Discord sends a guild's events to (DMs: shard 0)."""
        return 0 if guild_id is None else (guild_id >> 22) % self.shards

    def bot_sees(self, channel: SimChannel) -> bool:
        """Whether the bot is in ``channel``: a channel of a guild it joined, or its own DM.
        Elsewhere its token is refused (50001) and no event of it reaches the gateway."""
        if channel.type == ChannelType.GROUP_DM:
            return False
        return channel.guild_id is None or channel.guild_id in self.joined

    def app_permissions(self, channel: SimChannel) -> int:
        """The app's permissions in ``channel``, as interactions carry them: @everyone's, less
        CREATE_PUBLIC_THREADS where the channel's overwrite denies it; where the bot is not a
        member, only what an interaction response can use (Discord's change log, 2022-06 and
        2024-03: ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE in (G)DMs with other users)."""
        if channel.type == ChannelType.GROUP_DM:
            return INTERACTION_PERMISSIONS
        if channel.type == ChannelType.DM:
            return INTERACTION_PERMISSIONS | (1 << 18)  # USE_EXTERNAL_EMOJIS in the bot's DM
        if not self.bot_sees(channel):
            return EVERYONE_PERMISSIONS & INTERACTION_PERMISSIONS
        if channel.can_create_threads:
            return EVERYONE_PERMISSIONS
        return EVERYONE_PERMISSIONS & ~CREATE_PUBLIC_THREADS

    def integration_owners(self, channel: SimChannel, user: SimUser) -> dict[str, str]:
        """``authorizing_integration_owners``: the guild install where the bot is a member
        (``"0"`` in its DM), else the user's own install (receiving-and-responding.mdx)."""
        if channel.type == ChannelType.DM:
            return {"0": "0"}
        if channel.guild_id is not None and channel.guild_id in self.joined:
            return {"0": str(channel.guild_id)}
        return {"1": str(user.id)}

    async def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        guild_id: int | None = None,
        intent: int | None = None,
    ) -> None:
        for session in [*self.sessions, *self.resumable.values()]:
            if not session.identified or not session.wants(guild_id):
                continue
            if intent is not None and not session.intents & intent:
                continue
            await session.dispatch(event, data)

    # -- injected failures -------------------------------------------------------------------

    def rate_limit_next(
        self, route: str, retry_after: float, *, count: int = 1, is_global: bool = False
    ) -> None:
        """Refuse the next ``count`` requests to ``route`` (``"PATCH /channels/{channel_id}/
        messages/{message_id}"`` or just the template) with a 429."""
        self.rules.append(Refusal(route, retry_after, count, is_global))

    def refuse_next(
        self, route: str, status: int, code: int, message: str, *, count: int = 1
    ) -> None:
        """Refuse the next ``count`` requests to ``route`` with a Discord error."""
        self.rules.append(Refusal(route, 0.0, count, error=(status, code, message)))

    async def guild_outage(self, guild_id: int | None = None) -> None:
        """Discord loses a guild (default: the first) for a while: its shard gets GUILD_DELETE
        with ``unavailable: true`` (gateway-events.mdx, Guild Delete: "unavailable due to an
        outage"); the bot stays a member."""
        guild = guild_id or self.guild_id
        unavailable = {"id": str(guild), "unavailable": True}
        await self.dispatch("GUILD_DELETE", unavailable, guild_id=guild, intent=GUILDS)

    async def guild_back(self, guild_id: int | None = None) -> None:
        """The guild is available again: GUILD_CREATE with the whole guild (gateway-events.mdx,
        Guild Create: "When a Guild becomes available again to the client")."""
        guild = guild_id or self.guild_id
        whole = self.guild_payload(guild)
        await self.dispatch("GUILD_CREATE", whole, guild_id=guild, intent=GUILDS)

    def expire_interaction_tokens(self) -> None:
        """Every interaction token issued so far is now older than 15 minutes."""
        for interaction in self.interactions.values():
            interaction.expired = True

    # -- what people see -------------------------------------------------------------------

    def channel_messages(self, channel_id: int, *, viewer: int | None = None) -> list[SimMessage]:
        return self.channels[channel_id].visible(viewer)

    def thread_of(self, message_id: int) -> SimChannel | None:
        thread_id = self.messages[message_id].thread_id
        return self.channels.get(thread_id) if thread_id else None

    def thread_messages(self, message_id: int) -> list[SimMessage]:
        thread = self.thread_of(message_id)
        return thread.visible() if thread else []

    def pinged(self) -> list[str]:
        """Every mention that notified someone, over all messages and edits."""
        return [p for m in self.messages.values() for p in m.pinged]

    def requests_to(self, route: str) -> list[RecordedRequest]:
        method, _, template = route.partition(" ") if " " in route else ("", "", route)
        return [
            r for r in self.requests if r.route == template and (not method or r.method == method)
        ]
