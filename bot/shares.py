"""Resources that one worker at a time may run, shared out fairly by the workers on one Redis.

Some platform work must run in exactly one worker: a Discord shard (two sessions on one shard
both get every interaction), Telegram's ``getUpdates`` reader (a second reader gets 409). A
:class:`FairShare` names ``count`` such resources of a group and shares them out:

- each worker keeps its fair share (count / live workers; the first few in id order take one
  more) under leases it renews every ``TIMES.tick``: one with more lets the extra go, one with
  fewer takes free resources;
- a worker that stops (SIGTERM) lets its resources go at once, so the others take them at their
  next tick; a dead worker's leases lapse after ``TIMES.lease_ttl`` and the others take them;
- pinned resources (an operator's override) are run whatever the leases say, and leased too,
  so that the other workers leave them alone.

With no :class:`~bot.state.coordination.Coordination` (``memory://`` or SQLite: one worker) the
worker runs every resource. Redis failing keeps what is held: leases outlast a blip. A count
known only at start (Discord's shards) is agreed on (:meth:`FairShare.agree_count`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from bot.state.base import raise_if_cancelling
from bot.state.coordination import Coordination, CoordinationDown

__all__ = ["TIMES", "FairShare", "Holder", "Times"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Times:
    lease_ttl: float = 10.0
    """Seconds a resource's lease outlives its worker's last renewal: a dead worker's resources
    are taken ``lease_ttl`` to ``lease_ttl + tick`` seconds after it died."""
    tick: float = 2.0
    """Seconds between a worker's renewals (five per lease) and its looks at who is alive."""
    settle: float = 1.0
    """Seconds a starting worker waits, once it has said it is alive, before taking resources:
    workers started together then see each other and take their shares at once."""


TIMES = Times()


class Holder(Protocol):
    """What runs the resources a share gives this worker (a Discord client, a poller)."""

    async def start_resource(self, number: int) -> None: ...

    async def stop_resource(self, number: int) -> None: ...


class FairShare:
    """This worker's share of ``count`` resources named ``group``; set :attr:`count` before
    :meth:`start` when it is only known then (Discord's shard count)."""

    def __init__(
        self,
        *,
        coordination: Coordination | None,
        group: str,
        count: int = 1,
        pinned: Iterable[int] = (),
        accepting: Callable[[], bool] = lambda: True,
        times: Times | None = None,
        what: str = "resource",
    ) -> None:
        self._c = coordination
        self._group = group
        self.count = count
        self.pinned = sorted(set(pinned))
        self._accepting = accepting
        self._times = times
        self._what = what
        self._me = secrets.token_hex(6)
        self.held: set[int] = set()
        """Resources whose lease this worker holds (running, or starting)."""
        self._starting: dict[int, asyncio.Task[None]] = {}
        self._loop: asyncio.Task[None] | None = None
        self._stopped = False
        self._agreed = False

    @property
    def times(self) -> Times:
        """Read when used, so a test may shorten the module's clocks after building a share."""
        return self._times or TIMES

    def name(self, *parts: object) -> str:
        """A key of this group in the coordination (``discord:SCOPE:shard:3``)."""
        return ":".join((self._group, *map(str, parts)))

    async def agree_count(self, proposal: int) -> int:
        """Settle :attr:`count` with the other workers: the first worker's proposal stands
        while any worker proposes it again (every tick, here); ``proposal`` alone, or while
        Redis fails."""
        self.count = proposal
        if self._c is not None:
            with contextlib.suppress(CoordinationDown):
                agreed = await self._c.agree(self.name("count"), str(proposal), ttl=self._ttl)
                self.count = int(agreed)
            self._agreed = True
        return self.count

    async def start(self, holder: Holder) -> None:
        """Take this worker's first resources, then keep the share fair until :meth:`stop`."""
        if self._c is None or self.pinned:
            for number in self.pinned or range(self.count):
                self.held.add(number)
                if self._c is not None:  # so that the other workers leave it alone
                    await self._c.hold(self.name(self._what, number), self._me, ttl=self._ttl)
                await holder.start_resource(number)
        else:
            with contextlib.suppress(CoordinationDown):  # nothing held until Redis answers
                await self._c.members(self.name("workers"), self._me, ttl=self._ttl)
                await asyncio.sleep(self.times.settle)
                await self._balance(holder)
        if self._c is not None:
            self._loop = asyncio.create_task(self._run(holder), name=f"citebot-{self._what}s")

    async def stop(self, holder: Holder) -> None:
        """Let every resource go (others take them at their next tick) and leave."""
        if self._stopped:
            return
        self._stopped = True
        if self._loop is not None and self._loop is not asyncio.current_task():
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop
        for number in sorted(self.held):
            await self._let_go(holder, number)
        if self._c is not None:
            with contextlib.suppress(CoordinationDown):
                await self._c.leave(self.name("workers"), self._me)

    @property
    def _ttl(self) -> float:
        return self.times.lease_ttl

    async def _run(self, holder: Holder) -> None:
        while True:
            raise_if_cancelling()  # a cancel the Redis client swallowed (see there)
            await asyncio.sleep(self.times.tick)
            if not self._accepting():  # shutting down: the others run them from now on
                await self.stop(holder)
                return
            with contextlib.suppress(CoordinationDown):  # keep them; leases outlast a blip
                await self._balance(holder)

    async def _balance(self, holder: Holder) -> None:
        """Renew what is held, let go of what is over the fair share, take free resources."""
        assert self._c is not None
        if self.pinned:  # an override: run these whatever the leases say, and hold them
            for number in self.pinned:
                await self._c.hold(self.name(self._what, number), self._me, ttl=self._ttl)
            return
        workers = await self._c.members(self.name("workers"), self._me, ttl=self._ttl)
        if self._agreed:  # the agreed count lives while any worker proposes it again
            await self._c.agree(self.name("count"), str(self.count), ttl=self._ttl)
        for number in sorted(self.held):
            if not await self._c.hold(self.name(self._what, number), self._me, ttl=self._ttl):
                log.warning(
                    "%s %s %d is now run by another worker", self._group, self._what, number
                )
                await self._let_go(holder, number, leased=False)
        index = workers.index(self._me) if self._me in workers else len(workers)
        members = max(len(workers), index + 1)
        target = self.count // members + (1 if index < self.count % members else 0)
        # A worker prefers resources ≡ its index: workers starting together rarely collide.
        preferred = sorted(range(self.count), key=lambda s: (s % members != index, s))
        extra = max(0, len(self.held) - target)
        surplus = [s for s in reversed(preferred) if s in self.held][:extra]
        for number in surplus:
            log.info(
                "%s: handing %s %d over (%d workers)", self._group, self._what, number, members
            )
            await self._let_go(holder, number)
        await self._take(holder, preferred, target=target)

    async def _take(self, holder: Holder, candidates: Iterable[int], *, target: int) -> None:
        assert self._c is not None
        wanted = [s for s in candidates if s not in self.held]
        if len(self.held) >= target or not wanted:
            return
        holders = await self._c.holders([self.name(self._what, s) for s in wanted])
        for number, taken_by in zip(wanted, holders, strict=True):
            if len(self.held) >= target:
                return
            if taken_by is None and await self._c.hold(
                self.name(self._what, number), self._me, ttl=self._ttl
            ):
                self.held.add(number)
                self._starting[number] = asyncio.create_task(self._start(holder, number))

    async def _start(self, holder: Holder, number: int) -> None:
        try:
            await holder.start_resource(number)
        finally:
            self._starting.pop(number, None)

    async def _let_go(self, holder: Holder, number: int, *, leased: bool = True) -> None:
        starting = self._starting.pop(number, None)
        if starting is not None:
            starting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await starting
        await holder.stop_resource(number)
        self.held.discard(number)
        if leased and self._c is not None:
            with contextlib.suppress(CoordinationDown):
                await self._c.release(self.name(self._what, number), self._me)
