"""Which Discord shards this worker runs, and when each may identify.

Discord hands a guild's events to the sessions that identified its shard ((guild_id >> 22) %
count; DMs go to shard 0), so every shard must run in exactly one worker: two sessions on one
shard both get every interaction. The shards are the kit's fair share of them among the workers
on one Redis (leases renewed, handed over on SIGTERM, taken over when a worker dies), and Discord
adds two things:

- the count: the first worker's proposal (``DISCORD_SHARD_COUNT``, else Discord's recommendation
  from ``GET /gateway/bot``) stands while any worker keeps proposing it;
- identifies keep to Discord's ``max_concurrency``: one per bucket (``shard_id %
  max_concurrency``) per 5 s, counted in the write budget every worker shares.

``DISCORD_SHARD_IDS`` pins a worker to its shards. With ``memory://`` or SQLite one worker runs
every shard.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import discord
from discord.gateway import DiscordWebSocket

from bot.adapter import FairShare, Holder, Limit, Window, WriteBudget

__all__ = ["IDENTIFY", "Identify", "ShardedClient", "Shards"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Identify:
    window: float = 5.0
    """Discord: one identify per bucket per 5 seconds."""
    margin: float = 1.0
    """Added to the window for the time an identify takes to reach Discord: the slot is taken
    before discord.py opens the shard's websocket and waits for its HELLO, which a busy worker
    took more than a quarter of a second to do (a test's identify refused, two suites sharing
    two cores). A shard starts a second later; identifies are rare."""

    @property
    def limit(self) -> Limit:
        """As the write budget keeps it (per bucket, with every worker)."""
        return Limit(1, self.window, margin=self.margin)


IDENTIFY = Identify()


class Shards:
    """This worker's shards: how many there are, which it holds (``share``, the kit's fair
    share of them), when each may identify (``budget``'s ``identify`` windows)."""

    def __init__(self, *, share: FairShare, budget: WriteBudget, count: int | None = None) -> None:
        self.share = share
        self._budget = budget
        self._proposal = count
        self.max_concurrency = 1

    @property
    def held(self) -> set[int]:
        return self.share.held

    @property
    def count(self) -> int:
        return self.share.count

    async def agree(self, *, recommended: int, max_concurrency: int) -> int:
        """Settle the shard count (and remember Discord's identify concurrency): ours where
        ``DISCORD_SHARD_COUNT`` pins this worker's shards, else the count the workers agree on
        (the first proposal: ``DISCORD_SHARD_COUNT``, else Discord's recommendation)."""
        self.max_concurrency = max(1, max_concurrency)
        proposal = self._proposal or max(1, recommended)
        if self.share.pinned and self._proposal:
            self.share.count = proposal
            return proposal
        count = await self.share.agree_count(proposal)
        if count != proposal:
            log.warning("Discord: the workers run %d shards (proposed here: %d)", count, proposal)
        return count

    async def identify_turn(self, shard_id: int) -> None:
        """Wait until ``shard_id`` may identify: its bucket's next free slot, shared by every
        worker on the Redis."""
        await self._budget.acquire(Window("identify", str(shard_id % self.max_concurrency)))

    async def start(self, holder: Holder) -> None:
        await self.share.start(holder)

    async def stop(self, holder: Holder) -> None:
        await self.share.stop(holder)


class ShardedClient(discord.AutoShardedClient):
    """An ``AutoShardedClient`` whose shards a :class:`Shards` plan picks, and changes while it
    runs: ``launch_shard`` adds one, a shard's ``disconnect`` lets it go.

    ``ready`` is set once a shard is connected, or once the plan gave this worker none.
    """

    def __init__(
        self, *, shard_plan: Shards, ready: asyncio.Event | None = None, **options: Any
    ) -> None:
        super().__init__(**options)
        self.shard_plan = shard_plan
        self._connected = ready

    async def plan_shards(self, *, recommended: int, limits: dict[str, Any]) -> None:
        """Settle the count from ``GET /gateway/bot``'s answer (call from ``setup_hook``)."""
        count = await self.shard_plan.agree(
            recommended=recommended, max_concurrency=int(limits.get("max_concurrency", 1))
        )
        self.shard_count = count
        self._connection.shard_count = count

    async def launch_shards(self) -> None:
        await self.shard_plan.start(self)
        if not self.shard_plan.held and self._connected is not None:
            self._connected.set()

    async def on_connect(self) -> None:
        if self._connected is not None:
            self._connected.set()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        await self.shard_plan.identify_turn(shard_id or 0)

    async def start_resource(self, number: int) -> None:
        """Run shard ``number`` (the plan gave it to this worker)."""
        self._connection.shard_ids = sorted(self.shard_plan.held)
        log.info("Discord: running shard %d of %d", number, self.shard_count)
        await self.launch_shard(DiscordWebSocket.DEFAULT_GATEWAY, number)

    async def stop_resource(self, number: int) -> None:
        """Let shard ``number`` go (the plan gave it to another worker, or this one stops)."""
        shard = self.get_shard(number)
        if shard is not None:
            await shard.disconnect()
        self._connection.shard_ids = sorted(self.shard_plan.held - {number})

    async def close(self) -> None:
        await self.shard_plan.stop(self)
        await super().close()
