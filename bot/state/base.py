"""What every backend shares: the lease queue's waiting loop and the sliding window's arithmetic.

A backend supplies two atomic steps on a per-thread queue ordered by arrival: ``_claim`` (join or
refresh one's place, drop places whose owners stopped refreshing, say how many are ahead) and
``_leave``. The loop here turns them into a fair lease. Waiters in this process wake at once
when a local holder leaves; a holder in another worker is noticed by polling.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Self

from bot.state.ports import LEASE_TTL, OnWait, RateDecision

__all__ = ["StateBase", "raise_if_cancelling", "sliding_window", "until_set", "utc_day"]

log = logging.getLogger(__name__)

DAY_SECONDS = 86400
_FIRST_POLL = 0.01
_MAX_POLL = 0.2


async def until_set(event: asyncio.Event, seconds: float) -> None:
    """Wait until ``event`` is set or ``seconds`` pass, and stay cancellable throughout: on
    Python 3.11 a cancel that meets ``wait_for``'s (or ``asyncio.timeout``'s) own timeout can be
    swallowed, and a loop napping that way outlives the task that was told to stop."""
    waiter = asyncio.ensure_future(event.wait())
    try:
        await asyncio.wait({waiter}, timeout=seconds)
    finally:
        waiter.cancel()


def raise_if_cancelling() -> None:
    """In a loop that never ends by itself: stop if this task was told to. redis-py can turn a
    cancel into a TimeoutError (under ``asyncio.timeout``, on Python 3.11) and even retry it into
    a normal return, so a loop that carries on after errors, or after a call that returned,
    would never end; the task still counts the cancel, and this raises it again."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


def sliding_window(
    times: Sequence[float], *, now: float, limit: int, per_seconds: float
) -> RateDecision:
    """Decide a hit from the earlier hits still inside the window (ascending)."""
    if len(times) < limit:
        return RateDecision(allowed=True)
    return RateDecision(allowed=False, retry_after=max(times[-limit] + per_seconds - now, 0.0))


def utc_day(now: float) -> tuple[int, float]:
    """The UTC day ``now`` (seconds since the epoch) falls in, as a day number, and the seconds
    left in it: the daily quotas' day, and when their counters end."""
    day = int(now // DAY_SECONDS)
    return day, (day + 1) * DAY_SECONDS - now


def changed_settings(
    current: dict[str, str], changes: Mapping[str, str | None]
) -> list[tuple[str, str | None, str | None]]:
    """Apply ``changes`` (None unsets) to one place's ``current`` keys in place; each key whose
    value changed, with its old and new value, in the order of ``changes``."""
    applied = []
    for key, new in changes.items():
        old = current.get(key)
        if old == new:
            continue
        if new is None:
            del current[key]
        else:
            current[key] = new
        applied.append((key, old, new))
    return applied


class StateBase(ABC):
    def __init__(self) -> None:
        self._wakeups: dict[str, asyncio.Event] = {}

    @abstractmethod
    async def _claim(self, thread_key: str, token: str, ttl: float) -> int:
        """Join the thread's queue (or refresh one's place) for ``ttl``; how many are ahead."""

    @abstractmethod
    async def _leave(self, thread_key: str, token: str) -> None: ...

    @abstractmethod
    async def aclose(self) -> None: ...

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    @contextlib.asynccontextmanager
    async def lease(
        self, thread_key: str, *, ttl: float = LEASE_TTL, on_wait: OnWait | None = None
    ) -> AsyncIterator[None]:
        token = secrets.token_hex(8)
        poll_cap = min(_MAX_POLL, ttl / 4)
        try:
            ahead = await self._claim(thread_key, token, ttl)
            if ahead and on_wait is not None:
                await on_wait(ahead)
            delay = _FIRST_POLL
            while ahead:
                await self._nap(thread_key, min(delay, poll_cap))
                delay *= 2
                ahead = await self._claim(thread_key, token, ttl)
            renewal = asyncio.create_task(self._renew(thread_key, token, ttl))
            try:
                yield
            finally:
                renewal.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await renewal
        finally:
            try:
                await asyncio.shield(self._leave(thread_key, token))
            except Exception as error:  # the store is gone: the place lapses after ``ttl``
                log.warning("could not leave a thread lease: %s", type(error).__name__)
            woken = self._wakeups.pop(thread_key, None)
            if woken is not None:
                woken.set()

    async def _nap(self, thread_key: str, seconds: float) -> None:
        await until_set(self._wakeups.setdefault(thread_key, asyncio.Event()), seconds)

    async def _renew(self, thread_key: str, token: str, ttl: float) -> None:
        while True:
            raise_if_cancelling()  # a cancel the store's client swallowed (see there)
            await asyncio.sleep(ttl / 3)
            try:
                ahead = await self._claim(thread_key, token, ttl)
            except Exception as error:  # the answer goes on; only a dead worker loses its lease
                raise_if_cancelling()
                log.warning("could not renew a thread lease: %s", type(error).__name__)
                continue
            if ahead:
                log.warning("a thread lease lapsed while held; another answer may overlap")
