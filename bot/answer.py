"""The answer flow, written once for every platform.

An adapter turns a platform event into a :class:`Question` and gives an :class:`AnswerSink`;
this module asks the upstream, feeds the formatter, paces the writes (the first text at once,
then at most one write per ``min_interval`` with the latest text winning), and words every
failure for a person while keeping whatever text was already shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from bot.i18n.instructions import language_instruction
from bot.i18n.wording import Wording
from bot.pacing import Pacer
from bot.quote_checks import show_quote_checks
from bot.render.formatter import AnswerFormatter, RenderedAnswer
from bot.render.ports import Button, Payload, Presenter
from bot.upstream.client import Answerer
from bot.upstream.errors import ContentFiltered, UpstreamError
from bot.upstream.events import AnswerDone, TextDelta, Turn, Usage
from bot.upstream.trust import TrustedSources

if TYPE_CHECKING:
    from bot.verify.checker import QuoteChecker
    from bot.verify.verdict import Verdict

log = logging.getLogger(__name__)

READ_AHEAD = 0.5
"""Seconds before a paced write from which the answer reads each token as it comes."""
CLOSE_SECONDS = 2.0
"""How long an answer cancelled on shutdown may take to close its message with a note: the
worker exits within ``SHUTDOWN_GRACE_SECONDS`` + 3 s, its platforms closing after the notes."""

__all__ = [
    "AnswerSink",
    "Outcome",
    "Question",
    "WatchedSink",
    "answer_question",
    "fingerprint",
]

Status = Literal["answered", "interrupted", "failed", "filtered"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """A question as the core sees it, whatever platform it came from."""

    text: str
    history: tuple[Turn, ...] = ()
    platform: str
    user_id: str
    channel_id: str
    """The channel; a thread's or forum post's parent."""
    thread_id: str | None = None
    server_id: str | None = None
    """The server, workspace or group; None in a conversation outside any (a Discord DM)."""
    direct: bool = False
    """Asked in a conversation with the bot alone (a DM, a Telegram private chat): the
    allowlists judge it as the platform says such conversations are fenced."""
    language: str | None = None
    """The language citebot's own words take (a shipped catalogue, e.g. ``"nl"``); None: the
    worker's default."""
    locale: str | None = None
    """The asker's own locale as their platform reports it (``ja-JP``), catalogue or not: the
    upstream is asked to answer in it. None: ``language``, if any, is the asker's."""
    own_answers: bool = True
    """Whether the place's own answers may answer it (False: the asker pressed "Ask the
    sources" under one)."""


def fingerprint(payloads: object) -> int:
    """What a write showed, kept in place of the payloads to tell whether the next one differs:
    keeping the payloads held every answer's shown text once more for as long as it streamed.
    (64-bit: two different texts meet by chance once in ~10^19 writes.)"""
    return hash(json.dumps(payloads, sort_keys=True, ensure_ascii=False, default=str))


class AnswerSink(Protocol):
    """Where one answer's messages go; implemented by each platform adapter."""

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        """Show exactly these answer messages, in order (create new ones, edit changed ones)."""

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        """Post the citation cards and related questions as threaded replies."""

    async def edit_thread(self, index: int, payload: Payload) -> None:
        """Replace threaded reply ``index`` (in ``post_thread``'s order) with ``payload``: its
        cards with their quotes checked. One the platform refuses is logged, never raised."""


class WatchedSink:
    """A sink that passes every call on and tells ``after_show`` of each write of the answer
    (``final``: it was the last; ``landed``: the platform took it): the service notes when the
    answer is shown for good, the in-flight record when where the answer is may have changed."""

    def __init__(self, sink: AnswerSink, after_show: Callable[[bool, bool], None]) -> None:
        self.inner = sink
        self._after_show = after_show

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        landed = False
        try:
            await self.inner.show(messages, final=final)
            landed = True
        finally:
            self._after_show(final, landed)

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        await self.inner.post_thread(payloads)

    async def edit_thread(self, index: int, payload: Payload) -> None:
        await self.inner.edit_thread(index, payload)


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    status: Status
    text: str
    rendered: RenderedAnswer | None = None
    error: UpstreamError | None = None
    first_token_seconds: float | None = None
    """From the question to the upstream's first text (the upstream's own latency)."""
    first_text_seconds: float | None = None
    """From the question to the first text shown on the platform."""
    total_seconds: float = 0.0
    writes: int = 0
    usage: Usage | None = None
    """The tokens the upstream reported; None when it reported none (or never finished)."""
    model: str | None = None
    """The model that answered, as the upstream named it."""
    own_answer: str | None = None
    """The ID of the place's own answer given instead of the sources' (nothing went upstream)."""


class _Writer:
    """Owns the writes of one answer: one on the wire at a time, spaced, latest text wins.

    Waiting for a turn can be cancelled (the text is stale by then); a write already sent is
    shielded, and the next write waits for it, so writes never overlap or reorder.
    """

    def __init__(self, *, sink: AnswerSink, pacer: Pacer, started: float) -> None:
        self._sink = sink
        self._pacer = pacer
        self._started = started
        self._shown = fingerprint(())
        self._last_write = -float("inf")
        self._lock = asyncio.Lock()
        self._in_flight: asyncio.Future[None] | None = None
        self.writes = 0
        self.first_text_seconds: float | None = None

    async def write(
        self,
        messages: Sequence[Payload] | Callable[[], Sequence[Payload]],
        *,
        final: bool,
        paced: bool = True,
    ) -> None:
        """Show ``messages``; a callable renders them once the pacing lets the write go, so a
        paced write carries the newest text, not the text of when it began to wait.
        ``paced=False``: the last write of an answer closing in a hurry (the platform's own
        budgets still apply, in the sink)."""
        async with self._lock:
            if self._in_flight is not None:
                with contextlib.suppress(Exception):
                    await self._in_flight
            wait = self._last_write + self._pacer.min_interval - time.monotonic()
            if wait > 0 and paced:
                await asyncio.sleep(wait)
            shown = tuple(messages() if callable(messages) else messages)
            printed = fingerprint(shown)
            if not final and printed == self._shown:
                return
            self._in_flight = asyncio.ensure_future(self._show(shown, printed, final=final))
            await asyncio.shield(self._in_flight)

    async def until_due(self) -> None:
        """Wait while the next paced write is more than :data:`READ_AHEAD` away. Text arriving
        meanwhile waits in the socket and is read in one go just before the write, instead of
        waking the answer once per token (most of a worker's CPU with hundreds in flight)."""
        wait = self._last_write + self._pacer.min_interval - READ_AHEAD - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)

    async def _show(self, messages: tuple[Payload, ...], printed: int, *, final: bool) -> None:
        await self._sink.show(messages, final=final)
        self._last_write = time.monotonic()
        self._shown = printed
        self.writes += 1
        if self.first_text_seconds is None:
            self.first_text_seconds = self._last_write - self._started


class _Streamer:
    """Renders on flush only: a delta marks the answer dirty, one background task writes it."""

    def __init__(self, formatter: AnswerFormatter, writer: _Writer) -> None:
        self._formatter = formatter
        self._writer = writer
        self._dirty = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def poke(self) -> None:
        self._dirty.set()
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="citebot-answer-stream")

    async def _run(self) -> None:
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            try:
                await self._writer.write(self._formatter.render, final=False)
            except Exception:  # an intermediate edit is worth dropping, never the answer
                log.warning("dropped an intermediate write", exc_info=True)

    async def stop(self) -> None:
        """No more streaming writes; one already on the wire still lands before the next."""
        if self._task is None:
            return
        task, self._task = self._task, None
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def answer_question(
    question: Question,
    *,
    client: Answerer,
    presenter: Presenter,
    sink: AnswerSink,
    pacer: Pacer,
    wording: Wording | None = None,
    checker: QuoteChecker | None = None,
    max_messages: int | None = None,
    max_cards: int | None = None,
    disclaimer: str | None = None,
    on_verdicts: Callable[[Sequence[Verdict]], Awaitable[None]] | None = None,
    closing: str | None = None,
    buttons: Sequence[Button] = (),
    trusted: TrustedSources | None = None,
) -> Outcome:
    """Answer one question into ``sink``; never raises an upstream failure, only words it
    (in ``wording``, by default the question's language). An answer longer than
    ``max_messages`` messages stops there with a note; citations beyond ``max_cards`` get one
    summary instead of a card each. An answer the upstream takes too long over, or sends an
    oversized event in, keeps its text and says why it stops (the client's deadline and cap).
    With a ``checker``, the cards' quotes are then checked on their pages in the background
    and the verdicts edited in, then handed to ``on_verdicts`` (the answer log). ``disclaimer``
    closes the answer (a place's admins' line), after ``closing`` (what an own answer says of
    itself). ``buttons`` go under the finished answer ("Ask a person"); a card of a source
    outside ``trusted`` (the place's trusted sources) says so."""
    started = time.monotonic()
    wording = wording or Wording(language=question.language, platform=question.platform)
    formatter = AnswerFormatter(
        presenter,
        wording=wording,
        max_messages=max_messages,
        max_cards=max_cards,
        disclaimer=disclaimer,
        buttons=buttons,
        trusted=trusted,
    )
    writer = _Writer(sink=sink, pacer=pacer, started=started)
    streamer = _Streamer(formatter, writer)

    def outcome(
        status: Status,
        text: str,
        *,
        rendered: RenderedAnswer | None = None,
        error: UpstreamError | None = None,
    ) -> Outcome:
        return Outcome(
            status=status,
            text=text,
            rendered=rendered,
            error=error,
            first_token_seconds=first_token_seconds,
            first_text_seconds=writer.first_text_seconds,
            total_seconds=time.monotonic() - started,
            writes=writer.writes,
            usage=done.usage if done is not None else None,
            model=done.model if done is not None else None,
        )

    first_token_seconds: float | None = None
    done: AnswerDone | None = None
    try:
        history = (*language_instruction(question.locale or question.language), *question.history)
        async for event in client.stream(question.text, history=history):
            if isinstance(event, TextDelta):
                first = first_token_seconds is None
                if first:
                    first_token_seconds = time.monotonic() - started
                formatter.feed(event.text)
                streamer.poke()
                if first:  # the first text goes out now, even if the rest came in the same read
                    await asyncio.sleep(0)
                await writer.until_due()
            elif isinstance(event, AnswerDone):  # Reasoning: the "thinking…" status stays up
                done = event
        await streamer.stop()
        assert done is not None
        if not done.text.strip():
            await writer.write((presenter.notice(wording.empty()),), final=True)
            return outcome("failed", done.text)
        cut_short = wording.cut_short() if done.finish_reason == "length" else None
        rendered = formatter.finish(done, note=cut_short or closing)
        await writer.write(rendered.answer, final=True)
        if rendered.thread:
            await sink.post_thread(rendered.thread)
            if checker is not None and rendered.cards:
                checker.background(
                    show_quote_checks(
                        rendered,
                        checker=checker,
                        presenter=presenter,
                        sink=sink,
                        on_decided=on_verdicts,
                    )
                )
        return outcome("answered", done.text, rendered=rendered)
    except UpstreamError as error:
        await streamer.stop()
        status: Status = (
            "filtered"
            if isinstance(error, ContentFiltered)
            else ("interrupted" if formatter.has_text else "failed")
        )
        log.info("answer %s: %s", status, error)
        words = wording.explain(error)
        if formatter.has_text:
            await writer.write(formatter.interrupt(words), final=True)
        else:
            await writer.write((presenter.notice(words),), final=True)
        return outcome(status, error.partial_text, error=error)
    except asyncio.CancelledError:
        await streamer.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                _close_interrupted(writer, formatter, presenter, wording), CLOSE_SECONDS
            )
        raise
    finally:  # whatever else escaped (a platform refusing the final write): no writer left
        await streamer.stop()


async def _close_interrupted(
    writer: _Writer, formatter: AnswerFormatter, presenter: Presenter, wording: Wording
) -> None:
    """Shutdown: no message may be left mid-stream."""
    if formatter.has_text:
        await writer.write(formatter.interrupt(wording.interrupted()), final=True, paced=False)
    else:
        await writer.write((presenter.notice(wording.restarting()),), final=True, paced=False)
