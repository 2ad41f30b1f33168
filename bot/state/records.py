"""The answers in flight, as records every worker on one Redis can see.

Each record lives under a deadline its worker keeps pushing back (a heartbeat); a record whose
deadline passed belongs to a worker that died, and :meth:`Records.take_lapsed` hands it to
exactly one other worker to close (Redis failing raises
:class:`~bot.state.coordination.CoordinationDown`, as every coordination step does). A record's
secret (an interaction token) is kept apart, in a key that expires with the secret itself, and
never leaves this module except to its closer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.state.coordination import NOW_MS, Coordination

__all__ = ["Lapsed", "Records"]

# KEYS: deadlines zset, records hash, secret. ARGV: id, record, ttl ms, secret, secret ttl ms.
_PUT = (
    NOW_MS
    + """
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ARGV[4] ~= '' then redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[5]) end
return 0
"""
)

# KEYS: deadlines zset, records hash. ARGV: ttl ms (0: no beat), then id, record pairs (record
# '' when unchanged). Pushes back the deadlines of the records still there and stores changes.
_BEAT = (
    NOW_MS
    + """
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV, 2 do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    if ttl > 0 then redis.call('ZADD', KEYS[1], 'XX', now + ttl, ARGV[i]) end
    if ARGV[i + 1] ~= '' then redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
  end
end
return 0
"""
)

# KEYS: deadlines zset, records hash. ARGV: at most this many, secret key prefix.
# Removes the lapsed records it returns (id, record, secret), so exactly one worker gets each.
_TAKE = (
    NOW_MS
    + """
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, ARGV[1])) do
  local secret_key = ARGV[2] .. id
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id) or ''
  out[#out + 1] = redis.call('GET', secret_key) or ''
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('DEL', secret_key)
end
return out
"""
)


@dataclass(frozen=True, slots=True)
class Lapsed:
    """A record whose worker stopped beating; ``secret`` is None once it expired."""

    id: str
    record: str
    secret: str | None

    def __repr__(self) -> str:  # the secret is an interaction token: never in a log line
        return f"Lapsed(id={self.id!r}, record={self.record!r})"


def _ms(seconds: float) -> int:
    return max(int(seconds * 1000), 1)


class Records:
    """Records kept per ``kind`` (a platform): a worker takes only kinds it can close."""

    def __init__(self, coordination: Coordination) -> None:
        self._c = coordination
        redis = coordination.redis
        self._put = redis.register_script(_PUT)
        self._beat = redis.register_script(_BEAT)
        self._take = redis.register_script(_TAKE)

    def _deadlines(self, kind: str) -> str:
        return self._c.key("inflight", kind, "deadlines")

    def _records(self) -> str:
        return self._c.key("inflight", "records")

    def _secret(self, record_id: str = "") -> str:
        return self._c.key("inflight", "secret", record_id)

    async def put(
        self,
        kind: str,
        record_id: str,
        record: str,
        *,
        ttl: float,
        secret: str | None = None,
        secret_ttl: float = 0.0,
    ) -> None:
        """Keep ``record`` for ``ttl`` (until beaten again); ``secret`` for ``secret_ttl``."""
        keep_secret = secret is not None and secret_ttl > 0
        await self._c.step(
            self._put(
                keys=[self._deadlines(kind), self._records(), self._secret(record_id)],
                args=[
                    record_id,
                    record,
                    _ms(ttl),
                    secret if secret is not None and keep_secret else "",
                    _ms(secret_ttl) if keep_secret else 0,
                ],
            )
        )

    async def beat(self, kind: str, records: Mapping[str, str], *, ttl: float | None) -> None:
        """Push back the deadlines of ``records`` (id -> the record if it changed, else "")
        by ``ttl`` (None: only store the changes). A record already taken stays taken."""
        args: list[str | int] = [0 if ttl is None else _ms(ttl)]
        for record_id, record in records.items():
            args += [record_id, record]
        await self._c.step(self._beat(keys=[self._deadlines(kind), self._records()], args=args))

    async def drop(self, kind: str, record_id: str) -> None:
        await self._c.step(self._drop(kind, record_id))

    async def _drop(self, kind: str, record_id: str) -> None:
        async with self._c.redis.pipeline(transaction=True) as pipe:
            pipe.zrem(self._deadlines(kind), record_id)
            pipe.hdel(self._records(), record_id)
            pipe.delete(self._secret(record_id))
            await pipe.execute()

    async def take_lapsed(self, kind: str, *, limit: int = 50) -> list[Lapsed]:
        """Records of ``kind`` whose deadline passed, removed so no other worker gets them."""
        flat = await self._c.step(
            self._take(keys=[self._deadlines(kind), self._records()], args=[limit, self._secret()])
        )
        return [
            Lapsed(id=str(flat[i]), record=str(flat[i + 1]), secret=str(flat[i + 2]) or None)
            for i in range(0, len(flat), 3)
        ]
