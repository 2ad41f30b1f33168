"""Which Discord shards this worker runs, and when each may identify.

Discord hands a guild's events to the sessions that identified its shard ((guild_id >> 22) %
count; DMs go to shard 0), so every shard must run in exactly one worker: two sessions on one
shard both get every interaction. Workers on one Redis share the shards out themselves:

- the count: the first worker's proposal (``DISCORD_SHARD_COUNT``, else Discord's recommendation
  from ``GET /gateway/bot``) stands while any worker keeps proposing it;
- each worker keeps its fair share (count / live workers; the first few in id order take one
  more) under leases it renews every ``TIMES.tick``: one with more lets the extra go, one with
  fewer takes free shards. A worker that stops lets its shards go at once; a dead worker's
  leases lapse after ``TIMES.lease_ttl`` and the others take its shards at their next tick;
- identifies keep to Discord's ``max_concurrency``: one per bucket (``shard_id %
  max_concurrency``) per 5 s, counted in a window every worker shares.

``DISCORD_SHARD_IDS`` pins a worker to its shards (leased too, so other workers leave them
alone). With ``memory://`` or SQLite one worker runs every shard.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord.gateway import DiscordWebSocket
from redis.exceptions import RedisError

from bot.pacing import RateBudget
from bot.state.base import raise_if_cancelling
from bot.state.coordination import Coordination

__all__ = ["TIMES", "ShardHost", "ShardedClient", "Shards", "Times"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Times:
    lease_ttl: float = 10.0
    """Seconds a shard's lease outlives its worker's last renewal: a dead worker's shards are
    taken ``lease_ttl`` to ``lease_ttl + tick`` seconds after it died (then identified, one
    per ``identify_window`` per bucket)."""
    tick: float = 2.0
    """Seconds between a worker's renewals (five per lease) and its looks at who is alive."""
    settle: float = 1.0
    """Seconds a starting worker waits, once it has said it is alive, before taking shards:
    workers started together then see each other and take their shares at once."""
    identify_window: float = 5.0
    """Discord: one identify per bucket per 5 seconds."""
    margin: float = 0.25
    """Added to the identify window for the time an identify takes to reach Discord."""


TIMES = Times()


class ShardHost(Protocol):
    """What runs the shards the plan picks (the Discord client)."""

    async def start_shard(self, shard_id: int) -> None: ...

    async def stop_shard(self, shard_id: int) -> None: ...


class Shards:
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
    ) -> None:
        self._c = coordination
        self._scope = scope
        self._proposal = count
        self._pinned = sorted(set(pinned))
        self._accepting = accepting
        self._times = times or TIMES
        self._me = secrets.token_hex(6)
        self.count = 0
        self.max_concurrency = 1
        self.held: set[int] = set()
        """Shards whose lease this worker holds (running, or waiting to identify)."""
        self._starting: dict[int, asyncio.Task[None]] = {}
        self._identifies: RateBudget | None = None
        self._loop: asyncio.Task[None] | None = None
        self._stopped = False

    def _name(self, *parts: object) -> str:
        return ":".join(("discord", self._scope, *map(str, parts)))

    async def agree(self, *, recommended: int, max_concurrency: int) -> int:
        """Settle the shard count (and remember Discord's identify concurrency)."""
        self.max_concurrency = max(1, max_concurrency)
        self._identifies = RateBudget(
            calls=1, per_seconds=self._times.identify_window, margin=self._times.margin
        )
        proposal = self._proposal or max(1, recommended)
        self.count = proposal
        if self._c is not None and not (self._pinned and self._proposal):
            try:
                agreed = await self._c.agree(self._name("count"), str(proposal), ttl=self._ttl)
            except (RedisError, OSError) as error:
                log.warning("Discord: shard count not shared (%s)", type(error).__name__)
                return self.count
            self.count = int(agreed)
            if self.count != proposal:
                log.warning(
                    "Discord: the workers run %d shards (proposed here: %d)", self.count, proposal
                )
        return self.count

    @property
    def _ttl(self) -> float:
        return self._times.lease_ttl

    async def identify_turn(self, shard_id: int) -> None:
        """Wait until ``shard_id`` may identify: its bucket's next free slot, shared by every
        worker on the Redis (this worker's own budget without one, or while Redis fails)."""
        assert self._identifies is not None, "agree() first"
        bucket = shard_id % self.max_concurrency
        if self._c is not None:
            try:
                wait, _slots = await self._c.reserve(
                    self._name("identify", bucket), calls=1, window=self._identifies.window
                )
            except (RedisError, OSError) as error:
                log.warning("shared identify budget unreachable: %s", type(error).__name__)
            else:
                if wait > 0:
                    await asyncio.sleep(wait)
                return
        await self._identifies.acquire(str(bucket))

    # -- the plan ------------------------------------------------------------------------------
    async def start(self, host: ShardHost) -> None:
        """Take this worker's first shards, then keep the share fair until :meth:`stop`."""
        if self._c is None or self._pinned:
            for shard_id in self._pinned or range(self.count):
                self.held.add(shard_id)
                if self._c is not None:  # so that the other workers leave it alone
                    await self._c.hold(self._name("shard", shard_id), self._me, ttl=self._ttl)
                await host.start_shard(shard_id)
        else:
            try:
                await self._c.members(self._name("workers"), self._me, ttl=self._ttl)
                await asyncio.sleep(self._times.settle)
                await self._balance(host)
            except (RedisError, OSError) as error:  # no shards until Redis answers
                log.warning("Discord shard leases unreachable: %s", type(error).__name__)
        if self._c is not None:
            self._loop = asyncio.create_task(self._run(host), name="citebot-discord-shards")

    async def stop(self, host: ShardHost) -> None:
        """Let every shard go (others take them at their next tick) and leave."""
        if self._stopped:
            return
        self._stopped = True
        if self._loop is not None and self._loop is not asyncio.current_task():
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop
        for shard_id in sorted(self.held):
            await self._let_go(host, shard_id)
        if self._c is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._c.leave(self._name("workers"), self._me)

    async def _run(self, host: ShardHost) -> None:
        while True:
            raise_if_cancelling()  # a cancel the Redis client swallowed (see there)
            await asyncio.sleep(self._times.tick)
            if not self._accepting():  # shutting down: the others answer from now on
                await self.stop(host)
                return
            try:
                await self._balance(host)
            except (RedisError, OSError) as error:  # keep the shards; leases outlast a blip
                raise_if_cancelling()
                log.warning("Discord shard leases unreachable: %s", type(error).__name__)

    async def _balance(self, host: ShardHost) -> None:
        """Renew what is held, let go of what is over the fair share, take free shards."""
        assert self._c is not None
        if self._pinned:  # an override: run these whatever the leases say, and hold them
            for shard_id in self._pinned:
                await self._c.hold(self._name("shard", shard_id), self._me, ttl=self._ttl)
            return
        workers = await self._c.members(self._name("workers"), self._me, ttl=self._ttl)
        await self._c.agree(self._name("count"), str(self.count), ttl=self._ttl)
        for shard_id in sorted(self.held):
            if not await self._c.hold(self._name("shard", shard_id), self._me, ttl=self._ttl):
                log.warning("Discord: shard %d is now run by another worker", shard_id)
                await self._let_go(host, shard_id, leased=False)
        index = workers.index(self._me) if self._me in workers else len(workers)
        members = max(len(workers), index + 1)
        target = self.count // members + (1 if index < self.count % members else 0)
        # A worker prefers shards ≡ its index: workers starting together rarely collide.
        preferred = sorted(range(self.count), key=lambda s: (s % members != index, s))
        extra = max(0, len(self.held) - target)
        surplus = [s for s in reversed(preferred) if s in self.held][:extra]
        for shard_id in surplus:
            log.info("Discord: handing shard %d over (%d workers)", shard_id, members)
            await self._let_go(host, shard_id)
        await self._take(host, preferred, target=target)

    async def _take(self, host: ShardHost, candidates: Iterable[int], *, target: int) -> None:
        assert self._c is not None
        wanted = [s for s in candidates if s not in self.held]
        if len(self.held) >= target or not wanted:
            return
        holders = await self._c.holders([self._name("shard", s) for s in wanted])
        for shard_id, holder in zip(wanted, holders, strict=True):
            if len(self.held) >= target:
                return
            if holder is None and await self._c.hold(
                self._name("shard", shard_id), self._me, ttl=self._ttl
            ):
                self.held.add(shard_id)
                self._starting[shard_id] = asyncio.create_task(self._start(host, shard_id))

    async def _start(self, host: ShardHost, shard_id: int) -> None:
        try:
            await host.start_shard(shard_id)
        finally:
            self._starting.pop(shard_id, None)

    async def _let_go(self, host: ShardHost, shard_id: int, *, leased: bool = True) -> None:
        starting = self._starting.pop(shard_id, None)
        if starting is not None:
            starting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await starting
        await host.stop_shard(shard_id)
        self.held.discard(shard_id)
        if leased and self._c is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._c.release(self._name("shard", shard_id), self._me)


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

    async def start_shard(self, shard_id: int) -> None:
        self._connection.shard_ids = sorted(self.shard_plan.held)
        log.info("Discord: running shard %d of %d", shard_id, self.shard_count)
        await self.launch_shard(DiscordWebSocket.DEFAULT_GATEWAY, shard_id)

    async def stop_shard(self, shard_id: int) -> None:
        shard = self.get_shard(shard_id)
        if shard is not None:
            await shard.disconnect()
        self._connection.shard_ids = sorted(self.shard_plan.held - {shard_id})

    async def close(self) -> None:
        await self.shard_plan.stop(self)
        await super().close()
