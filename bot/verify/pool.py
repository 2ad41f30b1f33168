"""The reader processes of one worker: where pages are read and quotes matched.

Reading a page (lxml, trafilatura, pypdf) and matching a quote on it (rapidfuzz) hold Python's
lock for as long as they run, even in a thread: a hostile page cited in one answer would freeze
every answer of the worker. So they run in a few processes of their own
(:mod:`bot.verify.reader`), each job bounded twice: in CPU (the reader stops itself past
``ReadLimits.cpu_seconds``: what the page costs) and in time (the worker kills it past
``ReadLimits.seconds``: a bound on the wait however starved the reader is). A reader that
overran is gone, and another is started when one is next needed. Readers start when the first
page is to be read, never at start-up; each is replaced once it has read
``ReadLimits.jobs_per_reader`` pages or kept more memory than ``ReadLimits.recycle_bytes``, and
its address space is capped at ``ReadLimits.memory_bytes``. The pipes are the event loop's
own: no executor is involved, so a page being read takes nothing from the threads DNS lookups
run in. Not a :class:`concurrent.futures.ProcessPoolExecutor`: it cannot stop one job without
breaking the whole pool, and a deadline that only stops waiting leaves the work running.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.verify.jobs import Reply, job_frame, read_reply
from bot.verify.page import Page, Unreadable
from bot.verify.verdict import Verdict

__all__ = ["ReadLimits", "ReaderPool"]

log = logging.getLogger(__name__)

_MiB = 1024 * 1024
_PIPE = 64 * 1024
_ROOT = str(Path(__file__).resolve().parents[2])
"""Where this ``bot`` package is imported from: the readers import the same one."""
_BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from bot.verify.reader import main; " + (
    "main(*map(int, sys.argv[2:]))"
)
_ENVIRONMENT = ("LANG", "LC_ALL", "LC_CTYPE", "TZ")
"""All a reader is given of the worker's environment: no token, key or URL reaches it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadLimits:
    """The caps on one worker's reading; the defaults are the service's (docs/decisions.md,
    "Quote checks out of the event loop")."""

    readers: int = 2
    """Reader processes at most, so pages read at once."""
    cpu_seconds: int = 5
    """CPU one job may use (the whole text's look, or the main text's); then its reader stops
    itself (RLIMIT_CPU): what a page costs, however busy the machine is."""
    seconds: float = 30.0
    """For one job from sending the page to its verdicts; then its reader is killed: the bound
    on a wait, for a machine so busy the reader (at a lower priority) is starved of CPU."""
    start_seconds: float = 30.0
    """For a new reader to be ready (a loaded machine takes seconds to import trafilatura)."""
    wait_seconds: float = 30.0
    """For a free reader; past it the page is unreadable."""
    memory_bytes: int = 160 * _MiB
    """A reader's address space, so its resident memory too: a page that needs more is
    unreadable and its reader replaced. Two readers and a worker of about 110 MiB stay near
    400 MiB (docs/decisions.md)."""
    recycle_bytes: int = 128 * _MiB
    """A reader still holding more than this after a job (what the job freed handed back:
    about 55 MiB after start-up) is replaced."""
    jobs_per_reader: int = 200


class ReaderPool:
    """Reads pages in reader processes; close it with ``aclose()``."""

    def __init__(self, limits: ReadLimits | None = None) -> None:
        """Cheap, and safe outside an event loop: no process starts before the first page."""
        self.limits = limits or ReadLimits()
        self._slots = asyncio.Semaphore(self.limits.readers)
        self._idle: list[asyncio.subprocess.Process] = []
        self._ending: set[asyncio.Task[int]] = set()

    async def judge(self, page: Page, quotes: Sequence[str]) -> tuple[Verdict, ...]:
        """Each quote's verdict on ``page``; :class:`Unreadable` when the page could not be read
        (no text, too big, too slow, its reader failed) or no reader was free in time.

        Two jobs at most: the page's whole text first, which finds most quotes; then, for the
        quotes it lacks, the page's main text, whose extraction can be slow. A second job that
        fails costs only its quotes (``unreadable``): those found first stay found.
        """
        first = await self._job(page, quotes, extract=False)
        pending = [quote for quote, verdict in zip(quotes, first, strict=True) if verdict is None]
        if not pending:
            return tuple(verdict or Verdict.UNREADABLE for verdict in first)
        try:
            closer = dict(zip(pending, await self._job(page, pending, extract=True), strict=True))
        except Unreadable as why:
            log.info("quote check: main text unreadable: %s", why)
            closer = {}
        return tuple(
            verdict or closer.get(quote) or Verdict.UNREADABLE
            for quote, verdict in zip(quotes, first, strict=True)
        )

    async def _job(
        self, page: Page, quotes: Sequence[str], *, extract: bool
    ) -> tuple[Verdict | None, ...]:
        try:
            async with asyncio.timeout(self.limits.wait_seconds):
                await self._slots.acquire()
        except TimeoutError:
            raise Unreadable(f"no reader free within {self.limits.wait_seconds:g} s") from None
        try:
            reply = await self._read(job_frame(page, quotes, extract=extract), len(quotes))
        finally:
            self._slots.release()
        if reply.why is not None:
            raise Unreadable(reply.why)
        return reply.verdicts

    async def aclose(self) -> None:
        """End the idle readers (each reading job has been cancelled, which ends its reader)."""
        idle, self._idle = self._idle, []
        for process in idle:
            if process.stdin is not None:
                process.stdin.close()  # a reader exits at the end of its input
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2.0):
                await asyncio.gather(*(process.wait() for process in idle))
        for process in idle:
            self._reap(process)
        await asyncio.gather(*self._ending, return_exceptions=True)

    async def _read(self, frame: tuple[bytes, bytes], quotes: int, *, again: bool = True) -> Reply:
        """The reply to ``frame``. A reader that had read pages before and dies without a reply
        (the system killed it for memory while it waited, say) gets the job again, once, on a
        new reader; one that used up its CPU on the page does not."""
        process, reused = await self._reader()
        try:
            async with asyncio.timeout(self.limits.seconds):
                await _send(process, frame)
                reply = await read_reply(_output(process), quotes)
        except TimeoutError:
            await self._end(process)
            raise Unreadable(f"not read within {self.limits.seconds:g} s") from None
        except (OSError, EOFError, ValueError) as error:  # it died, or spoke nonsense
            await self._end(process)
            if process.returncode == -signal.SIGXCPU:
                raise Unreadable(f"more than {self.limits.cpu_seconds} s of CPU to read") from None
            log.warning("quote check: a reader failed (%r); another will start", error)
            if reused and again:
                return await self._read(frame, quotes, again=False)
            raise Unreadable("the page's reader stopped") from None
        except BaseException:  # cancelled: the reader is mid-job, so it cannot be reused
            await self._end(process)
            raise
        if reply.last:
            self._reap(process)  # it exits on its own
        else:
            self._idle.append(process)
        return reply

    async def _reader(self) -> tuple[asyncio.subprocess.Process, bool]:
        """An idle reader still alive (and True), or a new one once it is ready (its imports
        done: the job's deadline counts the reading only)."""
        while self._idle:
            idle = self._idle.pop()
            if idle.returncode is None:
                return idle, True
            self._reap(idle)
        limits = self.limits
        process: asyncio.subprocess.Process | None = None
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-I",
                "-c",
                _BOOT,
                _ROOT,
                str(limits.memory_bytes),
                str(limits.cpu_seconds),
                str(limits.jobs_per_reader),
                str(limits.recycle_bytes),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                start_new_session=True,  # its CPU is not charged to the worker's session
                env={name: os.environ[name] for name in _ENVIRONMENT if name in os.environ},
            )
            async with asyncio.timeout(limits.start_seconds):
                await read_reply(_output(process), 0)
        except (OSError, EOFError, ValueError) as error:  # TimeoutError is an OSError
            await self._end(process)
            log.warning("quote check: no reader could start (%r)", error)
            raise Unreadable("no reader could start") from None
        except BaseException:
            await self._end(process)
            raise
        return process, False

    async def _end(self, process: asyncio.subprocess.Process | None) -> None:
        """Kill ``process`` and wait until it is gone (a second cancellation leaves the reaping
        to :meth:`aclose`)."""
        if process is not None:
            await asyncio.shield(self._reap(process))

    def _reap(self, process: asyncio.subprocess.Process) -> asyncio.Task[int]:
        """Kill ``process`` if it still runs, and collect its exit."""
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        reaping = asyncio.ensure_future(process.wait())
        self._ending.add(reaping)
        reaping.add_done_callback(self._ending.discard)
        return reaping


async def _send(process: asyncio.subprocess.Process, frame: tuple[bytes, bytes]) -> None:
    """The frame, a pipe's worth at a time: the pipe's buffer never holds a copy of the page."""
    assert process.stdin is not None
    for part in frame:
        view = memoryview(part)
        for start in range(0, len(view), _PIPE):
            process.stdin.write(view[start : start + _PIPE])
            await process.stdin.drain()


def _output(process: asyncio.subprocess.Process) -> asyncio.StreamReader:
    assert process.stdout is not None
    return process.stdout
