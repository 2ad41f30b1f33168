"""The state store may fail; an answer may not. Every port of a backend, failing open.

Redis restarts, a network partition or a locked SQLite file must never leave a person without
an answer (never silence), so each call gets ``timeout`` seconds and, when it fails,
the answer goes on as if the store had said yes: an event counts as new, a question as within
its user's limit, a thread as unknown, a vote as stored. A thread's lease falls back to one
held in this process, so a worker still answers one question of a thread at a time. Each
failure counts on ``on_failure(operation)`` (the worker's Prometheus counter) and the first of
an outage is logged once, as is the recovery. A place's settings fall back to the last ones read
from the store (a channel an admin turned off stays off), or to the environment's when none was;
a daily quota lets the question through. What an admin asks of the store (a change, a history,
every place's settings, a report, a forget) is never pretended done: it raises
:class:`StateUnavailable`. The answer log is written failing open (an answer left out of it
is counted on ``on_failure("answer_log")``).

After a failure the store is left alone for ``pause`` seconds (a hung host would otherwise
cost every call its timeout), then tried again: the worker recovers by itself once the store
is back, with nothing to restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Literal, Self, TypeVar, get_args

from bot.state.base import raise_if_cancelling
from bot.state.logged import LoggedAnswer, LoggedBatch, LoggedVote
from bot.state.memory import MemoryState
from bot.state.ports import (
    DEDUP_TTL,
    FEEDBACK_TTL,
    LEASE_TTL,
    MEMORY_KEEP,
    MEMORY_TTL,
    SETTINGS_HISTORY_KEEP,
    SETTINGS_HISTORY_TTL,
    OnWait,
    QuotaDecision,
    RateDecision,
    SettingChange,
    State,
    StateUnavailable,
)
from bot.upstream.events import Turn

__all__ = ["OPERATIONS", "FailOpenState", "Operation"]

Operation = Literal[
    "answer_log",
    "cache",
    "daily_quota",
    "dedup",
    "feedback",
    "forget",
    "lease",
    "memory",
    "rate_limit",
    "settings",
]
"""What a failure is counted under (``on_failure``): a fixed set, a metric's label."""
OPERATIONS: tuple[Operation, ...] = get_args(Operation)

log = logging.getLogger(__name__)

T = TypeVar("T")

PAUSE = 2.0
"""Seconds the store is left alone after a failure before it is tried again."""
KNOWN_PLACES = 10_000
"""Places whose last read settings are kept for an outage (the least recently read go first)."""


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
        self._known: OrderedDict[str, dict[str, str]] = OrderedDict()
        """Each place's settings as last read, for when the store fails."""

    async def _call(self, operation: Operation, call: Callable[[], Awaitable[T]], fallback: T) -> T:
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

    async def _must(self, operation: Operation, call: Callable[[], Awaitable[T]]) -> T:
        """A call that cannot fail open: tried even during an outage's pause (an admin asked),
        bounded by the timeout, and a failure raised as :class:`StateUnavailable`."""
        try:
            async with asyncio.timeout(self._timeout):
                result = await call()
        except Exception as error:
            self._failed(operation, error)
            raise StateUnavailable(f"the state store failed ({type(error).__name__})") from None
        self._recovered()
        return result

    def _failed(self, operation: Operation, error: BaseException) -> None:
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

    async def place_settings(self, places: Sequence[str]) -> dict[str, dict[str, str]]:
        read = await self._call("settings", lambda: self.backend.place_settings(places), None)
        if read is None:
            return {place: dict(self._known[place]) for place in places if self._known.get(place)}
        for place in places:
            self._known[place] = read.get(place, {})
            self._known.move_to_end(place)
        while len(self._known) > KNOWN_PLACES:
            self._known.popitem(last=False)
        return read

    async def every_place_settings(self) -> dict[str, dict[str, str]]:
        return await self._must("settings", self.backend.every_place_settings)

    async def change_place_settings(
        self,
        changes: Mapping[str, Mapping[str, str | None]],
        *,
        by: str,
        keep: int = SETTINGS_HISTORY_KEEP,
        history_ttl: float = SETTINGS_HISTORY_TTL,
    ) -> list[SettingChange]:
        return await self._must(
            "settings",
            lambda: self.backend.change_place_settings(
                changes, by=by, keep=keep, history_ttl=history_ttl
            ),
        )

    async def settings_history(
        self, place: str | None = None, *, history_ttl: float = SETTINGS_HISTORY_TTL
    ) -> list[SettingChange]:
        return await self._must(
            "settings", lambda: self.backend.settings_history(place, history_ttl=history_ttl)
        )

    async def take_daily(self, limits: Mapping[str, int]) -> QuotaDecision:
        return await self._call(
            "daily_quota", lambda: self.backend.take_daily(limits), QuotaDecision(allowed=True)
        )

    async def add_daily(self, amounts: Mapping[str, int]) -> None:
        await self._call("daily_quota", lambda: self.backend.add_daily(amounts), None)

    async def daily_counts(self, counters: Sequence[str]) -> dict[str, int]:
        """Nothing counted when the store fails: a token budget lets the question through."""
        return await self._call("daily_quota", lambda: self.backend.daily_counts(counters), {})

    # -- the answer log and forgetting --------------------------------------------------------

    async def log_answer(self, record: LoggedAnswer, *, retention: float) -> None:
        await self._call(
            "answer_log", lambda: self.backend.log_answer(record, retention=retention), None
        )

    async def log_verdicts(self, answer_id: str, verdicts: Sequence[str | None]) -> None:
        await self._call("answer_log", lambda: self.backend.log_verdicts(answer_id, verdicts), None)

    async def log_vote(self, vote_key: str, vote: LoggedVote) -> LoggedAnswer | None:
        return await self._call("answer_log", lambda: self.backend.log_vote(vote_key, vote), None)

    async def logged_answers(
        self,
        *,
        since: float,
        until: float,
        platform: str | None = None,
        server: str | None = None,
        batch: int = 1000,
    ) -> AsyncIterator[LoggedBatch]:
        """A report is asked by a person: a store that fails raises, never an empty report."""
        pages = self.backend.logged_answers(
            since=since, until=until, platform=platform, server=server, batch=batch
        )
        while (page := await self._must("answer_log", lambda: anext(pages, None))) is not None:
            yield page

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
        await self._call(
            "answer_log",
            lambda: self.backend.note_belongings(
                platform,
                person=person,
                server=server,
                threads=threads,
                votes=votes,
                notes=notes,
                ttl=ttl,
            ),
            None,
        )

    async def forget_person(self, platform: str, person: str) -> int:
        return await self._must("forget", lambda: self.backend.forget_person(platform, person))

    async def forget_place(self, platform: str, server: str) -> int:
        """The place's settings read before are forgotten here too, as in the store."""
        here = f"{platform}:{server}"
        for place in [p for p in self._known if p == here or p.startswith(f"{here}/")]:
            del self._known[place]
        return await self._must("forget", lambda: self.backend.forget_place(platform, server))

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
