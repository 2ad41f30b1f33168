"""One worker alone (``memory://``): it runs every shard, or the ones ``DISCORD_SHARD_IDS`` pins.

Workers sharing shards through Redis are real processes: tests/integrations/test_many_workers.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator

import discord
import pytest
import yarl

from tests.integrations.discord.harness import running_harness
from tests.sim.discord import DiscordSim
from tests.sim.upstream import UpstreamSim, answer


@pytest.fixture
async def three_shards(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordSim]:
    """Discord recommends 3 shards and lets all three identify at once (max_concurrency 3);
    a guild on each."""
    async with DiscordSim(shards=3, max_concurrency=3) as sim:
        monkeypatch.setattr(discord.http.Route, "BASE", sim.base_url)
        monkeypatch.setattr(
            discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(sim.gateway_url)
        )
        for n in range(3):
            sim.add_guild(f"parish-{n}")
        yield sim


def shards_identified(sim: DiscordSim) -> Counter[tuple[int, int]]:
    return Counter((int(d["shard"][0]), int(d["shard"][1])) for d in sim.identifies)


async def test_one_worker_alone_runs_every_shard_and_answers_in_each(
    three_shards: DiscordSim, upstream: UpstreamSim
) -> None:
    sim = three_shards
    upstream.default = answer(["Answered on its shard."])
    parishes = [c for c in sim.channels.values() if c.name.startswith("parish-")]
    async with running_harness(sim, upstream) as harness:
        await sim.wait_shards()
        shown = [
            (await harness.ask(f"Question in {channel.name}?", channel_id=channel.id)).content
            for channel in parishes
        ]
    assert shards_identified(sim) == {(0, 3): 1, (1, 3): 1, (2, 3): 1}
    assert sim.identify_refusals == []
    assert {sim.shard_of(channel.guild_id) for channel in parishes} == {0, 1, 2}
    assert shown == ["Answered on its shard."] * 3


async def test_shard_ids_pin_a_worker_to_its_shards(
    three_shards: DiscordSim, upstream: UpstreamSim
) -> None:
    sim = three_shards
    env = {"DISCORD_SHARD_COUNT": "3", "DISCORD_SHARD_IDS": "1"}
    async with running_harness(sim, upstream, env=env):
        await sim.until(lambda: sim.shard_sessions().keys() == {1})
    assert shards_identified(sim) == {(1, 3): 1}
