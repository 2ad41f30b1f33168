"""The answer log and forgetting on SQLite: the steps :class:`~bot.state.sqlite.SqliteState`
runs, each inside its one write transaction (so a forget is all or nothing).

A record is kept whole as JSON beside the columns it is found by; the report reads the JSON
(a record that cannot be read is counted, and left alone by a vote or a quote check).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import replace

from bot.state.base import utc_day
from bot.state.logged import FORGOTTEN, LoggedAnswer, LoggedBatch, LoggedVote, dumps
from bot.state.names import belongs_to_place, counted_person, rate_window

__all__ = [
    "SCHEMA",
    "SWEEP",
    "forget_person",
    "forget_place",
    "log_answer",
    "log_verdicts",
    "log_vote",
    "logged_page",
    "migrate",
    "note_belongings",
    "note_counters",
]

VERSION = 1
"""The schema's version (``PRAGMA user_version``): 1 notes each person's daily counters among
their belongings."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (id TEXT PRIMARY KEY, at REAL NOT NULL, expires REAL NOT NULL,
                                    platform TEXT NOT NULL, server TEXT, asker TEXT NOT NULL,
                                    vote_key TEXT, record TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS answers_by_time ON answers (at, id);
CREATE INDEX IF NOT EXISTS answers_by_server ON answers (platform, server, at, id);
CREATE INDEX IF NOT EXISTS answers_by_asker ON answers (platform, asker);
CREATE INDEX IF NOT EXISTS answers_by_vote_key ON answers (vote_key);
CREATE TABLE IF NOT EXISTS belongings (platform TEXT NOT NULL, kind TEXT NOT NULL,
                                       key TEXT NOT NULL, person TEXT NOT NULL,
                                       server TEXT NOT NULL, expires REAL NOT NULL,
                                       PRIMARY KEY (platform, kind, key, person, server));
CREATE INDEX IF NOT EXISTS belongings_by_person ON belongings (platform, person);
CREATE INDEX IF NOT EXISTS belongings_by_server ON belongings (platform, server);
"""
SWEEP = """
DELETE FROM answers WHERE expires <= :now;
DELETE FROM belongings WHERE expires <= :now;
"""


def log_answer(db: sqlite3.Connection, now: float, record: LoggedAnswer, retention: float) -> None:
    db.execute("DELETE FROM answers WHERE at <= ?", (now - retention,))
    if record.at <= now - retention:
        return
    db.execute(
        "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            record.id,
            record.at,
            record.at + retention,
            record.platform,
            record.server,
            record.asker,
            record.vote_key,
            dumps(record),
        ),
    )


def _read(db: sqlite3.Connection, where: str, *values: object) -> LoggedBatch:
    rows = db.execute(f"SELECT record FROM answers WHERE {where}", values).fetchall()
    return LoggedBatch.read(text for (text,) in rows)


def _rewrite(db: sqlite3.Connection, record: LoggedAnswer) -> None:
    db.execute("UPDATE answers SET record = ? WHERE id = ?", (dumps(record), record.id))


def log_verdicts(
    db: sqlite3.Connection, now: float, answer_id: str, verdicts: Sequence[str | None]
) -> None:
    for record in _read(db, "id = ? AND expires > ?", answer_id, now):
        _rewrite(db, record.checked(verdicts))


def log_vote(
    db: sqlite3.Connection, now: float, vote_key: str, vote: LoggedVote
) -> LoggedAnswer | None:
    for record in _read(db, "vote_key = ? AND expires > ?", vote_key, now):
        _rewrite(db, record.voted(vote))
        return record
    return None


def logged_page(
    db: sqlite3.Connection,
    now: float,
    *,
    since: float,
    until: float,
    platform: str | None,
    server: str | None,
    after: tuple[float, str],
    batch: int,
) -> tuple[LoggedBatch, tuple[float, str] | None]:
    """The next ``batch`` records after ``after`` (time, id), oldest first, and where the page
    ended (None: it was the last)."""
    place = "platform = ? AND server = ? AND " if server is not None else ""
    values: tuple[object, ...] = (platform, server) if server is not None else ()
    rows = db.execute(
        f"SELECT at, id, record FROM answers WHERE {place}at >= ? AND at < ? AND expires > ?"
        " AND (at, id) > (?, ?) ORDER BY at, id LIMIT ?",
        (*values, since, until, now, *after, batch),
    ).fetchall()
    ended = (float(rows[-1][0]), str(rows[-1][1])) if rows else None
    return LoggedBatch.read(record for _, _, record in rows), ended


def note_belongings(
    db: sqlite3.Connection,
    now: float,
    platform: str,
    person: str | None,
    server: str | None,
    kinds: Sequence[tuple[str, Sequence[str]]],
    ttl: float,
) -> None:
    db.executemany(
        "INSERT INTO belongings VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE"
        " SET expires = max(expires, excluded.expires)",
        [
            (platform, kind, key, person or "", server or "", now + ttl)
            for kind, keys in kinds
            for key in keys
        ],
    )


def note_counters(
    db: sqlite3.Connection, now: float, counters: Iterable[str], *, until: float
) -> None:
    """Note among their belongings the daily counters that count a person's questions (which
    end ``until``), so that forget-me finds them without reading anyone else's."""
    for counter in counters:
        if (owner := counted_person(counter)) is not None:
            platform, person = owner
            note_belongings(db, now, platform, person, None, [("counter", [counter])], until - now)


def migrate(db: sqlite3.Connection, now: float) -> None:
    """Bring a store written by an older citebot to :data:`VERSION`, once: today's counters of
    people noted as theirs (the day's only; older ones are swept)."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version >= VERSION:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        counters = [key for (key,) in db.execute("SELECT key FROM daily")]
        note_counters(db, now, counters, until=now + utc_day(now)[1])
        db.execute(f"PRAGMA user_version = {VERSION}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _forget_belongings(
    db: sqlite3.Connection, where: str, values: tuple[str, ...], person: str | None
) -> int:
    """Drop what the belongings ``where`` note: a conversation's memory; a cached note; a
    vote, ``person``'s (all of an answer's when None), in the votes and in its answer's
    record."""
    forgotten = 0
    rows = db.execute(f"SELECT kind, key FROM belongings WHERE {where}", values).fetchall()
    for kind, key in rows:
        if kind == "thread":
            forgotten += db.execute("DELETE FROM threads WHERE thread = ?", (key,)).rowcount
            db.execute("DELETE FROM turns WHERE thread = ?", (key,))
            continue
        if kind == "note":
            forgotten += db.execute("DELETE FROM cache WHERE key = ?", (key,)).rowcount
            continue
        if kind == "counter":
            forgotten += db.execute("DELETE FROM daily WHERE key = ?", (key,)).rowcount
            continue
        if person is None:
            deleted = db.execute("DELETE FROM votes WHERE answer = ?", (key,))
        else:
            deleted = db.execute("DELETE FROM votes WHERE answer = ? AND user = ?", (key, person))
        forgotten += deleted.rowcount
        for record in _read(db, "vote_key = ?", key):
            _rewrite(db, record.unvoted(person) if person else replace(record, votes=()))
    db.execute(f"DELETE FROM belongings WHERE {where}", values)
    return forgotten


def forget_person(db: sqlite3.Connection, now: float, platform: str, person: str) -> int:
    forgotten = db.execute(
        "DELETE FROM answers WHERE platform = ? AND asker = ?", (platform, person)
    ).rowcount
    forgotten += _forget_belongings(db, "platform = ? AND person = ?", (platform, person), person)
    window = rate_window(platform, person)
    forgotten += db.execute("DELETE FROM hits WHERE key = ?", (window,)).rowcount
    db.execute(
        "UPDATE settings_history SET by = ? WHERE by = ? AND substr(place, 1, ?) = ?",
        (FORGOTTEN, person, len(platform) + 1, f"{platform}:"),
    )
    return forgotten


def forget_place(db: sqlite3.Connection, now: float, platform: str, server: str) -> int:
    here = f"{platform}:{server}"
    inside = "(place = ? OR substr(place, 1, ?) = ?)"
    place = (here, len(here) + 1, f"{here}/")
    forgotten = db.execute(f"DELETE FROM place_settings WHERE {inside}", place).rowcount
    forgotten += db.execute(f"DELETE FROM settings_history WHERE {inside}", place).rowcount
    forgotten += db.execute(
        "DELETE FROM votes WHERE answer IN (SELECT vote_key FROM answers"
        " WHERE platform = ? AND server = ?)",
        (platform, server),
    ).rowcount
    forgotten += db.execute(
        "DELETE FROM answers WHERE platform = ? AND server = ?", (platform, server)
    ).rowcount
    forgotten += _forget_belongings(db, "platform = ? AND server = ?", (platform, server), None)
    counters = [key for (key,) in db.execute("SELECT key FROM daily")]
    for counter in counters:
        if belongs_to_place(counter, platform, server):
            forgotten += db.execute("DELETE FROM daily WHERE key = ?", (counter,)).rowcount
            db.execute("DELETE FROM belongings WHERE kind = 'counter' AND key = ?", (counter,))
    return forgotten
