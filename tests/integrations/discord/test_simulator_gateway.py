"""The simulated gateway keeps Discord's sharding rules, spoken to with raw websocket frames.

Discord: "Clients are limited by maximum concurrency when Identifying; if they exceed this
limit, the gateway will respond with an Opcode 9 Invalid Session"; a shard's rate limit key is
``shard_id % max_concurrency``, one identify per key per 5 s; a guild's events go to shard
``(guild_id >> 22) % num_shards`` and DMs to shard 0 (discord/discord-api-docs,
docs/topics/Gateway.md at 00361fcd929e8d0ba9a1a3792d082d2aec969563: "Rate Limiting",
"Sharding", "Max Concurrency").
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.patience import PATIENCE
from tests.sim.discord import DiscordSim

WINDOW = 0.3


@pytest.fixture
async def sim() -> AsyncIterator[DiscordSim]:
    async with DiscordSim(shards=4, max_concurrency=2, identify_seconds=WINDOW) as running:
        for n in range(4):
            running.add_guild(f"parish-{n}")
        yield running


async def identify(
    http: aiohttp.ClientSession, sim: DiscordSim, shard: int
) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]:
    """Open a session for ``shard`` and identify; the socket and the gateway's answer."""
    ws = await http.ws_connect(sim.gateway_url)
    hello = await ws.receive_json()
    assert hello["op"] == 10
    await ws.send_json(
        {
            "op": 2,
            "d": {
                "token": sim.token,
                "intents": 513,
                "properties": {"os": "linux", "browser": "test", "device": "test"},
                "shard": [shard, sim.shards],
            },
        }
    )
    return ws, json.loads((await ws.receive()).data)


async def test_a_bucket_takes_one_identify_per_window(sim: DiscordSim) -> None:
    async with aiohttp.ClientSession() as http:
        _, first = await identify(http, sim, 0)
        _, other_bucket = await identify(http, sim, 1)  # 1 % 2: its own bucket
        _, too_soon = await identify(http, sim, 2)  # 2 % 2: shard 0's bucket
        await asyncio.sleep(WINDOW)
        _, later = await identify(http, sim, 2)
    assert (first["t"], other_bucket["t"], later["t"]) == ("READY", "READY", "READY")
    assert too_soon == {"op": 9, "d": False}
    assert [data["shard"] for data in sim.identify_refusals] == [[2, 4]]
    assert [data["shard"] for data in sim.identifies] == [[0, 4], [1, 4], [2, 4]]


async def test_each_shard_gets_its_own_guilds(sim: DiscordSim) -> None:
    async with aiohttp.ClientSession() as http:
        readies = [(await identify(http, sim, shard))[1] for shard in (0, 1)]
        await asyncio.sleep(WINDOW)
        readies += [(await identify(http, sim, shard))[1] for shard in (2, 3)]
    guilds = [{int(g["id"]) for g in ready["d"]["guilds"]} for ready in readies]
    for shard, ids in enumerate(guilds):
        assert ids
        assert {sim.shard_of(guild) for guild in ids} == {shard}
    assert set().union(*guilds) == set(sim.guild_ids())


async def events(ws: aiohttp.ClientWebSocketResponse, until: str) -> list[dict[str, Any]]:
    """The dispatches the session receives, up to and including the first ``until``."""
    received: list[dict[str, Any]] = []
    async with asyncio.timeout(PATIENCE):
        while not received or received[-1]["t"] != until:
            frame = json.loads((await ws.receive()).data)
            if frame["op"] == 0:
                received.append(frame)
    return received


async def test_the_bot_removed_from_a_guild_gets_guild_delete_without_unavailable(
    sim: DiscordSim,
) -> None:
    """gateway-events.mdx, Guild Delete: "If the unavailable field is not set, the user was
    removed from the guild"; from then on the guild is one the bot is not in."""
    guild = sim.guild_ids()[1]
    shard = sim.shard_of(guild)
    channel = next(c for c in sim.channels.values() if c.guild_id == guild)
    async with aiohttp.ClientSession() as http:
        ws, _ = await identify(http, sim, shard)
        await events(ws, "GUILD_CREATE")
        await sim.remove_bot(guild)
        *_, removed = await events(ws, "GUILD_DELETE")
    assert removed["d"] == {"id": str(guild)}
    assert guild not in sim.guild_ids()
    assert not sim.bot_sees(channel)
    assert sim.integration_owners(channel, sim.user) == {"1": str(sim.user.id)}


async def test_an_outage_is_guild_delete_with_unavailable_and_the_bot_stays(
    sim: DiscordSim,
) -> None:
    """The same event with ``unavailable: true`` is an outage; GUILD_CREATE brings the guild
    back ("When a Guild becomes available again to the client")."""
    guild = sim.guild_ids()[2]
    async with aiohttp.ClientSession() as http:
        ws, _ = await identify(http, sim, sim.shard_of(guild))
        await events(ws, "GUILD_CREATE")
        await sim.guild_outage(guild)
        *_, lost = await events(ws, "GUILD_DELETE")
        await sim.guild_back(guild)
        *_, back = await events(ws, "GUILD_CREATE")
    assert lost["d"] == {"id": str(guild), "unavailable": True}
    assert (back["d"]["id"], back["d"]["unavailable"]) == (str(guild), False)
    assert guild in sim.guild_ids()
