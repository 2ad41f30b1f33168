"""What the workers on one Redis agree on: who is alive, who holds what, and shared rate windows.

``memory://`` and SQLite serve one worker, which needs no agreement: :func:`open_coordination`
gives None for them, and each user of this module falls back to what one worker does alone
(every Discord shard, an in-process rate budget, no in-flight records). Every step is one Lua
script, timed by Redis's own clock, so workers whose clocks disagree still share one timeline.

Redis failing is mapped here, once (as httpx maps httpcore's errors): every step raises
:class:`CoordinationDown` instead of redis-py's or the socket's errors, and the outage is
logged once, when it starts, and once when Redis answers again. What each user does instead
(a budget paces alone, a lease is kept, a record goes unwritten) is its own; no caller names
redis.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import TypeVar
from urllib.parse import urlsplit

from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.state.base import raise_if_cancelling
from bot.state.ports import STATE_TIMEOUT
from bot.state.redis import _NOW_MS as NOW_MS
from config.settings import SettingsError

__all__ = [
    "NOW_MS",
    "Coordination",
    "CoordinationDown",
    "open_coordination",
    "scope_of",
    "shared_coordination",
]

log = logging.getLogger(__name__)

T = TypeVar("T")


# KEYS: members zset (member -> deadline ms). ARGV: member, ttl ms. Returns the live members.
_MEMBERS = (
    NOW_MS
    + """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], 2 * tonumber(ARGV[2]))
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""
)

# KEYS: lease. ARGV: owner, ttl ms. Returns 1 when the owner holds it (now or already).
_HOLD = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: the agreed value. ARGV: proposal, ttl ms. The first proposal stands while refreshed.
_AGREE = """
redis.call('SET', KEYS[1], ARGV[1], 'NX')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return redis.call('GET', KEYS[1])
"""

# KEYS: each window's slots zset (member -> slot ms) and pause (until ms). ARGV: not before (ms
# from now), member, then each window's calls and length ms. The slot is the first time free in
# every window (RateBudget's rule in each), never before a pause the platform asked for, taken
# in all of them at once: a write counted in several windows (a group's minute, its chat's
# second) is counted in each when it goes. Returns it and each window's slots as ms from now.
_RESERVE = (
    NOW_MS
    + """
local at = now + tonumber(ARGV[1])
local found = {}
for i = 1, #KEYS / 2 do
  local calls, window = tonumber(ARGV[2 * i + 1]), tonumber(ARGV[2 * i + 2])
  redis.call('ZREMRANGEBYSCORE', KEYS[2 * i - 1], '-inf', now - window)
  local slots = redis.call('ZRANGE', KEYS[2 * i - 1], 0, -1, 'WITHSCORES')
  local n = #slots / 2
  if n >= calls then at = math.max(at, tonumber(slots[(n - calls) * 2 + 2]) + window) end
  if n > 0 then at = math.max(at, tonumber(slots[n * 2])) end
  at = math.max(at, tonumber(redis.call('GET', KEYS[2 * i]) or '0'))
  found[i] = slots
end
local out = {at - now}
for i = 1, #KEYS / 2 do
  redis.call('ZADD', KEYS[2 * i - 1], at, ARGV[2])
  redis.call('PEXPIRE', KEYS[2 * i - 1], at - now + tonumber(ARGV[2 * i + 2]))
  local offsets = {}
  for j = 2, #found[i], 2 do offsets[#offsets + 1] = tonumber(found[i][j]) - now end
  offsets[#offsets + 1] = at - now
  out[#out + 1] = offsets
end
return out
"""
)

# KEYS: pause. ARGV: seconds ms. Nothing is reserved in the window before then (a 429's
# Retry-After, heard by any worker).
_PAUSE = (
    NOW_MS
    + """
local upto = now + tonumber(ARGV[1])
if tonumber(redis.call('GET', KEYS[1]) or '0') < upto then
  redis.call('SET', KEYS[1], upto, 'PX', ARGV[1])
end
return 0
"""
)

# KEYS: slots zsets. ARGV: each one's window ms. Returns each window's slots as ms from now.
_WINDOWS = (
    NOW_MS
    + """
local out = {}
for i, key in ipairs(KEYS) do
  local slots = redis.call('ZRANGEBYSCORE', key, now - tonumber(ARGV[i]) + 1, '+inf', 'WITHSCORES')
  local offsets = {}
  for j = 2, #slots, 2 do offsets[#offsets + 1] = tonumber(slots[j]) - now end
  out[i] = offsets
end
return out
"""
)

# KEYS: counts hash ("member|name" -> n), deadlines zset. ARGV: member, ttl ms, then name, n
# pairs. Replaces the member's counts; returns the live others' totals as name, n pairs.
_TALLY = (
    NOW_MS
    + """
local me, ttl = ARGV[1], tonumber(ARGV[2])
local function forget(who)
  for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
    if string.sub(field, 1, #who + 1) == who .. '|' then redis.call('HDEL', KEYS[1], field) end
  end
end
for _, lapsed in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
  forget(lapsed)
  redis.call('ZREM', KEYS[2], lapsed)
end
forget(me)
redis.call('ZADD', KEYS[2], now + ttl, me)
for i = 3, #ARGV, 2 do
  local field = me .. '|' .. ARGV[i]
  if tonumber(ARGV[i + 1]) > 0 then redis.call('HSET', KEYS[1], field, ARGV[i + 1]) end
end
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, 2 * ttl) end
local totals, order = {}, {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local bar = string.find(all[i], '|', 1, true)
  local who, name = string.sub(all[i], 1, bar - 1), string.sub(all[i], bar + 1)
  if who ~= me then
    if not totals[name] then totals[name] = 0; order[#order + 1] = name end
    totals[name] = totals[name] + tonumber(all[i + 1])
  end
end
local out = {}
for _, name in ipairs(order) do out[#out + 1] = name; out[#out + 1] = totals[name] end
return out
"""
)


def _ms(seconds: float) -> int:
    return max(int(seconds * 1000), 1)


class CoordinationDown(Exception):
    """The workers' Redis did not answer a step (down, unreachable, slower than
    ``STATE_TIMEOUT_SECONDS``): the caller goes on as one worker alone would."""


def scope_of(token: str) -> str:
    """A name for what a platform token reaches (a bot, a workspace), the same in every worker;
    a digest, so the token itself never reaches Redis."""
    return hashlib.sha256(token.encode()).hexdigest()[:16]


class Coordination:
    """The primitives several workers share, on one Redis connection pool (owned here)."""

    def __init__(self, client: Redis, *, namespace: str) -> None:
        self.redis = client
        self.namespace = namespace
        self.down = False
        """Whether the last step failed (an outage is logged once, and so is its end)."""
        self._members = client.register_script(_MEMBERS)
        self._hold = client.register_script(_HOLD)
        self._release = client.register_script(_RELEASE)
        self._agree = client.register_script(_AGREE)
        self._reserve = client.register_script(_RESERVE)
        self._pause = client.register_script(_PAUSE)
        self._windows = client.register_script(_WINDOWS)
        self._tally = client.register_script(_TALLY)

    def key(self, *parts: object) -> str:
        return ":".join((self.namespace, *map(str, parts)))

    async def step(self, work: Awaitable[T]) -> T:
        """Every step on Redis goes through here: its failures become :class:`CoordinationDown`
        (a cancel redis-py turned into an error is raised again as the cancel it was)."""
        try:
            done = await work
        except (RedisError, OSError) as error:
            raise_if_cancelling()
            if not self.down:
                self.down = True
                log.warning(
                    "the workers' Redis is unreachable (%s): each worker goes on alone",
                    type(error).__name__,
                )
            raise CoordinationDown(type(error).__name__) from error
        if self.down:
            self.down = False
            log.info("the workers' Redis answers again")
        return done

    async def aclose(self) -> None:
        await self.redis.aclose()

    # -- who is alive -------------------------------------------------------------------------
    async def members(self, group: str, member: str, *, ttl: float) -> list[str]:
        """Say ``member`` is alive in ``group`` for ``ttl``; every live member, sorted."""
        live = await self.step(
            self._members(keys=[self.key("members", group)], args=[member, _ms(ttl)])
        )
        return sorted(str(m) for m in live)

    async def leave(self, group: str, member: str) -> None:
        await self.step(self.redis.zrem(self.key("members", group), member))

    # -- who holds what -----------------------------------------------------------------------
    async def hold(self, name: str, owner: str, *, ttl: float) -> bool:
        """Take ``name`` for ``ttl`` if nobody else holds it, or renew it; whether ``owner``
        holds it now."""
        held = self._hold(keys=[self.key("lease", name)], args=[owner, _ms(ttl)])
        return bool(await self.step(held))

    async def release(self, name: str, owner: str) -> None:
        """Let ``name`` go, if ``owner`` still holds it."""
        await self.step(self._release(keys=[self.key("lease", name)], args=[owner]))

    async def holders(self, names: Sequence[str]) -> list[str | None]:
        """Who holds each of ``names`` (None: nobody)."""
        if not names:
            return []
        held = await self.step(self.redis.mget([self.key("lease", name) for name in names]))
        return [None if holder is None else str(holder) for holder in held]

    async def agree(self, name: str, proposal: str, *, ttl: float) -> str:
        """The value the workers go by: the first proposal, kept while anyone proposes again
        within ``ttl``."""
        agreed = self._agree(keys=[self.key("agreed", name)], args=[proposal, _ms(ttl)])
        return str(await self.step(agreed))

    # -- shared rate windows ------------------------------------------------------------------
    async def reserve(
        self, windows: Mapping[str, tuple[int, float]], *, not_before: float = 0.0
    ) -> tuple[float, dict[str, list[float]]]:
        """Take the first slot free in every one of ``windows`` (name -> at most so many calls
        in so many seconds), sliding windows shared by every worker, and no sooner than
        ``not_before`` seconds from now; seconds until it, and each window's slots now, as
        seconds from now (the last is the one taken)."""
        names = list(windows)
        keys: list[str] = []
        args: list[str | int] = [_ms(not_before) if not_before > 0 else 0, secrets.token_hex(8)]
        for name in names:
            calls, window = windows[name]
            keys += [self.key("window", name), self.key("window", name, "paused")]
            args += [calls, _ms(window)]
        found = await self.step(self._reserve(keys=keys, args=args))
        wait = max(int(found[0]) / 1000, 0.0)
        return wait, {
            name: [int(offset) / 1000 for offset in offsets]
            for name, offsets in zip(names, found[1:], strict=True)
        }

    async def pause(self, name: str, seconds: float) -> None:
        """No slot of window ``name`` is given out sooner than ``seconds`` from now (the platform
        said to wait that long)."""
        await self.step(self._pause(keys=[self.key("window", name, "paused")], args=[_ms(seconds)]))

    async def windows(self, windows: Mapping[str, float]) -> dict[str, list[float]]:
        """The slots of each named window (name -> its length in seconds), as seconds from now."""
        if not windows:
            return {}
        names = list(windows)
        found = await self.step(
            self._windows(
                keys=[self.key("window", name) for name in names],
                args=[_ms(windows[name]) for name in names],
            )
        )
        return {
            name: [int(offset) / 1000 for offset in offsets]
            for name, offsets in zip(names, found, strict=True)
        }

    async def tally(
        self, group: str, member: str, counts: Mapping[str, int], *, ttl: float
    ) -> Counter[str]:
        """Publish ``member``'s counts in ``group`` (kept ``ttl`` unless published again);
        the sum of every other live member's."""
        args: list[str | int] = [member, _ms(ttl)]
        for name, count in counts.items():
            args += [name, count]
        flat = await self.step(
            self._tally(
                keys=[self.key("tally", group), self.key("tally", group, "members")], args=args
            )
        )
        return Counter({str(flat[i]): int(flat[i + 1]) for i in range(0, len(flat), 2)})


def open_coordination(
    url: str, *, namespace: str = "citebot", timeout: float = STATE_TIMEOUT
) -> Coordination | None:
    """The coordination of the workers sharing ``STATE_URL``; None where one worker is alone
    (``memory://``, SQLite). ``timeout`` (``STATE_TIMEOUT_SECONDS``) bounds connecting and each
    step: a Redis that hangs is a Redis that failed (an answer goes on unrecorded, a worker
    keeps its leases and paces alone), never a stalled answer. Errors never quote the URL: it
    may carry a password."""
    if urlsplit(url.strip()).scheme not in ("redis", "rediss"):
        return None
    try:
        client = Redis.from_url(
            url.strip(),
            decode_responses=True,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
        )
    except ValueError:
        raise SettingsError("STATE_URL: not a usable Redis URL") from None
    return Coordination(client, namespace=namespace)


@asynccontextmanager
async def shared_coordination(
    url: str, *, timeout_seconds: float = STATE_TIMEOUT
) -> AsyncIterator[Coordination | None]:
    """:func:`open_coordination`, closed on the way out: the one a worker's service holds and
    its in-flight records, Discord's shard leases and Slack's rate windows all use."""
    coordination = open_coordination(url, timeout=timeout_seconds)
    try:
        yield coordination
    finally:
        if coordination is not None:
            await coordination.aclose()
