"""The shared state the adapters lean on, as small async ports.

Every backend (memory, SQLite, Redis) implements all of them, so an adapter holds one
:class:`State` and never learns where it lives. Workers that share a backend share the answers:
an event claimed by one is seen as claimed by all, a user's hits count once across them, and a
thread's lease is one queue for every worker.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol, Self

from bot.upstream.events import Turn

__all__ = [
    "DEDUP_TTL",
    "FEEDBACK_TTL",
    "LEASE_TTL",
    "MEMORY_KEEP",
    "MEMORY_TTL",
    "STATE_TIMEOUT",
    "Cache",
    "ConversationMemory",
    "Dedup",
    "Feedback",
    "Leases",
    "OnWait",
    "RateDecision",
    "RateLimiter",
    "State",
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

OnWait = Callable[[int], Awaitable[None]]
"""Told the 1-based place in the queue when a caller has to wait (1 = next in line)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RateDecision:
    """Whether a hit was counted; when refused, how many seconds until one would be."""

    allowed: bool
    retry_after: float = 0.0


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


class State(Dedup, RateLimiter, ConversationMemory, Feedback, Cache, Leases, Protocol):
    """Everything shared; an async context manager that closes the backend."""

    async def ping(self) -> bool:
        """Whether the backend answers (for ``/readyz``)."""
        ...

    async def aclose(self) -> None: ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(self, *exc_info: object) -> None: ...
