"""The shared state the adapters lean on, as small async ports.

Every backend (memory, SQLite, Redis) implements all of them, so an adapter holds one
:class:`State` and never learns where it lives. Workers that share a backend share the answers:
an event claimed by one is seen as claimed by all, a user's hits count once across them, and a
thread's lease is one queue for every worker.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol, Self

from bot.state.logged import LoggedAnswer, LoggedBatch, LoggedVote
from bot.upstream.events import Turn

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
    "Forgetting",
    "Leases",
    "OnWait",
    "PlaceSettingsStore",
    "QuotaDecision",
    "RateDecision",
    "RateLimiter",
    "SettingChange",
    "State",
    "StateUnavailable",
]

DEDUP_TTL = 600.0
"""Slack redelivers for a few minutes and old and new workers overlap in a deploy: 10 min."""
MEMORY_TTL = 7 * 24 * 3600.0
MEMORY_KEEP = 50
"""Turns kept per thread; ``recent()`` asks for fewer, this only bounds storage."""
FEEDBACK_TTL = 30 * 24 * 3600.0
STATE_TIMEOUT = 2.0
"""Seconds to connect to the store and for each call (``STATE_TIMEOUT_SECONDS``)."""
LEASE_TTL = 30.0
"""How long a crashed worker's lease (or place in the queue) outlives it; live holders renew."""

SETTINGS_HISTORY_KEEP = 200
"""Changes kept per place: enough for a community's whole story of settings, bounded anyway."""
SETTINGS_HISTORY_TTL = 366 * 24 * 3600.0
"""How long a recorded change is kept: a year (and a day), whatever ``SETTINGS_HISTORY_KEEP``."""
ANSWER_LOG_DAYS = 30
"""Days an answer's record is kept (``ANSWER_LOG_DAYS``)."""
OnWait = Callable[[int], Awaitable[None]]
"""Told the 1-based place in the queue when a caller has to wait (1 = next in line)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RateDecision:
    """Whether a hit was counted; when refused, how many seconds until one would be."""

    allowed: bool
    retry_after: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class QuotaDecision:
    """Whether a daily count was taken; when refused, which counter refused it and how many
    seconds until its day (the UTC day) ends."""

    allowed: bool
    refused_by: str | None = None
    retry_after: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class SettingChange:
    """One recorded change of a place's setting; ``old`` or ``new`` None: it was not set."""

    at: float
    """Seconds since the epoch, by the store's clock."""
    by: str
    """Who changed it: a platform user's id, or ``operator`` for the command line."""
    place: str
    key: str
    old: str | None
    new: str | None


class StateUnavailable(Exception):
    """The store did not answer a call that must not fail open: an admin's change, or a
    history, is never pretended done (:class:`~bot.state.failopen.FailOpenState`)."""


class ForgetTooSoon(Exception):
    """Forget-me asked again within ``bot.service.FORGET_LIMIT``: nothing was done (say
    :meth:`Wording.forget_me_too_soon` with :attr:`retry_after`)."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"forget-me again in {retry_after:.0f} s")
        self.retry_after = retry_after


class Dedup(Protocol):
    async def first_time(self, key: str, *, ttl: float = DEDUP_TTL) -> bool:
        """Claim ``key``: True for exactly one caller across every worker until ``ttl`` passes."""
        ...


class RateLimiter(Protocol):
    async def hit(self, key: str, *, limit: int, per_seconds: float) -> RateDecision:
        """Count one hit against ``key`` if fewer than ``limit`` fell in the last ``per_seconds``
        (a sliding window). A refused hit is not counted."""
        ...


class ConversationMemory(Protocol):
    async def append(
        self, thread_key: str, *turns: Turn, ttl: float = MEMORY_TTL, keep: int = MEMORY_KEEP
    ) -> None:
        """Add turns to a thread, oldest first; the thread lives ``ttl`` from this write and
        keeps its last ``keep`` turns."""
        ...

    async def recent(self, thread_key: str, limit: int) -> tuple[Turn, ...]:
        """The last ``limit`` turns of a thread, oldest first; () when unknown or expired."""
        ...


class Feedback(Protocol):
    """The votes of the feedback buttons under each answer."""

    async def record_feedback(
        self, answer_key: str, user_id: str, value: str, *, ttl: float = FEEDBACK_TTL
    ) -> bool:
        """One vote per user per answer, the latest wins; True when this changed the vote."""
        ...

    async def feedback(self, answer_key: str) -> dict[str, str]:
        """Every user's current vote on an answer."""
        ...


class Cache(Protocol):
    """Small values worth sharing between workers for a while (a quote check's verdict)."""

    async def cached(self, key: str) -> str | None:
        """The value kept under ``key``; None when there is none or it expired."""
        ...

    async def cache(self, key: str, value: str, *, ttl: float) -> None:
        """Keep ``value`` under ``key`` for ``ttl`` seconds, replacing any earlier one."""
        ...


class Leases(Protocol):
    def lease(
        self, thread_key: str, *, ttl: float = LEASE_TTL, on_wait: OnWait | None = None
    ) -> AbstractAsyncContextManager[None]:
        """Hold a thread for one answer at a time; later callers wait in arrival order.

        ``on_wait`` hears the caller's place once when it has to queue. The holder renews the
        lease while inside; if its worker dies, the next in line takes over after ``ttl``.
        """
        ...


class PlaceSettingsStore(Protocol):
    """Each place's settings, as the text the command line takes (``on``, ``fr``, ``30``), and
    the record of their changes. A place is its text (``discord:1/2``); a key is a setting's
    name. The store keeps what it is given: checking it is ``bot.places``'s work."""

    async def place_settings(self, places: Sequence[str]) -> dict[str, dict[str, str]]:
        """The set keys of each of ``places`` (a place with none set is left out)."""
        ...

    async def every_place_settings(self) -> dict[str, dict[str, str]]:
        """The set keys of every place that has any."""
        ...

    async def change_place_settings(
        self,
        changes: Mapping[str, Mapping[str, str | None]],
        *,
        by: str,
        keep: int = SETTINGS_HISTORY_KEEP,
        history_ttl: float = SETTINGS_HISTORY_TTL,
    ) -> list[SettingChange]:
        """Apply every change (place -> key -> value, None to unset) in one step: all of them
        or, when the store fails, none. Each that changed a value is recorded in its place's
        history (the last ``keep``, none older than ``history_ttl``) and returned, in order."""
        ...

    async def settings_history(
        self, place: str | None = None, *, history_ttl: float = SETTINGS_HISTORY_TTL
    ) -> list[SettingChange]:
        """The recorded changes of ``place`` (None: of every place), oldest first."""
        ...


class DailyQuotas(Protocol):
    async def take_daily(self, limits: Mapping[str, int]) -> QuotaDecision:
        """Count one on every counter of ``limits`` (counter -> its limit a day) if none has
        reached its limit today, the UTC day by the store's clock; else count nothing and name
        the first that has. One step across every worker; counters end with their day."""
        ...

    async def add_daily(self, amounts: Mapping[str, int]) -> None:
        """Add to today's counts of ``amounts`` (counter -> how much), whatever their limit
        (tokens are known once spent); counters end with their day."""
        ...

    async def daily_counts(self, counters: Sequence[str]) -> dict[str, int]:
        """Today's count of each of ``counters`` (0 for one not counted today)."""
        ...


class AnswerLogStore(Protocol):
    """The answer log: one record per question (``bot.answerlog`` decides what it holds),
    completed later by the quote checks and the votes, and read back by the reports."""

    async def log_answer(self, record: LoggedAnswer, *, retention: float) -> None:
        """Keep ``record`` (replacing one with its id) until ``retention`` seconds after it was
        asked, findable by its time, its server, its asker and its vote key; records asked
        longer ago than ``retention`` go now."""
        ...

    async def log_verdicts(self, answer_id: str, verdicts: Sequence[str | None]) -> None:
        """Set the quote verdict of the record's sources, in order (None leaves one as it is);
        nothing when the record is gone."""
        ...

    async def log_vote(self, vote_key: str, vote: LoggedVote) -> LoggedAnswer | None:
        """Put ``vote`` on the record whose answer's votes arrive under ``vote_key`` (in place
        of the same person's earlier vote); the record as it was, None when there is none."""
        ...

    def logged_answers(
        self,
        *,
        since: float,
        until: float,
        platform: str | None = None,
        server: str | None = None,
        batch: int = 1000,
    ) -> AsyncIterator[LoggedBatch]:
        """The records asked from ``since`` until before ``until`` (seconds since the epoch),
        oldest first, ``batch`` at a time (each page counting the records it could not read);
        only ``server``'s (with its ``platform``) when given."""
        ...


class Forgetting(Protocol):
    """What is kept about a person or a place, found again and deleted at once."""

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
        """Note that the conversations ``threads`` (their memory's keys), the votes under
        ``votes`` (an answer's vote keys) and the cached ``notes`` (:meth:`Cache.cache`'s keys:
        which conversation a platform's message is in) belong to ``person`` and to ``server``,
        for ``ttl`` seconds (at least as long as they are kept)."""
        ...

    async def forget_person(self, platform: str, person: str) -> int:
        """Delete, in one step, everything kept about ``person``: their answers' records, their
        votes, the memory of the conversations they asked in, their daily counts and their
        rate window; settings they changed keep the change, not who made it. How many things
        were deleted."""
        ...

    async def forget_place(self, platform: str, server: str) -> int:
        """Delete, in one step, everything kept about ``server`` and its channels: settings and
        their history, answers' records, votes on its answers, its conversations' memory and
        its daily counts. How many things were deleted."""
        ...


class State(
    Dedup,
    RateLimiter,
    ConversationMemory,
    Feedback,
    Cache,
    Leases,
    PlaceSettingsStore,
    DailyQuotas,
    AnswerLogStore,
    Forgetting,
    Protocol,
):
    """Everything shared; an async context manager that closes the backend."""

    async def ping(self) -> bool:
        """Whether the backend answers (for ``/readyz``)."""
        ...

    async def aclose(self) -> None: ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(self, *exc_info: object) -> None: ...
