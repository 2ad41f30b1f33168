"""``memory://``: state in this process only (one worker, forgotten on restart)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Generic, TypeVar

from bot.state.base import StateBase, changed_settings, sliding_window, utc_day
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
from bot.upstream.events import Turn

__all__ = ["MemoryState"]

V = TypeVar("V")

_SWEEP_EVERY = 60.0


class _Expiring(Generic[V]):
    """A dict whose entries vanish ``ttl`` seconds after they were last set."""

    def __init__(self) -> None:
        self._items: dict[str, tuple[float, V]] = {}

    def get(self, key: str, now: float) -> V | None:
        item = self._items.get(key)
        if item is None or item[0] <= now:
            return None
        return item[1]

    def set(self, key: str, value: V, *, now: float, ttl: float) -> None:
        self._items[key] = (now + ttl, value)

    def sweep(self, now: float) -> None:
        for key in [key for key, (expires, _) in self._items.items() if expires <= now]:
            del self._items[key]


class MemoryState(StateBase):
    """Plain dicts; every step is atomic because nothing here awaits mid-step."""

    def __init__(self) -> None:
        super().__init__()
        self._claims: _Expiring[bool] = _Expiring()
        self._hits: _Expiring[deque[float]] = _Expiring()
        self._threads: _Expiring[list[Turn]] = _Expiring()
        self._votes: _Expiring[dict[str, str]] = _Expiring()
        self._cache: _Expiring[str] = _Expiring()
        self._queues: dict[str, dict[str, float]] = {}
        self._settings: dict[str, dict[str, str]] = {}
        self._history: dict[str, list[SettingChange]] = {}
        self._daily: dict[str, tuple[int, int]] = {}
        """Counter -> (its UTC day, the count that day)."""
        self._next_sweep = 0.0

    def _now(self) -> float:
        now = time.monotonic()
        if now >= self._next_sweep:
            self._next_sweep = now + _SWEEP_EVERY
            for store in (self._claims, self._hits, self._threads, self._votes, self._cache):
                store.sweep(now)
            today, _ = utc_day(time.time())
            self._daily = {key: count for key, count in self._daily.items() if count[0] == today}
        return now

    async def ping(self) -> bool:
        return True

    async def aclose(self) -> None:
        return None

    async def first_time(self, key: str, *, ttl: float = DEDUP_TTL) -> bool:
        now = self._now()
        if self._claims.get(key, now):
            return False
        self._claims.set(key, True, now=now, ttl=ttl)
        return True

    async def hit(self, key: str, *, limit: int, per_seconds: float) -> RateDecision:
        now = self._now()
        times = self._hits.get(key, now) or deque()
        while times and times[0] <= now - per_seconds:
            times.popleft()
        decision = sliding_window(times, now=now, limit=limit, per_seconds=per_seconds)
        if decision.allowed:
            times.append(now)
        self._hits.set(key, times, now=now, ttl=per_seconds)
        return decision

    async def append(
        self, thread_key: str, *turns: Turn, ttl: float = MEMORY_TTL, keep: int = MEMORY_KEEP
    ) -> None:
        now = self._now()
        kept = [*(self._threads.get(thread_key, now) or ()), *turns][-keep:] if keep else []
        self._threads.set(thread_key, kept, now=now, ttl=ttl)

    async def recent(self, thread_key: str, limit: int) -> tuple[Turn, ...]:
        turns = self._threads.get(thread_key, self._now()) or []
        return tuple(turns[-limit:]) if limit > 0 else ()

    async def record_feedback(
        self, answer_key: str, user_id: str, value: str, *, ttl: float = FEEDBACK_TTL
    ) -> bool:
        now = self._now()
        votes = self._votes.get(answer_key, now) or {}
        changed = votes.get(user_id) != value
        votes[user_id] = value
        self._votes.set(answer_key, votes, now=now, ttl=ttl)
        return changed

    async def feedback(self, answer_key: str) -> dict[str, str]:
        return dict(self._votes.get(answer_key, self._now()) or {})

    async def cached(self, key: str) -> str | None:
        return self._cache.get(key, self._now())

    async def cache(self, key: str, value: str, *, ttl: float) -> None:
        self._cache.set(key, value, now=self._now(), ttl=ttl)

    async def _claim(self, thread_key: str, token: str, ttl: float) -> int:
        now = time.monotonic()
        queue = self._queues.setdefault(thread_key, {})
        for lapsed in [other for other, deadline in queue.items() if deadline <= now]:
            del queue[lapsed]
        queue[token] = now + ttl
        return list(queue).index(token)

    async def _leave(self, thread_key: str, token: str) -> None:
        queue = self._queues.get(thread_key, {})
        queue.pop(token, None)
        if not queue:
            self._queues.pop(thread_key, None)

    async def place_settings(self, places: Sequence[str]) -> dict[str, dict[str, str]]:
        return {place: dict(self._settings[place]) for place in places if place in self._settings}

    async def every_place_settings(self) -> dict[str, dict[str, str]]:
        return {place: dict(keys) for place, keys in self._settings.items()}

    async def change_place_settings(
        self,
        changes: Mapping[str, Mapping[str, str | None]],
        *,
        by: str,
        keep: int = SETTINGS_HISTORY_KEEP,
        history_ttl: float = SETTINGS_HISTORY_TTL,
    ) -> list[SettingChange]:
        now = time.time()
        made = []
        for place, keys in changes.items():
            current = self._settings.setdefault(place, {})
            applied = changed_settings(current, keys)
            if not current:
                del self._settings[place]
            if not applied:
                continue
            recorded = [
                SettingChange(at=now, by=by, place=place, key=key, old=old, new=new)
                for key, old, new in applied
            ]
            history = [*self._history.get(place, ()), *recorded][-keep:]
            self._history[place] = [entry for entry in history if entry.at > now - history_ttl]
            made += recorded
        return made

    async def settings_history(
        self, place: str | None = None, *, history_ttl: float = SETTINGS_HISTORY_TTL
    ) -> list[SettingChange]:
        since = time.time() - history_ttl
        places = list(self._history) if place is None else [place]
        changes = [entry for name in places for entry in self._history.get(name, ())]
        return sorted((entry for entry in changes if entry.at > since), key=lambda e: e.at)

    async def take_daily(self, limits: Mapping[str, int]) -> QuotaDecision:
        self._now()
        today, left = utc_day(time.time())
        days = {key: self._daily.get(key, (today, 0)) for key in limits}
        counts = {key: count if day == today else 0 for key, (day, count) in days.items()}
        for key, limit in limits.items():
            if counts[key] >= limit:
                return QuotaDecision(allowed=False, refused_by=key, retry_after=left)
        for key in limits:
            self._daily[key] = (today, counts[key] + 1)
        return QuotaDecision(allowed=True)
