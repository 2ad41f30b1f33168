"""Shared state behind small async ports; ``STATE_URL`` picks where it lives.

``sqlite:///PATH`` (the default, a file in the user's data directory: the workers of one
machine and the command line, kept on restart; ``sqlite:///rel/path`` or
``sqlite:////abs/path``), ``redis://HOST:PORT/DB`` or ``rediss://`` (any number of workers),
and ``memory://`` (one process, kept by nothing: tests).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import SplitResult, urlsplit

from bot.state.logged import LoggedAnswer, LoggedBatch, LoggedSource, LoggedVote
from bot.state.memory import MemoryState
from bot.state.ports import (
    ANSWER_LOG_DAYS,
    DEDUP_TTL,
    FEEDBACK_TTL,
    LEASE_TTL,
    MEMORY_KEEP,
    MEMORY_TTL,
    SETTINGS_HISTORY_KEEP,
    SETTINGS_HISTORY_TTL,
    STATE_TIMEOUT,
    AnswerLogStore,
    Cache,
    ConversationMemory,
    DailyQuotas,
    Dedup,
    Feedback,
    Forgetting,
    ForgetTooSoon,
    Leases,
    OnWait,
    PlaceSettingsStore,
    QuotaDecision,
    RateDecision,
    RateLimiter,
    SettingChange,
    State,
    StateUnavailable,
)
from config.environment import shown_url
from config.settings import SettingsError

__all__ = [
    "ANSWER_LOG_DAYS",
    "DEDUP_TTL",
    "FEEDBACK_TTL",
    "LEASE_TTL",
    "MEMORY_KEEP",
    "MEMORY_TTL",
    "SETTINGS_HISTORY_KEEP",
    "SETTINGS_HISTORY_TTL",
    "STATE_TIMEOUT",
    "AnswerLogStore",
    "Cache",
    "ConversationMemory",
    "DailyQuotas",
    "Dedup",
    "Feedback",
    "ForgetTooSoon",
    "Forgetting",
    "Leases",
    "LoggedAnswer",
    "LoggedBatch",
    "LoggedSource",
    "LoggedVote",
    "OnWait",
    "PlaceSettingsStore",
    "QuotaDecision",
    "RateDecision",
    "RateLimiter",
    "SettingChange",
    "State",
    "StateUnavailable",
    "kept_by_nothing",
    "open_state",
    "store_failure",
]

KEPT_BY_NOTHING = (
    "STATE_URL=memory:// keeps settings, the answer log and conversations in this process"
    " alone: nothing will survive a restart"
)


def kept_by_nothing(url: str) -> str | None:
    """What to say at start-up about ``url``: that nothing survives a restart on
    ``memory://``; None for a store that keeps what it holds."""
    return KEPT_BY_NOTHING if urlsplit(url.strip()).scheme == "memory" else None


def store_failure(url: str, error: BaseException) -> str | None:
    """The one line a command prints when the store at ``url`` did not answer (``citebot
    settings``, ``citebot report``: an operator's command says so rather than fail open);
    None when ``error`` is no store's failure. What each backend raises is named here once:
    Redis's errors, SQLite's, the socket's, and :class:`StateUnavailable`."""
    from redis.exceptions import RedisError  # not imported by every other command

    if not isinstance(error, RedisError | sqlite3.Error | OSError | StateUnavailable):
        return None
    return f"STATE_URL: the state store at {shown_url(url)} did not answer ({type(error).__name__})"


def open_state(url: str, *, namespace: str = "citebot", timeout: float = STATE_TIMEOUT) -> State:
    """The backend ``url`` names, ready to use; close it with ``aclose()`` or ``async with``.

    ``namespace`` prefixes every Redis key, so several deployments (or tests) share a server.
    ``timeout`` bounds connecting and each call (Redis; SQLite waits that long for a lock);
    the backend raises its own errors (:class:`~bot.state.failopen.FailOpenState` words them
    for the answers). A malformed URL or an unopenable database raises :class:`SettingsError`
    naming STATE_URL.
    """
    parts = urlsplit(url.strip())
    if parts.scheme == "memory":
        return MemoryState()
    if parts.scheme == "sqlite":
        return _open_sqlite(parts.netloc, parts.path, timeout=timeout)
    if parts.scheme in ("redis", "rediss"):
        return _open_redis(url.strip(), parts, namespace=namespace, timeout=timeout)
    raise SettingsError(
        f"STATE_URL: must start with memory://, sqlite:/// or redis://, got {parts.scheme!r}"
    )


def _open_sqlite(netloc: str, path: str, *, timeout: float) -> State:
    """The file's folder is made when missing (the default's, in a fresh home); one that
    cannot be made or written is one line saying so and what to set instead."""
    from bot.state.sqlite import SqliteState

    path = path.removeprefix("/")
    if netloc or not path:
        raise SettingsError("STATE_URL: write sqlite:///relative/path or sqlite:////absolute/path")
    instead = "set STATE_URL to a writable sqlite:///PATH, a redis:// URL, or memory://"
    try:
        Path(path).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise SettingsError(
            f"STATE_URL: cannot make the folder of the SQLite database {path!r}"
            f" ({reason}); {instead}"
        ) from None
    try:
        return SqliteState(path, timeout=timeout)
    except sqlite3.Error as error:
        raise SettingsError(
            f"STATE_URL: cannot open the SQLite database {path!r} ({error}); {instead}"
        ) from None


def _open_redis(url: str, parts: SplitResult, *, namespace: str, timeout: float) -> State:
    """Errors never quote the URL: it may carry a password.

    The timeouts are explicit: redis-py 5 waits forever by default, redis-py 8 five seconds
    with ten retries, so a hung server would hold an answer for a minute. One quick retry
    stays, for a pooled connection that died with a restarted server. The URL's own
    ``?socket_timeout=`` and ``?socket_connect_timeout=`` win.
    """
    from redis.asyncio import Redis
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff

    from bot.state.redis import RedisState

    try:
        port = parts.port
    except ValueError:
        raise SettingsError("STATE_URL: the Redis port must be a number") from None
    database = parts.path.removeprefix("/")
    if not parts.hostname or not (database == "" or database.isdigit()):
        raise SettingsError(
            f"STATE_URL: write {parts.scheme}://HOST:PORT/DB (DB a number), e.g. redis://redis:6379/0"
        )
    try:
        client = Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(ExponentialBackoff(cap=0.1, base=0.01), retries=1),
        )
    except ValueError:
        raise SettingsError(f"STATE_URL: not a usable Redis URL (port {port})") from None
    return RedisState(client, namespace=namespace)
