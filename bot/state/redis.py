"""``redis://HOST:PORT/DB``: state shared by every worker on one Redis.

Each read-modify-write is one Lua script (atomic on the server) and takes the time from the
server (``TIME``), so workers with skewed clocks still agree on windows and deadlines.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping, Sequence

from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.state.base import StateBase
from bot.state.names import counted_person, platform_of
from bot.state.ports import (
    DEDUP_TTL,
    FEEDBACK_TTL,
    MEMORY_KEEP,
    MEMORY_TTL,
    SETTINGS_HISTORY_KEEP,
    SETTINGS_HISTORY_TTL,
    QuotaDecision,
    RateDecision,
    SettingChange,
)
from bot.state.redis_log import RedisAnswerLog, note
from bot.state.redis_log_scripts import NOW_MS
from bot.upstream.events import Turn

__all__ = ["RedisState"]

_NOW_MS = NOW_MS

# KEYS: hits zset. ARGV: limit, window ms, unique member. Returns -1 (counted) or ms to wait.
_HIT = (
    _NOW_MS
    + """
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return -1
end
local oldest = redis.call('ZRANGE', KEYS[1], -limit, -limit, 'WITHSCORES')
return math.max(tonumber(oldest[2]) + window - now, 1)
"""
)

# KEYS: queue zset (token -> ticket), deadlines zset (token -> ms), ticket counter.
# ARGV: token, ttl ms. Returns how many are ahead of the token.
_CLAIM = (
    _NOW_MS
    + """
local ttl = tonumber(ARGV[2])
for _, lapsed in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
  redis.call('ZREM', KEYS[1], lapsed)
  redis.call('ZREM', KEYS[2], lapsed)
end
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), ARGV[1])
end
redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
for _, key in ipairs(KEYS) do
  if redis.call('PTTL', key) < 2 * ttl then redis.call('PEXPIRE', key, 2 * ttl) end
end
return redis.call('ZRANK', KEYS[1], ARGV[1])
"""
)

# KEYS: votes hash. ARGV: user, value, ttl ms. Returns 1 when the vote changed.
_VOTE = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if old == ARGV[2] then return 0 end
return 1
"""

# KEYS: places set, history places zset (place -> last change ms), then per place of the plan
# its settings hash, its history list (newest first) and the notes of what is the changer's
# there. ARGV: the plan as JSON, [[place, [[key, value or null], ...]], ...], who, how many
# changes a place keeps, for how long (ms), then per place the note that the changer changed it.
# Returns each change made, as the JSON record it stored.
_CHANGE = (
    _NOW_MS
    + """
local plan, by = cjson.decode(ARGV[1]), ARGV[2]
local keep, ttl = tonumber(ARGV[3]), tonumber(ARGV[4])
local made = {}
for i, entry in ipairs(plan) do
  local place, settings, history, own = entry[1], KEYS[3 * i], KEYS[3 * i + 1], KEYS[3 * i + 2]
  local changed = false
  for _, change in ipairs(entry[2]) do
    local key, new = change[1], change[2]
    if new == cjson.null then new = false end
    local old = redis.call('HGET', settings, key)
    if old ~= new then
      if new then redis.call('HSET', settings, key, new) else redis.call('HDEL', settings, key) end
      local record = cjson.encode({at = now, by = by, place = place, key = key,
                                   old = old or cjson.null, new = new or cjson.null})
      redis.call('LPUSH', history, record)
      made[#made + 1] = record
      changed = true
    end
  end
  if changed then
    redis.call('LTRIM', history, 0, keep - 1)
    local oldest = redis.call('LINDEX', history, -1)
    while oldest and cjson.decode(oldest).at <= now - ttl do
      redis.call('RPOP', history)
      oldest = redis.call('LINDEX', history, -1)
    end
    redis.call('PEXPIRE', history, ttl)
    redis.call('ZADD', own, 'GT', now + ttl, ARGV[4 + i])
    if redis.call('PTTL', own) < ttl then redis.call('PEXPIRE', own, ttl) end
    redis.call('ZADD', KEYS[2], now, place)
    if redis.call('EXISTS', settings) == 1 then
      redis.call('SADD', KEYS[1], place)
    else
      redis.call('SREM', KEYS[1], place)
    end
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - ttl)
return made
"""
)

# KEYS: places set. ARGV: the prefix of a place's settings hash. Returns [place, [key, value,
# ...], ...] for every place, read in one step.
_EVERY_PLACE = """
local out = {}
for _, place in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  out[#out + 1] = place
  out[#out + 1] = redis.call('HGETALL', ARGV[1] .. place)
end
return out
"""

# KEYS: one hash per counter (day, n), then per counter the notes of what is its person's ('':
# a place's counter). ARGV: each counter's limit, then per counter its note ('' likewise).
# Returns {0, ms left in the day} when every counter was counted, {i, ms left} when counter i
# refused and none was.
_DAILY = (
    _NOW_MS
    + """
local day = math.floor(now / 86400000)
local ends = (day + 1) * 86400000
local n = #KEYS / 2
local counts = {}
for i = 1, n do
  local counted = redis.call('HMGET', KEYS[i], 'day', 'n')
  counts[i] = 0
  if tonumber(counted[1]) == day then counts[i] = tonumber(counted[2]) end
  if counts[i] >= tonumber(ARGV[i]) then return {i, ends - now} end
end
for i = 1, n do
  redis.call('HSET', KEYS[i], 'day', day, 'n', counts[i] + 1)
  redis.call('PEXPIREAT', KEYS[i], ends)
  local own = KEYS[n + i]
  if own ~= '' then
    redis.call('ZADD', own, 'GT', ends, ARGV[n + i])
    if redis.call('PTTL', own) < ends - now then redis.call('PEXPIRE', own, ends - now) end
  end
end
return {0, ends - now}
"""
)


# KEYS: one hash per counter (day, n). ARGV: each counter's amount (none: only read them).
# Returns each counter's count today, after adding.
_ADD_DAILY = (
    _NOW_MS
    + """
local day = math.floor(now / 86400000)
local out = {}
for i, key in ipairs(KEYS) do
  local counted = redis.call('HMGET', key, 'day', 'n')
  local count = 0
  if tonumber(counted[1]) == day then count = tonumber(counted[2]) end
  if ARGV[i] then
    count = count + tonumber(ARGV[i])
    redis.call('HSET', key, 'day', day, 'n', count)
    redis.call('PEXPIREAT', key, (day + 1) * 86400000)
  end
  out[i] = count
end
return out
"""
)


def _ms(seconds: float) -> int:
    return max(int(seconds * 1000), 1)


class RedisState(StateBase, RedisAnswerLog):
    """Every port on one Redis; the answer log and forgetting are :class:`RedisAnswerLog`'s."""

    def __init__(self, client: Redis, *, namespace: str) -> None:
        """Take ownership of ``client`` (created with ``decode_responses=True``)."""
        StateBase.__init__(self)
        RedisAnswerLog.__init__(self, client, namespace=namespace)
        self._hit = client.register_script(_HIT)
        self._claim_script = client.register_script(_CLAIM)
        self._vote = client.register_script(_VOTE)
        self._change = client.register_script(_CHANGE)
        self._every_place = client.register_script(_EVERY_PLACE)
        self._daily = client.register_script(_DAILY)
        self._add_daily = client.register_script(_ADD_DAILY)

    def _key(self, kind: str, key: str) -> str:
        return f"{self._ns}:{kind}:{key}"

    async def ping(self) -> bool:
        try:
            return bool(await self._redis.ping())
        except (RedisError, OSError):
            return False

    async def aclose(self) -> None:
        await self._redis.aclose()

    async def first_time(self, key: str, *, ttl: float = DEDUP_TTL) -> bool:
        return bool(await self._redis.set(self._key("seen", key), 1, nx=True, px=_ms(ttl)))

    async def hit(self, key: str, *, limit: int, per_seconds: float) -> RateDecision:
        wait_ms = int(
            await self._hit(
                keys=[self._key("hits", key)], args=[limit, _ms(per_seconds), secrets.token_hex(8)]
            )
        )
        if wait_ms < 0:
            return RateDecision(allowed=True)
        return RateDecision(allowed=False, retry_after=wait_ms / 1000)

    async def append(
        self, thread_key: str, *turns: Turn, ttl: float = MEMORY_TTL, keep: int = MEMORY_KEEP
    ) -> None:
        key = self._key("turns", thread_key)
        async with self._redis.pipeline(transaction=True) as pipe:
            if turns:
                pipe.rpush(key, *(json.dumps([turn.role, turn.content]) for turn in turns))
            if keep:
                pipe.ltrim(key, -keep, -1)
            else:
                pipe.delete(key)
            pipe.pexpire(key, _ms(ttl))
            await pipe.execute()

    async def recent(self, thread_key: str, limit: int) -> tuple[Turn, ...]:
        if limit <= 0:
            return ()
        items = await self._redis.lrange(self._key("turns", thread_key), -limit, -1)
        return tuple(Turn(*json.loads(item)) for item in items)

    async def record_feedback(
        self, answer_key: str, user_id: str, value: str, *, ttl: float = FEEDBACK_TTL
    ) -> bool:
        changed = await self._vote(
            keys=[self._key("votes", answer_key)], args=[user_id, value, _ms(ttl)]
        )
        return bool(changed)

    async def feedback(self, answer_key: str) -> dict[str, str]:
        votes = await self._redis.hgetall(self._key("votes", answer_key))
        return {str(user): str(value) for user, value in votes.items()}

    async def cached(self, key: str) -> str | None:
        value = await self._redis.get(self._key("cache", key))
        return None if value is None else str(value)

    async def cache(self, key: str, value: str, *, ttl: float) -> None:
        await self._redis.set(self._key("cache", key), value, px=_ms(ttl))

    async def _claim(self, thread_key: str, token: str, ttl: float) -> int:
        base = self._key("lease", thread_key)
        ahead = await self._claim_script(
            keys=[f"{base}:queue", f"{base}:deadlines", f"{base}:tickets"], args=[token, _ms(ttl)]
        )
        return int(ahead)

    async def _leave(self, thread_key: str, token: str) -> None:
        base = self._key("lease", thread_key)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.zrem(f"{base}:queue", token)
            pipe.zrem(f"{base}:deadlines", token)
            await pipe.execute()

    async def place_settings(self, places: Sequence[str]) -> dict[str, dict[str, str]]:
        async with self._redis.pipeline(transaction=True) as pipe:
            for place in places:
                pipe.hgetall(self._key("settings", place))
            found = await pipe.execute()
        return {place: dict(keys) for place, keys in zip(places, found, strict=True) if keys}

    async def every_place_settings(self) -> dict[str, dict[str, str]]:
        flat = await self._every_place(
            keys=[self._key("settings-index", "places")], args=[self._key("settings", "")]
        )
        return {
            str(flat[i]): dict(zip(flat[i + 1][::2], flat[i + 1][1::2], strict=True))
            for i in range(0, len(flat), 2)
            if flat[i + 1]
        }

    async def change_place_settings(
        self,
        changes: Mapping[str, Mapping[str, str | None]],
        *,
        by: str,
        keep: int = SETTINGS_HISTORY_KEEP,
        history_ttl: float = SETTINGS_HISTORY_TTL,
    ) -> list[SettingChange]:
        keys = [self._key("settings-index", "places"), self._key("settings-index", "history")]
        notes = []
        for place in changes:
            keys += [self._key("settings", place), self._key("settings-history", place)]
            keys.append(self._own(platform_of(place), by))
            notes.append(note("change", place, person=by))
        plan = [[place, list(values.items())] for place, values in changes.items()]
        made = await self._change(
            keys=keys,
            args=[
                json.dumps(plan, ensure_ascii=False),
                by,
                max(keep, 1),
                _ms(history_ttl),
                *notes,
            ],
        )
        return [_change(record) for record in made]

    async def settings_history(
        self, place: str | None = None, *, history_ttl: float = SETTINGS_HISTORY_TTL
    ) -> list[SettingChange]:
        since = time.time() - history_ttl
        if place is None:
            index = self._key("settings-index", "history")
            found = await self._redis.zrangebyscore(index, since * 1000, "+inf")
            places = [str(name) for name in found]
        else:
            places = [place]
        async with self._redis.pipeline(transaction=True) as pipe:
            for name in places:
                pipe.lrange(self._key("settings-history", name), 0, -1)
            lists = await pipe.execute()
        changes = [_change(record) for records in lists for record in reversed(records)]
        return sorted((change for change in changes if change.at > since), key=lambda c: c.at)

    async def take_daily(self, limits: Mapping[str, int]) -> QuotaDecision:
        counters = list(limits)
        people = [counted_person(counter) for counter in counters]
        refused, left_ms = await self._daily(
            keys=[self._key("daily", counter) for counter in counters]
            + [self._own(*person) if person else "" for person in people],
            args=[limits[counter] for counter in counters]
            + [
                note("counter", counter, person=person[1]) if person else ""
                for counter, person in zip(counters, people, strict=True)
            ],
        )
        if int(refused) == 0:
            return QuotaDecision(allowed=True)
        return QuotaDecision(
            allowed=False, refused_by=counters[int(refused) - 1], retry_after=int(left_ms) / 1000
        )

    async def add_daily(self, amounts: Mapping[str, int]) -> None:
        counters = list(amounts)
        await self._add_daily(
            keys=[self._key("daily", counter) for counter in counters],
            args=[amounts[counter] for counter in counters],
        )

    async def daily_counts(self, counters: Sequence[str]) -> dict[str, int]:
        counts = await self._add_daily(keys=[self._key("daily", counter) for counter in counters])
        return {counter: int(count) for counter, count in zip(counters, counts, strict=True)}


def _change(record: str) -> SettingChange:
    fields = json.loads(record)
    return SettingChange(
        at=fields["at"] / 1000,
        by=fields["by"],
        place=fields["place"],
        key=fields["key"],
        old=fields["old"],
        new=fields["new"],
    )
