"""One worker alone (``memory://``) runs every shard, or the ones ``DISCORD_SHARD_IDS`` pins;
workers on one Redis share them out (the plan on its own here; as real processes, a SIGKILL
included, in tests/integrations/test_many_workers.py)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable

import discord
import pytest
import yarl

from bot.budgets import WriteBudget
from bot.shares import FairShare, Times
from bot.state.coordination import Coordination
from integrations.discord.shards import Identify, Shards
from tests.integrations.discord.harness import running_harness
from tests.patience import PATIENCE
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


class Host:
    """Runs whatever shards the plan gives it (the client's part), noting which."""

    def __init__(self) -> None:
        self.running: set[int] = set()

    async def start_resource(self, number: int) -> None:
        assert number not in self.running
        self.running.add(number)

    async def stop_resource(self, number: int) -> None:
        self.running.discard(number)


QUICK = Times(lease_ttl=30.0, tick=0.05, settle=0.0)
"""Leases far longer than the test: whatever moves, moved because a worker let it go."""
AT_ONCE = Identify(window=0.01, margin=0.0)


async def settled(predicate: Callable[[], Awaitable[bool]]) -> None:
    """Poll ``predicate`` (the leases live in Redis, which tells no one when they change)."""
    deadline = asyncio.get_running_loop().time() + PATIENCE
    while not await predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("the shards never settled")
        await asyncio.sleep(0.02)


async def test_a_newcomer_gets_its_share_and_a_stopping_worker_lets_go_at_once(
    coordinations: Callable[[], Coordination],
) -> None:
    accepting = {"first": True}
    first, second = Host(), Host()

    def worker(accepting: Callable[[], bool] = lambda: True) -> Shards:
        """A worker's plan, as ``run_discord`` makes it from the kit's share and budget."""
        coordination = coordinations()
        share = FairShare(
            coordination=coordination,
            group="discord:bot",
            accepting=accepting,
            times=QUICK,
            what="shard",
        )
        identifies = WriteBudget({"identify": AT_ONCE.limit}, coordination=coordination)
        return Shards(share=share, budget=identifies)

    plans = [worker(lambda: accepting["first"]), worker()]
    leases = coordinations()
    names = [f"discord:bot:shard:{s}" for s in range(3)]
    assert await plans[0].agree(recommended=3, max_concurrency=3) == 3
    await plans[0].start(first)

    async def alone() -> bool:
        return first.running == {0, 1, 2}

    await settled(alone)
    assert await plans[1].agree(recommended=5, max_concurrency=3) == 3  # the first count stands
    await plans[1].start(second)

    async def shared() -> bool:  # which one runs two depends on the workers' random ids
        return sorted((len(first.running), len(second.running))) == [1, 2]

    await settled(shared)
    assert first.running.isdisjoint(second.running)
    accepting["first"] = False  # SIGTERM: the service stops taking questions

    async def handed_over() -> bool:
        return second.running == {0, 1, 2} and None not in await leases.holders(names)

    await settled(handed_over)
    assert first.running == set()
    for plan, host in zip(plans, (first, second), strict=True):
        await plan.stop(host)
    assert await leases.holders(names) == [None, None, None]
