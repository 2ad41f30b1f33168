"""The state store may fail; an answer may not. Every port of a backend, failing open.

Redis restarts, a network partition or a locked SQLite file must never leave a person without
an answer (CONTRACT: never silence), so each call gets ``timeout`` seconds and, when it fails,
the answer goes on as if the store had said yes: an event counts as new, a question as within
its user's limit, a thread as unknown, a vote as stored. A thread's lease falls back to one
held in this process, so a worker still answers one question of a thread at a time. Each
failure counts on ``on_failure(operation)`` (the worker's Prometheus counter) and the first of
an outage is logged once, as is the recovery.

After a failure the store is left alone for ``pause`` seconds (a hung host would otherwise
cost every call its timeout), then tried again: the worker recovers by itself once the store
is back, with nothing to restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Self, TypeVar

from bot.state.base import raise_if_cancelling
from bot.state.memory import MemoryState
from bot.state.ports import (
    DEDUP_TTL,
    FEEDBACK_TTL,
    LEASE_TTL,
    MEMORY_KEEP,
    MEMORY_TTL,
    OnWait,
    RateDecision,
    State,
)
from bot.upstream.events import Turn

__all__ = ["FailOpenState"]

log = logging.getLogger(__name__)

T = TypeVar("T")

PAUSE = 2.0
"""Seconds the store is left alone after a failure before it is tried again."""


class FailOpenState:
    """A :class:`~bot.state.ports.State` over ``backend`` that never raises a store failure."""

    def __init__(
        self,
        backend: State,
        *,
        timeout: float,
        on_failure: Callable[[str], None] = lambda operation: None,
        pause: float = PAUSE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.backend = backend
        self._timeout = timeout
        self._on_failure = on_failure
        self._pause = pause
        self._clock = clock
        self._down_until = -float("inf")
        self._down = False
        self._local = MemoryState()
        """Where leases are held while the store is down (this process only)."""

    async def _call(self, operation: str, call: Callable[[], Awaitable[T]], fallback: T) -> T:
        if self._clock() < self._down_until:
            self._on_failure(operation)
            return fallback
        try:
            async with asyncio.timeout(self._timeout):
                result = await call()
        except Exception as error:  # any store failure: the answer goes on without it
            self._failed(operation, error)
            return fallback
        self._recovered()
        return result

    def _failed(self, operation: str, error: BaseException) -> None:
        raise_if_cancelling()  # a cancel the store's client turned into an error is a cancel
        self._on_failure(operation)
        self._down_until = self._clock() + self._pause
        if not self._down:
            self._down = True
            log.warning(
                "the state store failed (%s in %s: %s); answering without it until it is back",
                type(error).__name__,
                operation,
                str(error)[:200],
            )

    def _recovered(self) -> None:
        if self._down:
            self._down = False
            log.warning("the state store is back")

    # -- the ports ---------------------------------------------------------------------------

    async def first_time(self, key: str, *, ttl: float = DEDUP_TTL) -> bool:
        return await self._call("dedup", lambda: self.backend.first_time(key, ttl=ttl), True)

    async def hit(self, key: str, *, limit: int, per_seconds: float) -> RateDecision:
        return await self._call(
            "rate_limit",
            lambda: self.backend.hit(key, limit=limit, per_seconds=per_seconds),
            RateDecision(allowed=True),
        )

    async def append(
        self, thread_key: str, *turns: Turn, ttl: float = MEMORY_TTL, keep: int = MEMORY_KEEP
    ) -> None:
        await self._call(
            "memory", lambda: self.backend.append(thread_key, *turns, ttl=ttl, keep=keep), None
        )

    async def recent(self, thread_key: str, limit: int) -> tuple[Turn, ...]:
        return await self._call("memory", lambda: self.backend.recent(thread_key, limit), ())

    async def record_feedback(
        self, answer_key: str, user_id: str, value: str, *, ttl: float = FEEDBACK_TTL
    ) -> bool:
        return await self._call(
            "feedback",
            lambda: self.backend.record_feedback(answer_key, user_id, value, ttl=ttl),
            False,
        )

    async def feedback(self, answer_key: str) -> dict[str, str]:
        return await self._call("feedback", lambda: self.backend.feedback(answer_key), {})

    async def cached(self, key: str) -> str | None:
        return await self._call("cache", lambda: self.backend.cached(key), None)

    async def cache(self, key: str, value: str, *, ttl: float) -> None:
        await self._call("cache", lambda: self.backend.cache(key, value, ttl=ttl), None)

    @contextlib.asynccontextmanager
    async def lease(
        self, thread_key: str, *, ttl: float = LEASE_TTL, on_wait: OnWait | None = None
    ) -> AsyncIterator[None]:
        """The store's lease; this process's own when the store fails before it is held.

        Waiting in the store's queue may take as long as the answers ahead of it, so only
        each call to the store is bounded (by the backend's own timeouts), not the wait.
        """
        async with contextlib.AsyncExitStack() as stack:
            held = False
            if self._clock() < self._down_until:
                self._on_failure("lease")
            else:
                try:
                    await stack.enter_async_context(
                        self.backend.lease(thread_key, ttl=ttl, on_wait=on_wait)
                    )
                    held = True
                except Exception as error:
                    self._failed("lease", error)
                else:
                    self._recovered()
            if not held:
                await stack.enter_async_context(
                    self._local.lease(thread_key, ttl=ttl, on_wait=on_wait)
                )
            yield

    # -- life ---------------------------------------------------------------------------------

    async def ping(self) -> bool:
        """The store's own answer (``/readyz`` reports it); a success ends an outage early."""
        try:
            async with asyncio.timeout(self._timeout):
                answered = await self.backend.ping()
        except Exception:
            return False
        if answered:
            self._down_until = -float("inf")
            self._recovered()
        return answered

    async def aclose(self) -> None:
        await self.backend.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
