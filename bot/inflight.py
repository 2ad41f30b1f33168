"""Answers in flight, seen by every worker: when a worker dies mid-answer, another one closes
its answers with the "interrupted, please ask again" note.

While it runs, each answer keeps a record in the state store: where it is on its platform (its
sink's :class:`Whereabouts`, looked at again after each write and stored when it changed: a
first text, a new message, a stream that ended). Its worker beats for all its answers at once every
``TIMES.beat`` seconds; a record left unbeaten for ``TIMES.ttl`` belongs to a worker that died
(SIGKILL, out of memory, a lost host: a worker stopped with SIGTERM closes its own answers) and
is taken by exactly one other worker that runs the same platform, whose closer writes the note
(:mod:`bot.orphans`: the core decides it, the platform's hook writes it where the record says).
With ``memory://`` or SQLite there is no other worker, and nothing is recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Protocol, runtime_checkable

from pydantic import TypeAdapter, ValidationError

from bot.answer import AnswerSink, Question, WatchedSink
from bot.state.base import raise_if_cancelling, until_set
from bot.state.coordination import Coordination, CoordinationDown
from bot.state.records import Lapsed, Records

__all__ = [
    "TIMES",
    "Closer",
    "InFlight",
    "Orphan",
    "Times",
    "Traceable",
    "Whereabouts",
    "orphan_of",
    "record_of",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Times:
    beat: float = 5.0
    """Seconds between a worker's heartbeats (and its looks for others' orphans)."""
    ttl: float = 20.0
    """Seconds a record outlives its worker's last beat: a dead worker's answers are closed
    ``ttl`` to ``ttl + beat`` seconds after it died."""
    close_grace: float = 5.0
    """Seconds a worker that stops gives the orphans it is closing."""


TIMES = Times()


@dataclass(frozen=True, slots=True, kw_only=True)
class Whereabouts:
    """Where an answer is on its platform, in one shape for every platform (its closer's hook
    reads it: :mod:`bot.orphans`), and the secret that reaches it (an interaction token) with
    the seconds it still lives, which is kept apart from the record."""

    conversation: str
    """Where its messages are: a Discord channel, a Slack channel, a Telegram chat."""
    thread: str | None = None
    """The thread it answers in (Slack's ``thread_ts``), or a forum's topic (Telegram's)."""
    question: str | None = None
    """The message it answers, for a note where the answer shows nothing yet."""
    messages: tuple[str | None, ...] = ()
    """Its messages, in order (None: Discord's deferred response, whose id is not known)."""
    shown: bool = False
    """Whether the person has seen some of its text."""
    streaming: tuple[str, ...] = ()
    """Its messages still open as native streams (Slack's)."""
    draft: str | None = None
    """Text the person sees only as a draft, not yet a message (a Telegram private chat's):
    nobody could read it back once it lapses."""
    holding: str | None = None
    """The words of a placeholder that is all it shows (Slack's "thinking"), if it is one."""
    private: bool = False
    """Only the asker sees it (a Discord ephemeral answer)."""
    group: bool = False
    """In a conversation of many (a Telegram group: its pace differs)."""
    via: str | None = None
    """The app whose interaction webhook reaches it while the token lives (Discord's)."""
    bot_present: bool = True
    """Whether the bot may write there by its own token (not a Discord user's install)."""
    secret: str | None = field(default=None, repr=False)
    secret_ttl: float = field(default=0.0, repr=False)


@runtime_checkable
class Traceable(Protocol):
    """A sink that can say where its answer is (every platform's sink can)."""

    def whereabouts(self) -> Whereabouts: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Orphan:
    """An answer whose worker died: what its platform's closer needs to close it."""

    platform: str
    language: str | None
    where: Whereabouts


Closer = Callable[[Orphan], Awaitable[None]]

_RECORD = TypeAdapter(Orphan)
_SECRETS = {"where": {"secret", "secret_ttl"}}


@dataclass(slots=True)
class _Live:
    platform: str
    language: str | None
    whereabouts: Callable[[], Whereabouts]
    written: str = ""

    def record(self, where: Whereabouts) -> str:
        return record_of(Orphan(platform=self.platform, language=self.language, where=where))


def record_of(answer: Orphan) -> str:
    """An answer's record as the store keeps it (JSON; its secret is kept apart)."""
    return _RECORD.dump_json(answer, exclude=_SECRETS).decode()


def orphan_of(record: str, *, secret: str | None) -> Orphan:
    """A record read back, with its secret; ValidationError when it is not one."""
    orphan = _RECORD.validate_json(record)
    return replace(orphan, where=replace(orphan.where, secret=secret))


class InFlight:
    """This worker's answers in flight, and the closers for other workers' orphans.

    Use as an async context manager (it beats and looks for orphans while inside); without a
    :class:`Coordination` (one worker alone) it records nothing and closes nothing.
    """

    def __init__(self, coordination: Coordination | None, *, times: Times | None = None) -> None:
        self._records = Records(coordination) if coordination is not None else None
        self._times = times or TIMES
        self._live: dict[str, _Live] = {}
        self._closers: dict[str, list[Closer]] = {}
        self._closing: dict[str, set[asyncio.Task[None]]] = {}
        self._loop: asyncio.Task[None] | None = None
        self._written: set[str] = set()
        self._wake = asyncio.Event()

    async def __aenter__(self) -> InFlight:
        if self._records is not None:
            self._loop = asyncio.create_task(self._run(), name="citebot-inflight")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop

    @property
    def answers(self) -> int:
        """How many of this worker's answers are recorded."""
        return len(self._live)

    @contextlib.asynccontextmanager
    async def track(self, question: Question, sink: AnswerSink) -> AsyncIterator[AnswerSink]:
        """Keep a record of this answer while inside, so that it is closed if the worker dies;
        the answer writes through the sink this yields."""
        if self._records is None or not isinstance(sink, Traceable):
            yield sink
            return
        record_id = secrets.token_hex(8)
        live = _Live(question.platform, question.language, sink.whereabouts)
        where = sink.whereabouts()
        live.written = live.record(where)
        with contextlib.suppress(CoordinationDown):  # the answer goes on, unrecorded
            await self._records.put(
                live.platform,
                record_id,
                live.written,
                ttl=self._times.ttl,
                secret=where.secret,
                secret_ttl=where.secret_ttl,
            )
        self._live[record_id] = live

        def written() -> None:
            self._written.add(record_id)
            self._wake.set()

        try:
            yield WatchedSink(sink, lambda _final, _landed: written())
        finally:
            del self._live[record_id]
            with contextlib.suppress(CoordinationDown):
                await asyncio.shield(self._records.drop(live.platform, record_id))

    @contextlib.asynccontextmanager
    async def closing(self, platform: str, closer: Closer) -> AsyncIterator[None]:
        """Close ``platform``'s orphans with ``closer`` while inside (while the platform's
        client is open); on the way out, the closes under way get ``TIMES.close_grace``."""
        closers = self._closers.setdefault(platform, [])
        closers.append(closer)
        try:
            yield
        finally:
            closers.remove(closer)
            if not closers:
                del self._closers[platform]
                await self._finish_closing(platform)

    async def _finish_closing(self, platform: str) -> None:
        pending = self._closing.pop(platform, set())
        if pending:
            _done, late = await asyncio.wait(pending, timeout=self._times.close_grace)
            for task in late:
                task.cancel()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        next_beat = loop.time() + self._times.beat
        while True:
            raise_if_cancelling()  # a cancel the Redis client swallowed (see there)
            await until_set(self._wake, max(0.0, next_beat - loop.time()))
            self._wake.clear()
            beat = loop.time() >= next_beat
            with contextlib.suppress(CoordinationDown):  # a live worker's records outlast a blip
                await self._store(beat=beat)
                if beat:
                    next_beat = loop.time() + self._times.beat
                    for platform in list(self._closers):
                        await self._sweep(platform)

    async def _store(self, *, beat: bool) -> None:
        """Store the records of answers that wrote and changed where they are; on a beat, push
        back every deadline."""
        assert self._records is not None
        looked_at = list(self._live) if beat else list(self._written)
        self._written.clear()
        kinds: dict[str, dict[str, str]] = {}
        for record_id in looked_at:
            live = self._live.get(record_id)
            if live is None:
                continue
            record = live.record(live.whereabouts())
            changed = record != live.written
            if changed or beat:
                kinds.setdefault(live.platform, {})[record_id] = record if changed else ""
                live.written = record
        for kind, records in kinds.items():
            await self._records.beat(kind, records, ttl=self._times.ttl if beat else None)

    async def _sweep(self, platform: str) -> None:
        assert self._records is not None
        for lapsed in await self._records.take_lapsed(platform):
            orphan = _orphan(lapsed)
            closers = self._closers.get(platform)
            if orphan is None or not closers:
                continue
            closer = closers[-1]
            task = asyncio.create_task(self._close(closer, orphan))
            tasks = self._closing.setdefault(platform, set())
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    async def _close(self, closer: Closer, orphan: Orphan) -> None:
        try:
            await closer(orphan)
        except Exception:
            log.exception("could not close an answer a stopped worker left (%s)", orphan.platform)
        else:
            log.info("closed an answer a stopped worker left (%s)", orphan.platform)


def _orphan(lapsed: Lapsed) -> Orphan | None:
    try:
        return orphan_of(lapsed.record, secret=lapsed.secret)
    except ValidationError:
        log.warning("skipped an unreadable in-flight record %s", lapsed.id)
        return None
