"""A cap on the answers one worker streams at once, with a fair queue behind it.

Per process and asyncio only: it protects this worker's sockets and the upstream's patience,
which no other worker shares. A caller told it is queued learns its place, so the user can see
"queued, you are number N" instead of silence.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator

from bot.state.ports import OnWait

__all__ = ["Admission", "AdmissionClosed"]


class AdmissionClosed(Exception):
    """The worker is shutting down: no new answers, and queued ones will not start."""


class Admission:
    def __init__(self, *, max_in_flight: int) -> None:
        if max_in_flight < 1:
            raise ValueError("max_in_flight must be at least 1")
        self._cap = max_in_flight
        self._running = 0
        self._queue: deque[asyncio.Future[None]] = deque()
        self._closed = False

    @property
    def in_flight(self) -> int:
        return self._running

    @property
    def queued(self) -> int:
        return len(self._queue)

    def close(self) -> None:
        """Refuse new slots and turn every queued caller away with :class:`AdmissionClosed`;
        answers already running keep their slots."""
        self._closed = True
        while self._queue:
            waiter = self._queue.popleft()
            if not waiter.done():
                waiter.set_exception(AdmissionClosed())

    @contextlib.asynccontextmanager
    async def slot(self, *, on_queued: OnWait | None = None) -> AsyncIterator[None]:
        """Hold one of the worker's answer slots; ``on_queued`` hears the 1-based place once
        when the caller has to wait. Raises :class:`AdmissionClosed` after :meth:`close`."""
        if self._closed:
            raise AdmissionClosed()
        if self._running < self._cap and not self._queue:
            self._running += 1
        else:
            await self._wait(on_queued)
        try:
            yield
        finally:
            self._release()

    async def _wait(self, on_queued: OnWait | None) -> None:
        """Queue up; a slot is handed over (``_running`` unchanged) when the future resolves."""
        waiter = asyncio.get_running_loop().create_future()
        self._queue.append(waiter)
        try:
            if on_queued is not None:
                await on_queued(len(self._queue))
            await waiter
        except BaseException:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._release()  # handed a slot but leaving without using it: pass it on
            else:
                with contextlib.suppress(ValueError):
                    self._queue.remove(waiter)
                waiter.cancel()
            raise

    def _release(self) -> None:
        while self._queue:
            waiter = self._queue.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self._running -= 1
