"""``memory://``: state in this process only (one worker, forgotten on restart)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import AsyncIterator, Container, Mapping, Sequence
from dataclasses import replace
from typing import Generic, TypeVar

from bot.state.base import StateBase, changed_settings, sliding_window, utc_day
from bot.state.logged import FORGOTTEN, LoggedAnswer, LoggedBatch, LoggedVote
from bot.state.names import belongs_to_place, counted_person, platform_of, rate_window
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

    def pop(self, key: str) -> bool:
        return self._items.pop(key, None) is not None


Belonging = tuple[str, str, str, str | None, str | None]
Person = tuple[str, str]
"""A platform and a person's id on it."""
K = TypeVar("K")
"""(platform, kind: ``thread``, ``vote`` or ``note``, key, person, server)."""


def _kept(index: dict[Person, set[K]], live: Container[K]) -> dict[Person, set[K]]:
    """``index`` without what is gone from ``live``."""
    kept = {who: {item for item in items if item in live} for who, items in index.items()}
    return {who: items for who, items in kept.items() if items}


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
        self._answers: dict[str, tuple[float, LoggedAnswer]] = {}
        """Record id -> (when it goes, by the wall clock, the record)."""
        self._vote_keys: dict[str, str] = {}
        self._belongings: dict[Belonging, float] = {}
        """What belongs to a person and a place -> when the note goes (wall clock)."""
        self._asked_by: dict[Person, set[str]] = {}
        self._counted_for: dict[Person, set[str]] = {}
        self._changed_by: dict[Person, set[str]] = {}
        self._noted_for: dict[Person, set[Belonging]] = {}
        """Each person's records, daily counters, places whose settings they changed and
        belongings: forgetting them touches nothing of anyone else's."""
        self._next_sweep = 0.0

    def _now(self) -> float:
        now = time.monotonic()
        if now >= self._next_sweep:
            self._next_sweep = now + _SWEEP_EVERY
            for store in (self._claims, self._hits, self._threads, self._votes, self._cache):
                store.sweep(now)
            wall = time.time()
            today, _ = utc_day(wall)
            self._daily = {key: count for key, count in self._daily.items() if count[0] == today}
            for answer_id in [i for i, (goes, _) in self._answers.items() if goes <= wall]:
                self._drop_answer(answer_id)
            self._belongings = {k: goes for k, goes in self._belongings.items() if goes > wall}
            self._reindex()
        return now

    def _reindex(self) -> None:
        """Each person's index without what went by other ways than forgetting them."""
        self._asked_by = _kept(self._asked_by, self._answers)
        self._counted_for = _kept(self._counted_for, self._daily)
        self._changed_by = _kept(self._changed_by, self._history)
        self._noted_for = _kept(self._noted_for, self._belongings)

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
            self._changed_by.setdefault((platform_of(place), by), set()).add(place)
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
            if (person := counted_person(key)) is not None:
                self._counted_for.setdefault(person, set()).add(key)
        return QuotaDecision(allowed=True)

    async def add_daily(self, amounts: Mapping[str, int]) -> None:
        self._now()
        today, _ = utc_day(time.time())
        for key, amount in amounts.items():
            day, count = self._daily.get(key, (today, 0))
            self._daily[key] = (today, (count if day == today else 0) + amount)

    async def daily_counts(self, counters: Sequence[str]) -> dict[str, int]:
        self._now()
        today, _ = utc_day(time.time())
        counts = {key: self._daily.get(key, (today, 0)) for key in counters}
        return {key: count if day == today else 0 for key, (day, count) in counts.items()}

    # -- the answer log -------------------------------------------------------------------------

    async def log_answer(self, record: LoggedAnswer, *, retention: float) -> None:
        self._now()
        cutoff = time.time() - retention
        # oldest first, as they were logged: one that ended out of turn waits for the sweep
        while self._answers and next(iter(self._answers.values()))[1].at <= cutoff:
            self._drop_answer(next(iter(self._answers)))
        if record.at > cutoff:
            self._answers[record.id] = (record.at + retention, record)
            self._asked_by.setdefault((record.platform, record.asker), set()).add(record.id)
            if record.vote_key is not None:
                self._vote_keys[record.vote_key] = record.id

    def _drop_answer(self, answer_id: str) -> LoggedAnswer | None:
        _, record = self._answers.pop(answer_id, (0.0, None))
        if record is None:
            return None
        if record.vote_key is not None:
            self._vote_keys.pop(record.vote_key, None)
        asked = self._asked_by.get((record.platform, record.asker), set())
        asked.discard(answer_id)
        if not asked:
            self._asked_by.pop((record.platform, record.asker), None)
        return record

    def _live(self, answer_id: str | None) -> LoggedAnswer | None:
        goes, record = self._answers.get(answer_id or "", (0.0, None))
        return record if goes > time.time() else None

    def _keep(self, record: LoggedAnswer) -> None:
        self._answers[record.id] = (self._answers[record.id][0], record)

    async def log_verdicts(self, answer_id: str, verdicts: Sequence[str | None]) -> None:
        record = self._live(answer_id)
        if record is not None:
            self._keep(record.checked(verdicts))

    async def log_vote(self, vote_key: str, vote: LoggedVote) -> LoggedAnswer | None:
        record = self._live(self._vote_keys.get(vote_key))
        if record is not None:
            self._keep(record.voted(vote))
        return record

    async def logged_answers(
        self,
        *,
        since: float,
        until: float,
        platform: str | None = None,
        server: str | None = None,
        batch: int = 1000,
    ) -> AsyncIterator[LoggedBatch]:
        wall = time.time()
        found = sorted(
            (
                record
                for goes, record in self._answers.values()
                if goes > wall
                and since <= record.at < until
                and (server is None or (record.platform, record.server) == (platform, server))
            ),
            key=lambda record: (record.at, record.id),
        )
        for start in range(0, len(found), batch):
            yield LoggedBatch(found[start : start + batch])

    # -- forgetting -----------------------------------------------------------------------------

    async def note_belongings(
        self,
        platform: str,
        *,
        person: str | None,
        server: str | None,
        threads: Sequence[str] = (),
        votes: Sequence[str] = (),
        notes: Sequence[str] = (),
        ttl: float,
    ) -> None:
        goes = time.time() + ttl
        for kind, keys in (("thread", threads), ("vote", votes), ("note", notes)):
            for key in keys:
                belonging = (platform, kind, key, person, server)
                self._belongings[belonging] = max(goes, self._belongings.get(belonging, 0.0))
                if person is not None:
                    self._noted_for.setdefault((platform, person), set()).add(belonging)

    def _forget_belongings(self, belongings: list[Belonging], *, person: str | None) -> int:
        """Drop what ``belongings`` note: a conversation's memory; a cached note; a vote,
        ``person``'s (all of an answer's when None), in the votes and in the answer's record."""
        forgotten = 0
        for belonging in belongings:
            self._belongings.pop(belonging, None)
            _platform, kind, key, _person, _server = belonging
            if kind == "thread":
                forgotten += self._threads.pop(key)
                continue
            if kind == "note":
                forgotten += self._cache.pop(key)
                continue
            votes = self._votes.get(key, self._now()) or {}
            if person is None:
                forgotten += len(votes)
                self._votes.pop(key)
            elif votes.pop(person, None) is not None:
                forgotten += 1
            record = self._live(self._vote_keys.get(key))
            if record is not None:
                self._keep(record.unvoted(person) if person else replace(record, votes=()))
        return forgotten

    async def forget_person(self, platform: str, person: str) -> int:
        who = (platform, person)
        forgotten = sum(
            self._drop_answer(answer_id) is not None for answer_id in self._asked_by.pop(who, ())
        )
        mine = [b for b in self._noted_for.pop(who, ()) if b in self._belongings]
        forgotten += self._forget_belongings(mine, person=person)
        forgotten += self._hits.pop(rate_window(platform, person))
        for counter in self._counted_for.pop(who, ()):
            forgotten += self._daily.pop(counter, None) is not None
        for place in self._changed_by.pop(who, ()):
            if place in self._history:
                self._history[place] = [
                    replace(change, by=FORGOTTEN) if change.by == person else change
                    for change in self._history[place]
                ]
        return forgotten

    async def forget_place(self, platform: str, server: str) -> int:
        here = f"{platform}:{server}"
        forgotten = 0
        for store in (self._settings, self._history):
            for place in [p for p in store if p == here or p.startswith(f"{here}/")]:
                forgotten += 1
                del store[place]
        for answer_id, (_, record) in list(self._answers.items()):
            if (record.platform, record.server) == (platform, server):
                if record.vote_key is not None:
                    forgotten += len(self._votes.get(record.vote_key, self._now()) or {})
                    self._votes.pop(record.vote_key)
                forgotten += self._drop_answer(answer_id) is not None
        ours = [b for b in self._belongings if (b[0], b[4]) == (platform, server)]
        forgotten += self._forget_belongings(ours, person=None)
        for counter in [c for c in self._daily if belongs_to_place(c, platform, server)]:
            forgotten += self._daily.pop(counter) is not None
        self._reindex()
        return forgotten
