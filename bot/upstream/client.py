"""The answer client: asks an OpenAI-compatible ``/chat/completions`` and yields typed events.

Answers take 5-40 s and the first token is the only moment a retry is invisible to the user, so
retries (429 honouring Retry-After, 5xx, refused connections, silence) happen only before it;
after it, every failure keeps the text received so far (:class:`~bot.upstream.errors.StreamCut`).

Whatever the upstream sends, an answer ends by its wall-clock deadline (``Timeouts.total``:
every read waits at most until then, so keep-alive comments do not keep it alive) and no event
may outgrow ``max_event_bytes`` (:mod:`bot.upstream.sse` holds at most that much of one); each
ends the answer keeping its text (:class:`~bot.upstream.errors.TooSlow`,
:class:`~bot.upstream.errors.TooLarge`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import (
    AsyncGenerator,
    AsyncIterator,
    Awaitable,
    Callable,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

import httpx
from httpx_aiohttp import AiohttpTransport
from pydantic import SecretStr

from bot.upstream.deadline import Deadline, DeadlinePassed
from bot.upstream.errors import (
    ContentFiltered,
    StreamCut,
    TooLarge,
    TooSlow,
    UpstreamDown,
    UpstreamError,
)
from bot.upstream.events import AnswerDone, AnswerEvent, Reasoning, TextDelta, Turn, Usage
from bot.upstream.reasoning import ThinkFilter
from bot.upstream.replies import (
    Retry,
    choice_of,
    classify,
    is_event_stream,
    is_json,
    message_of,
    related_of,
    usage_of,
)
from bot.upstream.sources import Sources
from bot.upstream.sse import EventTooLarge, SSEReader

log = logging.getLogger(__name__)

__all__ = ["AnswerClient", "Answerer", "RetryPolicy", "Timeouts", "default_transport"]

Sleep = Callable[[float], Awaitable[None]]

POOL = httpx.Limits(max_connections=1000, max_keepalive_connections=100)
_PIECES = 64
MAX_EVENT_BYTES = 1024 * 1024
"""One event's size at most (``UPSTREAM_MAX_EVENT_BYTES``); a whole JSON reply's too."""


def default_transport() -> httpx.AsyncBaseTransport:
    """The connection pool every client uses unless given a transport: aiohttp's, under httpx.

    Every token of every answer crosses it; ``bench/bench_capacity.py`` measured it against
    httpx's own ``AsyncHTTPTransport`` and it costs about a third less worker CPU per answer.
    """
    return AiohttpTransport(limits=POOL)


@dataclass(frozen=True, slots=True, kw_only=True)
class Timeouts:
    """Seconds. ``idle`` is the longest silence between events (keep-alives count as life)."""

    connect: float = 10.0
    idle: float = 30.0
    total: float = 120.0


@dataclass(frozen=True, slots=True, kw_only=True)
class RetryPolicy:
    """Exponential backoff with jitter; a Retry-After longer than ``max_retry_after`` gives up."""

    max_retries: int = 3
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 30.0


@dataclass(slots=True)
class _Progress:
    """What one attempt has received; a failure after ``text`` is non-empty is never retried.

    ``text`` is what the reader sees: reasoning never enters it (so it never reaches the
    platform, nor the history built from it).
    """

    text: list[str] = field(default_factory=list)
    sources: Sources = field(default_factory=Sources)
    related: tuple[str, ...] = ()
    skipped: int = 0
    final: Mapping[str, Any] | None = None
    usage: Usage | None = None
    think: ThinkFilter = field(default_factory=ThinkFilter)
    reasoned: bool = False

    @property
    def started(self) -> bool:
        return bool(self.text)

    @property
    def partial(self) -> str:
        """The text to keep when the answer is cut here."""
        return self.joined + self.think.tail

    def add(self, text: str) -> None:
        """Keep ``text``; every few dozen pieces become one string (one str per token costs
        ~60 bytes more than its text, for as long as the answer streams)."""
        self.text.append(text)
        if len(self.text) >= _PIECES:
            self.text[:] = ["".join(self.text)]

    @property
    def joined(self) -> str:
        return "".join(self.text)


class Answerer(Protocol):
    """What answers a question: an upstream (:class:`AnswerClient`), or a place's own answer."""

    def stream(self, question: str, *, history: Sequence[Turn] = ()) -> AsyncIterator[AnswerEvent]:
        """Text deltas in order, then one :class:`AnswerDone`; raises an :class:`UpstreamError`."""
        ...


class AnswerClient:
    """One connection pool to one upstream; safe to share across every answer in a worker."""

    def __init__(
        self,
        *,
        base_url: str,
        api_key: SecretStr | None,
        model: str,
        timeouts: Timeouts = Timeouts(),
        retry: RetryPolicy = RetryPolicy(),
        related_questions: bool = True,
        usage_in_stream: bool = False,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep | None = None,
        on_retry: Callable[[], None] | None = None,
        max_event_bytes: int = MAX_EVENT_BYTES,
    ) -> None:
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._max_event_bytes = max_event_bytes
        self._api_key = api_key
        self._model = model
        self._timeouts = timeouts
        self._retry = retry
        self._related_questions = related_questions
        self.usage_in_stream = usage_in_stream
        """Whether a stream asks for its tokens (``stream_options.include_usage``)."""
        self._sleep: Sleep = sleep or asyncio.sleep
        self._on_retry = on_retry
        self._http = httpx.AsyncClient(
            transport=transport or default_transport(),
            timeout=httpx.Timeout(timeouts.idle, connect=timeouts.connect),
            headers={"Accept": "text/event-stream", "Cache-Control": "no-store"},
        )

    async def __aenter__(self) -> AnswerClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    def _body(self, question: str, history: Sequence[Turn], *, stream: bool) -> dict[str, Any]:
        messages = [{"role": turn.role, "content": turn.content} for turn in history]
        messages.append({"role": "user", "content": question})
        body: dict[str, Any] = {"model": self._model, "messages": messages, "stream": stream}
        if self._related_questions:
            body["return_related_questions"] = True
        if self.usage_in_stream and stream:
            body["stream_options"] = {"include_usage": True}
        return body

    def _headers(self) -> dict[str, str]:
        if self._api_key is None:
            return {}
        return {"Authorization": f"Bearer {self._api_key.get_secret_value()}"}

    async def _with_retries(
        self,
        attempt: Callable[[float], AsyncIterator[AnswerEvent]],
    ) -> AsyncIterator[AnswerEvent]:
        """Run ``attempt`` again on a retryable failure, unless it already yielded text. Every
        attempt shares one deadline (the event loop's clock): the whole answer's."""
        loop_start = time.monotonic()
        deadline = asyncio.get_running_loop().time() + self._timeouts.total
        tries = 0
        while True:
            try:
                async for event in attempt(deadline):
                    yield event
                return
            except Retry as retry:
                tries += 1
                delay = self._backoff(tries, retry.retry_after)
                elapsed = time.monotonic() - loop_start
                if (
                    tries > self._retry.max_retries
                    or delay is None
                    or elapsed + delay > self._timeouts.total
                ):
                    raise retry.error from None
                log.warning(
                    "upstream attempt %d failed (%s); retrying in %.1f s", tries, retry.error, delay
                )
                if self._on_retry is not None:
                    self._on_retry()
                await self._sleep(delay)

    def _backoff(self, tries: int, retry_after: float | None) -> float | None:
        if retry_after is not None:
            return retry_after if retry_after <= self._retry.max_retry_after else None
        ceiling = min(self._retry.max_delay, self._retry.base_delay * 2 ** (tries - 1))
        return random.uniform(ceiling / 2, ceiling)

    def stream(self, question: str, *, history: Sequence[Turn] = ()) -> AsyncIterator[AnswerEvent]:
        """Text deltas in order, then one :class:`AnswerDone`; raises an :class:`UpstreamError`."""
        body = self._body(question, history, stream=True)
        return self._with_retries(lambda deadline: self._stream_once(body, deadline))

    async def _stream_once(
        self, body: dict[str, Any], deadline: float
    ) -> AsyncIterator[AnswerEvent]:
        progress = _Progress()
        try:
            async with contextlib.AsyncExitStack() as stack:
                timer = Deadline(deadline)
                stack.callback(timer.close)
                request = self._http.stream("POST", self._url, json=body, headers=self._headers())
                try:
                    response = await timer.wait(stack.enter_async_context(request))
                except DeadlinePassed:
                    raise self._too_slow(progress) from None
                chunks = cast(AsyncGenerator[bytes, None], response.aiter_bytes())
                stack.push_async_callback(chunks.aclose)
                if response.status_code != 200:
                    raise classify(response, await self._whole(chunks, timer, progress))
                if is_json(response):  # a gateway that answers `stream: true` all at once
                    whole = await self._whole(chunks, timer, progress)
                    event = self._read_chunk(whole.decode("utf-8", "replace"), progress, whole=True)
                    if event is not None:
                        yield event
                elif not is_event_stream(response):
                    kind = response.headers.get("content-type", "")
                    raise UpstreamDown(
                        f"the upstream did not answer with an event stream ({kind!r})"
                    )
                else:
                    reader = SSEReader(max_event_bytes=self._max_event_bytes)
                    while (chunk := await self._next(chunks, timer, progress)) is not None:
                        try:
                            events = reader.feed(chunk)
                        except EventTooLarge as error:
                            raise self._too_large(error, progress) from None
                        for data in events:
                            if data == "[DONE]":
                                break
                            event = self._read_chunk(data, progress)
                            if event is not None:
                                yield event
                        else:
                            continue
                        break
        except (httpx.TimeoutException, httpx.TransportError) as error:
            raise self._transport_failure(error, progress) from None
        tail = progress.think.tail
        if tail:  # a partial "<think" that the answer ended on was text after all
            progress.add(tail)
            yield TextDelta(tail)
        yield self._finish(progress)

    async def _next(
        self, chunks: AsyncIterator[bytes], timer: Deadline, progress: _Progress
    ) -> bytes | None:
        """The next chunk the network brings, None at the end; waits until the answer's
        deadline at most, whatever keeps the connection busy meanwhile."""
        try:
            return await timer.wait(anext(chunks))
        except StopAsyncIteration:
            return None
        except DeadlinePassed:
            raise self._too_slow(progress) from None

    async def _whole(
        self, chunks: AsyncIterator[bytes], timer: Deadline, progress: _Progress
    ) -> bytes:
        """A whole (non-streamed) body: a JSON completion or an error, as large as one event
        may be at most."""
        parts: list[bytes] = []
        size = 0
        while (chunk := await self._next(chunks, timer, progress)) is not None:
            size += len(chunk)
            if size > self._max_event_bytes:
                raise self._too_large(EventTooLarge(f"a body over {size:,} bytes"), progress)
            parts.append(chunk)
        return b"".join(parts)

    def _too_slow(self, progress: _Progress) -> UpstreamError:
        what = f"the answer took longer than {self._timeouts.total:g} s"
        if progress.started:
            return TooSlow(what, partial_text=progress.partial)
        return UpstreamDown(f"no answer in time: {what}")

    def _too_large(self, error: EventTooLarge, progress: _Progress) -> UpstreamError:
        if progress.started:
            return TooLarge(f"the upstream sent {error}", partial_text=progress.partial)
        return UpstreamDown(f"the upstream sent {error}")

    def _read_chunk(
        self, data: str, progress: _Progress, *, whole: bool = False
    ) -> TextDelta | Reasoning | None:
        """Take in one chunk (or a ``whole`` completion); return what the reader may learn."""
        try:
            chunk = json.loads(data)
        except ValueError:
            chunk = None
        if not isinstance(chunk, Mapping):
            progress.skipped += 1
            log.warning(
                "skipped a malformed chunk from the upstream (%d so far): %.80r",
                progress.skipped,
                data,
            )
            return None
        if "error" in chunk and not chunk.get("choices"):
            message = message_of(chunk) or "unknown error"
            if progress.started:
                raise StreamCut(
                    f"the upstream failed mid-answer: {message}", partial_text=progress.partial
                )
            raise Retry(UpstreamDown(f"the upstream failed: {message}"))
        choice = choice_of(chunk, whole=whole)
        progress.related = related_of(chunk) or progress.related
        progress.usage = usage_of(chunk) or progress.usage
        progress.sources.take(chunk)
        shown = progress.think.feed(choice.text)
        if shown.text:
            progress.add(shown.text)
        if choice.reason is not None or whole:
            progress.final = chunk
        if shown.text:
            return TextDelta(shown.text)
        if shown.reasoned or choice.reasoning:
            progress.reasoned = True
            return Reasoning()
        return None

    def _transport_failure(self, error: Exception, progress: _Progress) -> UpstreamError | Retry:
        if isinstance(error, httpx.TimeoutException):
            what = f"no answer for {self._timeouts.idle:.0f} s"
            if isinstance(error, httpx.ConnectTimeout):
                what = f"could not connect within {self._timeouts.connect:.0f} s"
        else:
            what = f"the connection failed ({type(error).__name__})"
        if progress.started:
            return StreamCut(f"the answer was interrupted: {what}", partial_text=progress.partial)
        if progress.reasoned:
            return Retry(
                UpstreamDown(f"the answer was interrupted while the model reasoned: {what}")
            )
        return Retry(UpstreamDown(f"the upstream is unreachable: {what}"))

    def _finish(self, progress: _Progress) -> AnswerDone:
        final = progress.final
        if final is None:
            if progress.started:
                raise StreamCut(
                    "the answer ended before it was complete", partial_text=progress.joined
                )
            raise Retry(UpstreamDown("the upstream closed the stream without an answer"))
        reason = choice_of(final).reason
        if reason == "content_filter":
            raise ContentFiltered(
                "the upstream declined to answer this question", partial_text=progress.joined
            )
        return AnswerDone(
            text=progress.joined,
            finish_reason=reason or "stop",
            citations=progress.sources.citations(progress.joined),
            related_questions=progress.related,
            usage=progress.usage,
            skipped_chunks=progress.skipped,
            model=final.get("model") if isinstance(final.get("model"), str) else None,
        )
