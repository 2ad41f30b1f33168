"""One write budget for every platform's limits, kept by every answer and every worker.

Platforms count writes in sliding windows keyed by what they count: Slack per method per
workspace (chat.postMessage per channel), Telegram per chat, per group and per bot, Discord per
bucket (an interaction's webhook, a channel's messages, a parent channel's new threads, a
shard's identify). A :class:`WriteBudget` holds a platform's :class:`Limit` s by name; a write
names the :class:`Window` s it counts in (a limit and a key) and

- :meth:`~WriteBudget.acquire` waits for the first time a slot is free in all of them and
  takes it in each (a write that must land);
- :meth:`~WriteBudget.free` says whether a write that could be skipped may go now: a slot in
  each window beyond those promised (:meth:`~WriteBudget.claim`) to the writes that cannot be
  skipped (an answer's finals), and no wait the platform asked for;
- :meth:`~WriteBudget.pause` hears a 429's Retry-After: nothing goes in that window until it
  has passed, in any worker.

Workers on one Redis take each slot of a shared limit in a window kept there
(:meth:`~bot.state.coordination.Coordination.reserve`, the same rule as
:class:`~bot.pacing.RateBudget`) and, while the budget is entered (``async with``), publish
their claims and read the windows :meth:`~WriteBudget.free` looks at twice a second, so that N
workers keep every limit as one. If Redis fails, each worker paces alone until it answers
(:class:`~bot.state.coordination.CoordinationDown`, logged once where it is mapped).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Self

from bot.pacing import RateBudget
from bot.state.base import raise_if_cancelling
from bot.state.coordination import Coordination, CoordinationDown

__all__ = ["SYNC_SECONDS", "Limit", "Window", "WriteBudget"]

SYNC_SECONDS = 0.5
"""How often a shared budget publishes its claims and reads the windows it was asked about."""
RESERVATIONS = 3
"""How many slots a write takes at most when it keeps waking late: then it goes all the same
(a loop that busy is late everywhere)."""
WATCH_SECONDS = 10.0
"""How long a window :meth:`WriteBudget.free` asked about is read back on every sync."""


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``calls`` writes in any ``per_seconds``, for each key."""

    calls: int
    per_seconds: float = 60.0
    margin: float | None = None
    """Seconds added to the window (None: the budget's): a write can reach the platform later
    than its slot was reserved, and where the platform's window is fixed or its 429 is not
    retried a wider margin keeps it under."""
    shared: bool = True
    """Kept with the other workers on Redis; False for a key that only one answer ever writes
    in (an interaction's webhook), where a round trip would buy nothing."""


@dataclass(frozen=True, slots=True)
class Window:
    """Where a write counts: ``limit``'s window for ``key`` (a channel, a chat; "" for the
    workspace's or the bot's own)."""

    limit: str
    key: str = ""


class WriteBudget:
    """The writes one bot (one token) may still make, under ``limits``.

    ``scope`` names the bot the same way in every worker (``slack:<digest of its token>``);
    ``time_scale`` shrinks every window (tests); ``margin`` is each limit's unless it says;
    ``clock`` and ``sleep`` are time's (tests give their own).
    """

    def __init__(
        self,
        limits: Mapping[str, Limit],
        *,
        scope: str = "",
        margin: float = 0.25,
        time_scale: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        coordination: Coordination | None = None,
    ) -> None:
        self._limits = limits
        self._clock = clock
        self._sleep = sleep
        self._windows = {
            name: RateBudget(
                calls=limit.calls,
                per_seconds=limit.per_seconds * time_scale,
                margin=margin if limit.margin is None else limit.margin,
                clock=clock,
            )
            for name, limit in limits.items()
        }
        self._scope = scope
        self._shared = coordination
        self._member = secrets.token_hex(6)
        self._claims: Counter[Window] = Counter()
        self._others: Counter[str] = Counter()
        """What the other workers have claimed, by shared name, as of the last sync."""
        self._paused: dict[Window, float] = {}
        self._watched: dict[Window, float] = {}
        """Windows :meth:`free` asked about, and when last: the sync reads them back."""
        self._sync: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Self:
        if self._shared is not None and self._sync is None:
            self._sync = asyncio.create_task(self._syncing(), name="citebot-write-budget")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._sync is not None:
            self._sync.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sync
            self._sync = None

    def _name(self, window: Window) -> str:
        return f"{self._scope}:{window.limit}:{window.key}"

    def _on_redis(self, window: Window) -> bool:
        return self._shared is not None and self._limits[window.limit].shared

    # -- writes that can be skipped ----------------------------------------------------------
    def free(self, *windows: Window, spare: int = 0) -> bool:
        """Whether a write counted in every one of ``windows`` can go now and leave every
        claimed slot free, and ``spare`` more; nothing is taken."""
        now = self._clock()
        for window in windows:
            if self.waiting(window):
                return False
            budget = self._windows.get(window.limit)
            if budget is None:
                continue
            if self._on_redis(window):
                self._watched[window] = now
            promised = self._claims[window] + self._others[self._name(window)] + spare
            if budget.delay(window.key, after=promised) > 0:
                return False
        return True

    def claim(self, window: Window, count: int = 1) -> None:
        """Promise ``count`` writes in ``window`` that cannot be skipped (an answer's finals):
        :meth:`free` leaves them their slots."""
        self._claims[window] += count

    def release(self, window: Window, count: int = 1) -> None:
        self._claims[window] -= count
        if self._claims[window] <= 0:
            del self._claims[window]

    # -- writes that must land ---------------------------------------------------------------
    async def acquire(self, *windows: Window) -> None:
        """Wait for the first time a slot is free in every one of ``windows`` (and any wait
        the platform asked for has passed) and take it in each: the write counts in all of
        them when it goes. A write that wakes later than half its windows' margin (a busy
        loop) takes a fresh slot: going at once, it would land too close to the writes whose
        slots came after its own (the stale slot stays counted, which only spaces them more).
        A limit kept with no margin is kept below the platform's own, which has room for a
        late write already.
        """
        if wait := max((self.waiting(window) for window in windows), default=0.0):
            await self._sleep(wait)
        counted = [window for window in windows if window.limit in self._windows]
        margin = min((self._margin(window) for window in counted), default=0.0)
        for _ in range(RESERVATIONS):
            at = await self._reserve(counted)
            if (wait := at - self._clock()) > 0:
                await self._sleep(wait)
            if not margin or self._clock() - at <= margin / 2:
                return

    def _margin(self, window: Window) -> float:
        budget = self._windows[window.limit]
        return budget.window - budget.per_seconds

    async def _reserve(self, counted: list[Window]) -> float:
        """Take the first slot free in every one of ``counted``; when it is, on the clock."""
        alone = [window for window in counted if not self._on_redis(window)]
        at = max((self._windows[w.limit].next_at(w.key) for w in alone), default=self._clock())
        shared = [window for window in counted if self._on_redis(window)]
        if self._shared is not None and shared:
            try:
                wait, slots = await self._shared.reserve(
                    {
                        self._name(w): (self._windows[w.limit].calls, self._windows[w.limit].window)
                        for w in shared
                    },
                    not_before=at - self._clock(),
                )
            except CoordinationDown:  # pace alone until Redis answers
                alone = counted
                at = max(self._windows[w.limit].next_at(w.key) for w in alone)
            else:
                now = self._clock()
                at = now + wait
                for window in shared:
                    offsets = slots[self._name(window)]
                    self._windows[window.limit].adopt(window.key, (now + o for o in offsets))
        now = self._clock()
        for window in alone:
            at = max(at, now + self._windows[window.limit].reserve(window.key, at=at))
        return at

    async def take(self, *windows: Window, final: bool) -> bool:
        """A write's slots: a final write waits for them; one that can be skipped takes them
        only when :meth:`free` (False: skip it, the next write carries its text)."""
        if not final and not self.free(*windows):
            return False
        await self.acquire(*windows)
        return True

    # -- what the platform said --------------------------------------------------------------
    async def pause(self, window: Window, seconds: float) -> None:
        """The platform answered a write in ``window`` with 429 and ``Retry-After: seconds``:
        nothing skippable goes there until then, and writes that must land wait for it (in
        every worker on the Redis)."""
        now = self._clock()
        self._paused = {w: at for w, at in self._paused.items() if at > now}  # 429s are rare
        self._paused[window] = max(self._paused.get(window, now), now + seconds)
        if self._shared is not None and window.limit in self._limits and self._on_redis(window):
            with contextlib.suppress(CoordinationDown):
                await self._shared.pause(self._name(window), seconds)

    def waiting(self, window: Window) -> float:
        """Seconds the platform said to wait still to run in ``window``."""
        until = self._paused.get(window)
        if until is None:
            return 0.0
        left = until - self._clock()
        if left <= 0:
            del self._paused[window]
        return max(left, 0.0)

    # -- the workers together ----------------------------------------------------------------
    async def _syncing(self) -> None:
        while True:
            raise_if_cancelling()  # a cancel the Redis client swallowed (see there)
            await self.sync()
            await asyncio.sleep(SYNC_SECONDS)

    async def sync(self) -> None:
        """Publish this worker's claims, bring in the others', and copy the windows
        :meth:`free` was asked about lately (done twice a second while entered)."""
        if self._shared is None:
            return
        now = self._clock()
        self._watched = {w: at for w, at in self._watched.items() if now - at < WATCH_SECONDS}
        watched = {self._name(window): window for window in self._watched}
        claims = {
            self._name(window): count
            for window, count in self._claims.items()
            if count > 0 and self._on_redis(window)
        }
        try:
            self._others = await self._shared.tally(
                f"{self._scope}:claims", self._member, claims, ttl=max(10 * SYNC_SECONDS, 2.0)
            )
            windows = await self._shared.windows(
                {name: self._windows[w.limit].window for name, w in watched.items()}
            )
        except CoordinationDown:
            self._others = Counter()
            return
        now = self._clock()
        for name, slots in windows.items():
            window = watched[name]
            self._windows[window.limit].adopt(window.key, (now + offset for offset in slots))
