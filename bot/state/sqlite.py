"""``sqlite:///PATH``: state in one file, shared by the workers of one machine, kept on restart.

One connection per State, used from one dedicated thread so the event loop never blocks on
the disk; every step is one ``BEGIN IMMEDIATE`` transaction, which is what makes a claim or a
hit atomic across processes on the same file. Times are wall-clock: all users share a machine.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from bot.state import sqlite_log
from bot.state.base import DAY_SECONDS, StateBase, changed_settings, sliding_window, utc_day
from bot.state.logged import LoggedAnswer, LoggedBatch, LoggedVote
from bot.state.ports import (
    DEDUP_TTL,
    FEEDBACK_TTL,
    MEMORY_KEEP,
    MEMORY_TTL,
    SETTINGS_HISTORY_KEEP,
    SETTINGS_HISTORY_TTL,
    STATE_TIMEOUT,
    QuotaDecision,
    RateDecision,
    SettingChange,
)
from bot.upstream.events import Turn

__all__ = ["SqliteState"]

T = TypeVar("T")

_SWEEP_EVERY = 60.0
_SCHEMA = """
CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS hits (key TEXT NOT NULL, at REAL NOT NULL, expires REAL NOT NULL);
CREATE INDEX IF NOT EXISTS hits_by_key ON hits (key, at);
CREATE TABLE IF NOT EXISTS threads (thread TEXT PRIMARY KEY, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS turns (seq INTEGER PRIMARY KEY AUTOINCREMENT, thread TEXT NOT NULL,
                                  role TEXT NOT NULL, content TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS turns_by_thread ON turns (thread, seq);
CREATE TABLE IF NOT EXISTS votes (answer TEXT NOT NULL, user TEXT NOT NULL, value TEXT NOT NULL,
                                  expires REAL NOT NULL, PRIMARY KEY (answer, user));
CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS lease_queue (seq INTEGER PRIMARY KEY AUTOINCREMENT,
                                        thread TEXT NOT NULL, token TEXT NOT NULL UNIQUE,
                                        deadline REAL NOT NULL);
CREATE TABLE IF NOT EXISTS place_settings (place TEXT NOT NULL, key TEXT NOT NULL,
                                           value TEXT NOT NULL, PRIMARY KEY (place, key));
CREATE TABLE IF NOT EXISTS settings_history (seq INTEGER PRIMARY KEY AUTOINCREMENT,
                                             place TEXT NOT NULL, key TEXT NOT NULL, old TEXT,
                                             new TEXT, by TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS settings_history_by_place ON settings_history (place, seq);
CREATE INDEX IF NOT EXISTS settings_history_by_person ON settings_history (by);
CREATE TABLE IF NOT EXISTS daily (key TEXT PRIMARY KEY, day INTEGER NOT NULL, n INTEGER NOT NULL);
"""
_SWEEP = f"""
DELETE FROM claims WHERE expires <= :now;
DELETE FROM hits WHERE expires <= :now;
DELETE FROM turns WHERE thread IN (SELECT thread FROM threads WHERE expires <= :now);
DELETE FROM threads WHERE expires <= :now;
DELETE FROM votes WHERE expires <= :now;
DELETE FROM cache WHERE expires <= :now;
DELETE FROM settings_history WHERE at <= :now - {SETTINGS_HISTORY_TTL};
DELETE FROM daily WHERE day < CAST(:now / {DAY_SECONDS} AS INTEGER);
"""


class SqliteState(StateBase):
    def __init__(self, path: str, *, timeout: float = STATE_TIMEOUT) -> None:
        """Open (creating) the database now, so a bad path fails at start-up, not mid-answer.
        ``timeout``: how long a step waits for another process's lock on the file."""
        super().__init__()
        self._db = sqlite3.connect(
            path, timeout=timeout, isolation_level=None, check_same_thread=False
        )
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA + sqlite_log.SCHEMA)
            sqlite_log.migrate(self._db, time.time())
        except sqlite3.Error:
            self._db.close()
            raise
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="citebot-sqlite")
        self._next_sweep = 0.0

    async def _run(self, step: Callable[[sqlite3.Connection, float], T]) -> T:
        """Run ``step(db, now)`` as one write transaction on the database thread."""

        def transaction() -> T:
            now = time.time()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if now >= self._next_sweep:
                    self._next_sweep = now + _SWEEP_EVERY
                    sweep = _SWEEP + sqlite_log.SWEEP
                    for statement in filter(str.strip, sweep.split(";")):
                        self._db.execute(statement, {"now": now})
                result = step(self._db, now)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return result

        return await asyncio.get_running_loop().run_in_executor(self._thread, transaction)

    async def ping(self) -> bool:
        try:
            return await self._run(lambda db, now: db.execute("SELECT 1").fetchone() == (1,))
        except sqlite3.Error:
            return False

    async def aclose(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._db.close)
        self._thread.shutdown(wait=True)

    async def first_time(self, key: str, *, ttl: float = DEDUP_TTL) -> bool:
        def claim(db: sqlite3.Connection, now: float) -> bool:
            db.execute("DELETE FROM claims WHERE key = ? AND expires <= ?", (key, now))
            inserted = db.execute("INSERT OR IGNORE INTO claims VALUES (?, ?)", (key, now + ttl))
            return inserted.rowcount == 1

        return await self._run(claim)

    async def hit(self, key: str, *, limit: int, per_seconds: float) -> RateDecision:
        def count(db: sqlite3.Connection, now: float) -> RateDecision:
            db.execute("DELETE FROM hits WHERE key = ? AND at <= ?", (key, now - per_seconds))
            times = [
                at for (at,) in db.execute("SELECT at FROM hits WHERE key = ? ORDER BY at", (key,))
            ]
            decision = sliding_window(times, now=now, limit=limit, per_seconds=per_seconds)
            if decision.allowed:
                db.execute("INSERT INTO hits VALUES (?, ?, ?)", (key, now, now + per_seconds))
            return decision

        return await self._run(count)

    async def append(
        self, thread_key: str, *turns: Turn, ttl: float = MEMORY_TTL, keep: int = MEMORY_KEEP
    ) -> None:
        def add(db: sqlite3.Connection, now: float) -> None:
            expired = db.execute(
                "SELECT 1 FROM threads WHERE thread = ? AND expires <= ?", (thread_key, now)
            ).fetchone()
            if expired:
                db.execute("DELETE FROM turns WHERE thread = ?", (thread_key,))
            db.execute("INSERT OR REPLACE INTO threads VALUES (?, ?)", (thread_key, now + ttl))
            db.executemany(
                "INSERT INTO turns (thread, role, content) VALUES (?, ?, ?)",
                [(thread_key, turn.role, turn.content) for turn in turns],
            )
            db.execute(
                "DELETE FROM turns WHERE thread = ? AND seq NOT IN (SELECT seq FROM turns"
                " WHERE thread = ? ORDER BY seq DESC LIMIT ?)",
                (thread_key, thread_key, keep),
            )

        await self._run(add)

    async def recent(self, thread_key: str, limit: int) -> tuple[Turn, ...]:
        def read(db: sqlite3.Connection, now: float) -> tuple[Turn, ...]:
            rows = db.execute(
                "SELECT role, content FROM turns JOIN threads USING (thread)"
                " WHERE thread = ? AND expires > ? ORDER BY seq DESC LIMIT ?",
                (thread_key, now, max(limit, 0)),
            ).fetchall()
            return tuple(Turn(role, content) for role, content in reversed(rows))

        return await self._run(read)

    async def record_feedback(
        self, answer_key: str, user_id: str, value: str, *, ttl: float = FEEDBACK_TTL
    ) -> bool:
        def vote(db: sqlite3.Connection, now: float) -> bool:
            old = db.execute(
                "SELECT value FROM votes WHERE answer = ? AND user = ? AND expires > ?",
                (answer_key, user_id, now),
            ).fetchone()
            db.execute(
                "INSERT OR REPLACE INTO votes VALUES (?, ?, ?, ?)",
                (answer_key, user_id, value, now + ttl),
            )
            db.execute("UPDATE votes SET expires = ? WHERE answer = ?", (now + ttl, answer_key))
            return old is None or old[0] != value

        return await self._run(vote)

    async def feedback(self, answer_key: str) -> dict[str, str]:
        rows = await self._run(
            lambda db, now: db.execute(
                "SELECT user, value FROM votes WHERE answer = ? AND expires > ?", (answer_key, now)
            ).fetchall()
        )
        return dict(rows)

    async def cached(self, key: str) -> str | None:
        row = await self._run(
            lambda db, now: db.execute(
                "SELECT value FROM cache WHERE key = ? AND expires > ?", (key, now)
            ).fetchone()
        )
        return None if row is None else str(row[0])

    async def cache(self, key: str, value: str, *, ttl: float) -> None:
        await self._run(
            lambda db, now: db.execute(
                "INSERT OR REPLACE INTO cache VALUES (?, ?, ?)", (key, value, now + ttl)
            )
        )

    async def _claim(self, thread_key: str, token: str, ttl: float) -> int:
        def claim(db: sqlite3.Connection, now: float) -> int:
            db.execute("DELETE FROM lease_queue WHERE deadline <= ?", (now,))
            refreshed = db.execute(
                "UPDATE lease_queue SET deadline = ? WHERE token = ?", (now + ttl, token)
            )
            if refreshed.rowcount == 0:
                db.execute(
                    "INSERT INTO lease_queue (thread, token, deadline) VALUES (?, ?, ?)",
                    (thread_key, token, now + ttl),
                )
            (ahead,) = db.execute(
                "SELECT COUNT(*) FROM lease_queue WHERE thread = ?"
                " AND seq < (SELECT seq FROM lease_queue WHERE token = ?)",
                (thread_key, token),
            ).fetchone()
            return int(ahead)

        return await self._run(claim)

    async def _leave(self, thread_key: str, token: str) -> None:
        await self._run(
            lambda db, now: db.execute("DELETE FROM lease_queue WHERE token = ?", (token,))
        )

    async def place_settings(self, places: Sequence[str]) -> dict[str, dict[str, str]]:
        def read(db: sqlite3.Connection, now: float) -> dict[str, dict[str, str]]:
            found: dict[str, dict[str, str]] = {}
            for place in places:
                rows = db.execute(
                    "SELECT key, value FROM place_settings WHERE place = ?", (place,)
                ).fetchall()
                if rows:
                    found[place] = dict(rows)
            return found

        return await self._run(read)

    async def every_place_settings(self) -> dict[str, dict[str, str]]:
        def read(db: sqlite3.Connection, now: float) -> dict[str, dict[str, str]]:
            found: dict[str, dict[str, str]] = {}
            for place, key, value in db.execute("SELECT place, key, value FROM place_settings"):
                found.setdefault(place, {})[key] = value
            return found

        return await self._run(read)

    async def change_place_settings(
        self,
        changes: Mapping[str, Mapping[str, str | None]],
        *,
        by: str,
        keep: int = SETTINGS_HISTORY_KEEP,
        history_ttl: float = SETTINGS_HISTORY_TTL,
    ) -> list[SettingChange]:
        def change(db: sqlite3.Connection, now: float) -> list[SettingChange]:
            made = []
            for place, keys in changes.items():
                current = dict(
                    db.execute(
                        "SELECT key, value FROM place_settings WHERE place = ?", (place,)
                    ).fetchall()
                )
                for key, old, new in changed_settings(current, keys):
                    db.execute(
                        "DELETE FROM place_settings WHERE place = ? AND key = ?", (place, key)
                    )
                    if new is not None:
                        db.execute("INSERT INTO place_settings VALUES (?, ?, ?)", (place, key, new))
                    db.execute(
                        "INSERT INTO settings_history (place, key, old, new, by, at)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (place, key, old, new, by, now),
                    )
                    made.append(
                        SettingChange(at=now, by=by, place=place, key=key, old=old, new=new)
                    )
                db.execute(
                    "DELETE FROM settings_history WHERE place = ? AND (at <= ? OR seq NOT IN"
                    " (SELECT seq FROM settings_history WHERE place = ? ORDER BY seq DESC"
                    " LIMIT ?))",
                    (place, now - history_ttl, place, keep),
                )
            return made

        return await self._run(change)

    async def settings_history(
        self, place: str | None = None, *, history_ttl: float = SETTINGS_HISTORY_TTL
    ) -> list[SettingChange]:
        def read(db: sqlite3.Connection, now: float) -> list[SettingChange]:
            rows = db.execute(
                "SELECT at, by, place, key, old, new FROM settings_history"
                " WHERE (? IS NULL OR place = ?) AND at > ? ORDER BY seq",
                (place, place, now - history_ttl),
            ).fetchall()
            return [
                SettingChange(at=at, by=by, place=where, key=key, old=old, new=new)
                for at, by, where, key, old, new in rows
            ]

        return await self._run(read)

    async def take_daily(self, limits: Mapping[str, int]) -> QuotaDecision:
        def take(db: sqlite3.Connection, now: float) -> QuotaDecision:
            today, left = utc_day(now)
            counts = {}
            for key, limit in limits.items():
                row = db.execute(
                    "SELECT n FROM daily WHERE key = ? AND day = ?", (key, today)
                ).fetchone()
                counts[key] = 0 if row is None else int(row[0])
                if counts[key] >= limit:
                    return QuotaDecision(allowed=False, refused_by=key, retry_after=left)
            db.executemany(
                "INSERT OR REPLACE INTO daily VALUES (?, ?, ?)",
                [(key, today, count + 1) for key, count in counts.items()],
            )
            sqlite_log.note_counters(db, now, limits, until=now + left)
            return QuotaDecision(allowed=True)

        return await self._run(take)

    async def add_daily(self, amounts: Mapping[str, int]) -> None:
        def add(db: sqlite3.Connection, now: float) -> None:
            today, _ = utc_day(now)
            db.executemany(
                "INSERT INTO daily VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET"
                " n = CASE WHEN day = excluded.day THEN n + excluded.n ELSE excluded.n END,"
                " day = excluded.day",
                [(key, today, amount) for key, amount in amounts.items()],
            )

        await self._run(add)

    async def daily_counts(self, counters: Sequence[str]) -> dict[str, int]:
        def read(db: sqlite3.Connection, now: float) -> dict[str, int]:
            today, _ = utc_day(now)
            counts = dict.fromkeys(counters, 0)
            for key in counters:
                row = db.execute(
                    "SELECT n FROM daily WHERE key = ? AND day = ?", (key, today)
                ).fetchone()
                counts[key] = 0 if row is None else int(row[0])
            return counts

        return await self._run(read)

    # -- the answer log and forgetting (bot/state/sqlite_log.py) ------------------------------

    async def log_answer(self, record: LoggedAnswer, *, retention: float) -> None:
        await self._run(lambda db, now: sqlite_log.log_answer(db, now, record, retention))

    async def log_verdicts(self, answer_id: str, verdicts: Sequence[str | None]) -> None:
        await self._run(lambda db, now: sqlite_log.log_verdicts(db, now, answer_id, verdicts))

    async def log_vote(self, vote_key: str, vote: LoggedVote) -> LoggedAnswer | None:
        return await self._run(lambda db, now: sqlite_log.log_vote(db, now, vote_key, vote))

    async def logged_answers(
        self,
        *,
        since: float,
        until: float,
        platform: str | None = None,
        server: str | None = None,
        batch: int = 1000,
    ) -> AsyncIterator[LoggedBatch]:
        page = functools.partial(
            sqlite_log.logged_page,
            since=since,
            until=until,
            platform=platform,
            server=server,
            batch=batch,
        )
        after: tuple[float, str] | None = (-float("inf"), "")
        while after is not None:
            found, after = await self._run(functools.partial(page, after=after))
            if after is not None:
                yield found

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
        kinds = (("thread", threads), ("vote", votes), ("note", notes))
        await self._run(
            lambda db, now: sqlite_log.note_belongings(
                db, now, platform, person, server, kinds, ttl
            )
        )

    async def forget_person(self, platform: str, person: str) -> int:
        return await self._run(lambda db, now: sqlite_log.forget_person(db, now, platform, person))

    async def forget_place(self, platform: str, server: str) -> int:
        return await self._run(lambda db, now: sqlite_log.forget_place(db, now, platform, server))
