"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, dispatches, and
RESUME: a session closed with a resumable code gets the events it missed, then RESUMED; one
closed with a code that ends the session (4007, 4009) gets INVALID_SESSION and identifies anew,
as Discord's gateway does."""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from tests.sim.discord.events import MESSAGE_CONTENT
from tests.sim.discord.wire import SIM

if TYPE_CHECKING:
    from tests.sim.discord.sim import DiscordSim

__all__ = ["GatewaySession", "gateway_handler"]

HELLO, HEARTBEAT, IDENTIFY, RESUME, INVALID_SESSION, HEARTBEAT_ACK, DISPATCH = 10, 1, 2, 6, 9, 11, 0
SESSION_ENDING = frozenset({4007, 4009})
"""Close codes after which Discord's docs say to identify a new session instead of resuming
(invalid seq, session timed out); the fatal ones (4004, 4010-4014) end the client too."""


@dataclass(eq=False)
class GatewaySession:
    ws: web.WebSocketResponse
    intents: int = 0
    shard: tuple[int, int] = (0, 1)
    seq: int = 0
    session_id: str = ""
    identified: bool = False
    identified_at: float = 0.0
    closed_at: float | None = None
    sent: list[tuple[int, str]] = field(default_factory=list)
    """Every dispatch of the session, numbered, kept for a RESUME to replay."""
    resumable: bool = True

    async def dispatch(self, event: str, data: Any) -> None:
        """Send an event; a client that is going away (a killed worker, a dropped connection)
        just misses it, as it would miss it from Discord, instead of failing the REST call that
        caused it; a resumed session gets it then."""
        self.seq += 1
        frame = json.dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data})
        self.sent.append((self.seq, frame))
        with contextlib.suppress(ConnectionResetError, RuntimeError):
            if not self.ws.closed:
                await self.ws.send_str(frame)

    def wants(self, guild_id: int | None) -> bool:
        """Guild events go to shard (guild_id >> 22) % count; DMs to shard 0."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id


async def _identify(sim: DiscordSim, session: GatewaySession, data: dict[str, Any]) -> bool:
    if data.get("token") not in (sim.token, f"Bot {sim.token}"):
        await session.ws.close(code=4004, message=b"Authentication failed.")
        return False
    if int(data.get("intents", 0)) & MESSAGE_CONTENT and not sim.message_content_allowed:
        # gateway.mdx, Gateway Restrictions: a privileged intent not enabled in the portal
        await session.ws.close(code=4014, message=b"Disallowed intent(s).")
        return False
    shard = data.get("shard") or [0, 1]
    if not _may_identify(sim, int(shard[0])):
        sim.identify_refusals.append(data)
        await session.ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
        return True
    session.intents = int(data.get("intents", 0))
    session.shard = (int(shard[0]), int(shard[1]))
    session.session_id = secrets.token_hex(16)
    session.identified = True
    session.identified_at = time.monotonic()
    sim.identifies.append(data)
    sim.session_log.append(session)
    guilds = [guild for guild in sim.guild_ids() if session.wants(guild)]
    await session.dispatch(
        "READY",
        {
            "v": 10,
            "user": {**sim.bot.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": sim.gateway_url,
            "shard": list(session.shard),
            "application": {"id": str(sim.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        },
    )
    for guild in guilds:
        await session.dispatch("GUILD_CREATE", sim.guild_payload(guild))
    async with sim.changed:
        sim.changed.notify_all()
    return True


def _may_identify(sim: DiscordSim, shard_id: int) -> bool:
    """Discord's identify limit: one per bucket (``shard_id % max_concurrency``) per
    ``identify_seconds``, and ``session_starts`` a day; a client over it gets Invalid Session
    (discord/discord-api-docs, docs/topics/Gateway.md at 00361fcd929e8d0ba9a1a3792d082d2aec969563:
    "Rate Limiting", "Max Concurrency")."""
    bucket = shard_id % sim.max_concurrency
    now = time.monotonic()
    last = max(
        (s.identified_at for s in sim.session_log if s.shard[0] % sim.max_concurrency == bucket),
        default=None,
    )
    if (last is not None and now - last < sim.identify_seconds) or sim.session_starts <= 0:
        return False
    sim.session_starts -= 1
    return True


async def gateway_handler(request: web.Request) -> web.WebSocketResponse:
    sim: DiscordSim = request.app[SIM]
    ws = web.WebSocketResponse(autoping=True)
    await ws.prepare(request)
    session = GatewaySession(ws)
    sim.sessions.append(session)
    try:
        await ws.send_str(
            json.dumps(
                {"op": HELLO, "d": {"heartbeat_interval": sim.heartbeat_ms}, "s": None, "t": None}
            )
        )
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            payload = json.loads(message.data)
            op, data = payload.get("op"), payload.get("d")
            if op == HEARTBEAT:
                await ws.send_str(json.dumps({"op": HEARTBEAT_ACK, "d": None}))
            elif op == IDENTIFY:
                if not await _identify(sim, session, data):
                    break
                sim.connected.set()
            elif op == RESUME:
                await _resume(sim, session, data)
    except ConnectionResetError:
        pass
    finally:
        session.closed_at = time.monotonic()
        sim.sessions.remove(session)
        if session.identified and session.resumable:
            sim.resumable[session.session_id] = session
        if not any(s.identified for s in sim.sessions):
            sim.connected.clear()
        sim.closes.append(ws.close_code)
        async with sim.changed:
            sim.changed.notify_all()
    return ws


async def _resume(sim: DiscordSim, session: GatewaySession, data: dict[str, Any]) -> None:
    """Take over a session that ended resumably: the events after the client's ``seq``, then
    RESUMED; else INVALID_SESSION (not resumable), and the client identifies again."""
    old = sim.resumable.pop(str(data.get("session_id")), None)
    if old is None or data.get("token") not in (sim.token, f"Bot {sim.token}"):
        await session.ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
        return
    session.intents, session.shard, session.session_id = old.intents, old.shard, old.session_id
    session.seq, session.sent, session.identified = old.seq, old.sent, True
    for seq, frame in old.sent:
        if seq > int(data.get("seq") or 0):
            await session.ws.send_str(frame)
    await session.dispatch("RESUMED", {})
    sim.resumes += 1
    sim.connected.set()
