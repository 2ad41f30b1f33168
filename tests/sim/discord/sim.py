"""A faithful Discord on loopback: REST under ``/api/v10`` and a gateway websocket.

Point discord.py at it with ``discord.http.Route.BASE = sim.base_url`` (REST, interaction
callbacks, webhook followups) and the gateway URL it hands out from ``GET /gateway/bot``.
Tests drive users through :meth:`DiscordSim.slash_command`, :meth:`click_button` and
:meth:`user_message`, then assert what a person would see (:meth:`channel_messages`,
:meth:`thread_messages`) and what crossed the wire (:attr:`requests`).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.sim.discord.events import announce, interaction_create
from tests.sim.discord.gateway import SESSION_ENDING, GatewaySession, gateway_handler
from tests.sim.discord.guilds import CREATE_PUBLIC_THREADS, EVERYONE_PERMISSIONS, guild_payload
from tests.sim.discord.model import (
    ChannelType,
    SimChannel,
    SimInteraction,
    SimMessage,
    SimUser,
    Snowflakes,
)
from tests.sim.discord.rest import add_rest_routes
from tests.sim.discord.wire import SIM, Bucket, RecordedRequest, Refusal

__all__ = ["DiscordSim"]


class DiscordSim:
    """One guild (text, no-thread-permission, forum with a post), a DM, a bot and a user."""

    def __init__(
        self,
        *,
        token: str = "sim-bot-token",
        interaction_token_ttl: float = 900.0,
        ack_deadline: float = 3.0,
        buckets: bool = True,
        heartbeat_ms: int = 41250,
        shards: int = 1,
        max_concurrency: int = 1,
        identify_seconds: float = 5.0,
    ) -> None:
        self.token = token
        self.interaction_token_ttl = interaction_token_ttl
        self.ack_deadline = ack_deadline
        self.enforce_buckets = buckets
        self.heartbeat_ms = heartbeat_ms
        self.shards = shards
        """The shard count ``GET /gateway/bot`` recommends."""
        self.max_concurrency = max_concurrency
        self.identify_seconds = identify_seconds
        """Discord takes one IDENTIFY per bucket (shard_id % max_concurrency) per 5 s; a faster
        one is answered with Invalid Session (op 9) and recorded in ``identify_refusals``."""
        self.session_starts = 1000
        self.identify_refusals: list[dict[str, Any]] = []
        self.session_log: list[GatewaySession] = []
        """Every session that identified, closed ones included (``closed_at`` set)."""
        self.guild_names: dict[int, str] = {}
        self._extra_guilds = 0
        self.ids = Snowflakes()
        self.application_id = self.ids()
        self.bot = SimUser(id=self.application_id, name="citebot", bot=True)
        self.user = SimUser(id=self.ids(), name="alice")
        self.users = {self.bot.id: self.bot, self.user.id: self.user}
        self.guild_id = self.ids()
        self.guild_names[self.guild_id] = "Sim Guild"
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
        self.resumes = 0
        self.identifies: list[dict[str, Any]] = []
        self.closes: list[int | None] = []
        self.connected = asyncio.Event()
        self.changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> DiscordSim:
        app = web.Application()
        app[SIM] = self
        app.router.add_get("/gateway", gateway_handler)
        add_rest_routes(app, self)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        for session in list(self.sessions):
            await session.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordSim:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def until(self, predicate: Callable[[], object], *, within: float = 10.0) -> None:
        """Wait until ``predicate()`` holds, re-checking after every request the sim answers."""
        async with asyncio.timeout(within), self.changed:
            await self.changed.wait_for(predicate)

    async def wait_connected(self) -> None:
        """Until a client has identified and received READY and the guild."""
        async with asyncio.timeout(10):
            await self.connected.wait()

    def shard_sessions(self) -> dict[int, list[GatewaySession]]:
        """The identified sessions now open, by shard."""
        live: dict[int, list[GatewaySession]] = {}
        for session in self.sessions:
            if session.identified:
                live.setdefault(session.shard[0], []).append(session)
        return live

    async def wait_shards(self, *, within: float = 30.0) -> None:
        """Until every shard has exactly one identified session."""
        await self.until(
            lambda: all(len(self.shard_sessions().get(s, ())) == 1 for s in range(self.shards)),
            within=within,
        )

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

    def add_guild(self, name: str) -> SimChannel:
        """Another guild, with one text channel (returned). Guilds added one after another
        fall on consecutive shards ((guild_id >> 22) % count), so a few of them spread over
        every shard."""
        self._extra_guilds += 1
        guild_id = ((self.guild_id >> 22) + self._extra_guilds) << 22 | self._extra_guilds
        self.guild_names[guild_id] = name
        return self.add_text_channel(name, guild_id=guild_id)

    def guild_ids(self) -> list[int]:
        return [self.guild_id, *(g for g in self.guild_names if g != self.guild_id)]

    def shard_of(self, guild_id: int | None) -> int:
        """The shard Discord sends a guild's events to (DMs: shard 0)."""
        return 0 if guild_id is None else (guild_id >> 22) % self.shards

    def app_permissions(self, channel: SimChannel) -> int:
        """The bot's permissions in ``channel``, as interactions carry them: @everyone's, less
        CREATE_PUBLIC_THREADS where the channel's overwrite denies it."""
        if channel.can_create_threads:
            return EVERYONE_PERMISSIONS
        return EVERYONE_PERMISSIONS & ~CREATE_PUBLIC_THREADS

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

    # -- injected users ----------------------------------------------------------------------

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
        )
        self.interactions[interaction.token] = interaction
        return interaction_create(self, interaction, data, locale)

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
        ``locale``; returns the interaction."""
        channel = self.channels[channel_id or self.text.id]
        command = self.commands.get(name, {"id": str(self.ids())})
        kinds = {bool: 5, int: 4, float: 10, str: 3}
        data = {
            "id": command["id"],
            "name": name,
            "type": 1,
            "options": [
                {"name": key, "type": kinds[type(value)], "value": value}
                for key, value in options.items()
            ],
        }
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        payload = self._interaction(2, channel, self._who(user_id), data, locale=locale)
        await self.dispatch("INTERACTION_CREATE", payload, guild_id=channel.guild_id)
        return self.interactions[payload["token"]]

    async def click_button(
        self, message_id: int, custom_id: str, *, user_id: int | None = None, locale: str = "en-US"
    ) -> SimInteraction:
        """A person clicks a button under a message (INTERACTION_CREATE type 3)."""
        message = self.messages[message_id]
        if custom_id not in {b.get("custom_id") for b in message.buttons()}:
            raise AssertionError(f"no button {custom_id!r} under message {message_id}")
        channel = self.channels[message.channel_id]
        payload = self._interaction(
            3,
            channel,
            self._who(user_id),
            {"custom_id": custom_id, "component_type": 2},
            message,
            locale=locale,
        )
        await self.dispatch("INTERACTION_CREATE", payload, guild_id=channel.guild_id)
        return self.interactions[payload["token"]]

    async def user_message(
        self,
        channel_id: int,
        content: str,
        *,
        mentions: list[int] | None = None,
        user_id: int | None = None,
    ) -> SimMessage:
        """A person posts; without MESSAGE_CONTENT the bot sees content only if mentioned/DM."""
        channel = self.channels[channel_id]
        mentioned = [self.users[i] for i in mentions or []]
        message = self.add_message(channel, self._who(user_id), {"content": content})
        message.mentions = mentioned
        await announce(self, message)
        return message

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

    # -- injected failures -------------------------------------------------------------------

    async def close_gateway(self, code: int) -> None:
        """Discord closes every gateway connection with ``code``: 4000 or 1001 let a client
        resume its session; 4007 and 4009 end the session (a client identifies anew)."""
        for session in list(self.sessions):
            session.resumable = code not in SESSION_ENDING
            await session.ws.close(code=code, message=b"closed by the simulator")

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
