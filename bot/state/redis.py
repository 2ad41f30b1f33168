"""``redis://HOST:PORT/DB``: state shared by every worker on one Redis.

Each read-modify-write is one Lua script (atomic on the server) and takes the time from the
server (``TIME``), so workers with skewed clocks still agree on windows and deadlines.
"""

from __future__ import annotations

import json
import secrets

from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.state.base import StateBase
from bot.state.ports import DEDUP_TTL, FEEDBACK_TTL, MEMORY_KEEP, MEMORY_TTL, RateDecision
from bot.upstream.events import Turn

__all__ = ["RedisState"]

_NOW_MS = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
"""

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


def _ms(seconds: float) -> int:
    return max(int(seconds * 1000), 1)


class RedisState(StateBase):
    def __init__(self, client: Redis, *, namespace: str) -> None:
        """Take ownership of ``client`` (created with ``decode_responses=True``)."""
        super().__init__()
        self._redis = client
        self._ns = namespace
        self._hit = client.register_script(_HIT)
        self._claim_script = client.register_script(_CLAIM)
        self._vote = client.register_script(_VOTE)

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
