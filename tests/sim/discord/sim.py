"""A faithful Discord on loopback: REST under ``/api/v10`` and a gateway websocket.

Point discord.py at it with ``discord.http.Route.BASE = sim.base_url`` (REST, interaction
callbacks, webhook followups) and the gateway URL it hands out from ``GET /gateway/bot``.
Tests drive people through :class:`~tests.sim.discord.people.People` (``slash_command``,
``message_command``, ``click_button``, ``choose``, ``submit_modal``, ``user_message``...), then
assert what a person would see (:meth:`channel_messages`, :meth:`thread_messages`) and what
crossed the wire (:attr:`requests`). The world it holds is :class:`~tests.sim.discord.world.
World`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.patience import PATIENCE
from tests.sim.discord.gateway import SESSION_ENDING, GatewaySession, gateway_handler
from tests.sim.discord.people import People
from tests.sim.discord.rest import add_rest_routes
from tests.sim.discord.wire import SIM

__all__ = ["DiscordSim"]


class DiscordSim(People):
    """The world and its people, served on loopback."""

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
        super().__init__(token=token, shards=shards, max_concurrency=max_concurrency)
        self.interaction_token_ttl = interaction_token_ttl
        self.ack_deadline = ack_deadline
        self.enforce_buckets = buckets
        self.heartbeat_ms = heartbeat_ms
        self.identify_seconds = identify_seconds
        """Discord takes one IDENTIFY per bucket (shard_id % max_concurrency) per 5 s; a faster
        one is answered with Invalid Session (op 9) and recorded in ``identify_refusals``."""
        self.session_starts = 1000
        self.identify_refusals: list[dict[str, Any]] = []
        self.session_log: list[GatewaySession] = []
        """Every session that identified, closed ones included (``closed_at`` set)."""
        self.resumes = 0
        self.identifies: list[dict[str, Any]] = []
        self.closes: list[int | None] = []
        self.connected = asyncio.Event()
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

    async def until(self, predicate: Callable[[], object], *, within: float = PATIENCE) -> None:
        """Wait until ``predicate()`` holds, re-checking after every request the sim answers."""
        async with asyncio.timeout(within), self.changed:
            await self.changed.wait_for(predicate)

    async def wait_connected(self) -> None:
        """Until a client has identified and received READY and the guild."""
        async with asyncio.timeout(PATIENCE):
            await self.connected.wait()

    def shard_sessions(self) -> dict[int, list[GatewaySession]]:
        """The identified sessions now open, by shard."""
        live: dict[int, list[GatewaySession]] = {}
        for session in self.sessions:
            if session.identified:
                live.setdefault(session.shard[0], []).append(session)
        return live

    async def wait_shards(self, *, within: float = PATIENCE) -> None:
        """Until every shard has exactly one identified session."""
        await self.until(
            lambda: all(len(self.shard_sessions().get(s, ())) == 1 for s in range(self.shards)),
            within=within,
        )

    # -- injected failures -------------------------------------------------------------------

    async def close_gateway(self, code: int) -> None:
        """Discord closes every gateway connection with ``code``: 4000 or 1001 let a client
        resume its session; 4007 and 4009 end the session (a client identifies anew)."""
        for session in list(self.sessions):
            session.resumable = code not in SESSION_ENDING
            await session.ws.close(code=code, message=b"closed by the simulator")
