"""Which Discord shards this worker runs, and when each may identify.

Discord hands a guild's events to the sessions that identified its shard ((guild_id >> 22) %
count; DMs go to shard 0), so every shard must run in exactly one worker: two sessions on one
shard both get every interaction. The shards are a :class:`~bot.state.shares.FairShare` of the
workers on one Redis (leases renewed, handed over on SIGTERM, taken over when a worker dies),
and Discord adds two things:

- the count: the first worker's proposal (``DISCORD_SHARD_COUNT``, else Discord's recommendation
  from ``GET /gateway/bot``) stands while any worker keeps proposing it;
- identifies keep to Discord's ``max_concurrency``: one per bucket (``shard_id %
  max_concurrency``) per 5 s, counted in a window every worker shares.

``DISCORD_SHARD_IDS`` pins a worker to its shards. With ``memory://`` or SQLite one worker runs
every shard.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import discord
from discord.gateway import DiscordWebSocket
from redis.exceptions import RedisError

from bot.adapter import Coordination, FairShare, RateBudget, Times

__all__ = ["IDENTIFY", "Identify", "ShardedClient", "Shards"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Identify:
    window: float = 5.0
    """Discord: one identify per bucket per 5 seconds."""
    margin: float = 0.25
    """Added to the window for the time an identify takes to reach Discord."""


IDENTIFY = Identify()


class Shards(FairShare):
    """This worker's shards: how many there are, which it holds, when each may identify."""

    def __init__(
        self,
        *,
        coordination: Coordination | None,
        scope: str,
        count: int | None = None,
        pinned: Iterable[int] = (),
        accepting: Callable[[], bool] = lambda: True,
        times: Times | None = None,
        identify: Identify | None = None,
    ) -> None:
        super().__init__(
            coordination=coordination,
            group=f"discord:{scope}",
            count=0,
            pinned=pinned,
            accepting=accepting,
            times=times,
            what="shard",
        )
        self._c = coordination
        self._proposal = count
        self._identify = identify
        self.max_concurrency = 1
        self._identifies: RateBudget | None = None

    async def agree(self, *, recommended: int, max_concurrency: int) -> int:
        """Settle the shard count (and remember Discord's identify concurrency)."""
        identify = self._identify or IDENTIFY
        self.max_concurrency = max(1, max_concurrency)
        self._identifies = RateBudget(calls=1, per_seconds=identify.window, margin=identify.margin)
        proposal = self._proposal or max(1, recommended)
        self.count = proposal
        if self._c is not None and not (self.pinned and self._proposal):
            try:
                agreed = await self._c.agree(
                    self.name("count"), str(proposal), ttl=self.times.lease_ttl
                )
            except (RedisError, OSError) as error:
                log.warning("Discord: shard count not shared (%s)", type(error).__name__)
                return self.count
            self.count = int(agreed)
            if self.count != proposal:
                log.warning(
                    "Discord: the workers run %d shards (proposed here: %d)", self.count, proposal
                )
        return self.count

    async def renewing(self) -> None:
        """The agreed count lives while any worker proposes it again."""
        assert self._c is not None
        await self._c.agree(self.name("count"), str(self.count), ttl=self.times.lease_ttl)

    async def identify_turn(self, shard_id: int) -> None:
        """Wait until ``shard_id`` may identify: its bucket's next free slot, shared by every
        worker on the Redis (this worker's own budget without one, or while Redis fails)."""
        assert self._identifies is not None, "agree() first"
        bucket = shard_id % self.max_concurrency
        if self._c is not None:
            try:
                wait, _slots = await self._c.reserve(
                    self.name("identify", bucket), calls=1, window=self._identifies.window
                )
            except (RedisError, OSError) as error:
                log.warning("shared identify budget unreachable: %s", type(error).__name__)
            else:
                if wait > 0:
                    await asyncio.sleep(wait)
                return
        await self._identifies.acquire(str(bucket))


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
