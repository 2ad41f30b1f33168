"""The answer client: asks an OpenAI-compatible ``/chat/completions`` and yields typed events.

Answers take 5-40 s and the first token is the only moment a retry is invisible to the user, so
retries (429 honouring Retry-After, 5xx, refused connections, silence) happen only before it;
after it, every failure keeps the text received so far (:class:`~bot.upstream.errors.StreamCut`).
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from httpx_aiohttp import AiohttpTransport
from httpx_sse import SSEError, aconnect_sse
from pydantic import SecretStr

from bot.upstream.citations import annotations_of, normalise_citations
from bot.upstream.errors import (
    BadKey,
    BadRequest,
    ContentFiltered,
    RateLimited,
    StreamCut,
    TokenLimit,
    UpstreamDown,
    UpstreamError,
)
from bot.upstream.events import AnswerDone, AnswerEvent, Reasoning, TextDelta, Turn, Usage
from bot.upstream.reasoning import ThinkFilter, reasoning_of

log = logging.getLogger(__name__)

__all__ = ["AnswerClient", "RetryPolicy", "Timeouts", "default_transport"]

Sleep = Callable[[float], Awaitable[None]]

POOL = httpx.Limits(max_connections=1000, max_keepalive_connections=100)
_PIECES = 64


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
    annotations: list[object] = field(default_factory=list)
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


class _Retry(Exception):
    """An attempt failed in a way worth another try; carries the error to raise if none is left."""

    def __init__(self, error: UpstreamError, *, retry_after: float | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.retry_after = retry_after


def _error_message(response: httpx.Response) -> str:
    """The upstream's own words: ``error.message``, then ``message``, then ``detail``."""
    try:
        body = response.json()
    except ValueError:
        text = response.text.strip()
        return text[:200] or response.reason_phrase
    return _message_of(body) or response.reason_phrase


def _message_of(body: object) -> str:
    if isinstance(body, Mapping):
        error = body.get("error")
        if isinstance(error, Mapping) and isinstance(error.get("message"), str):
            return str(error["message"])[:300]
        if isinstance(error, str):
            return error[:300]
        for key in ("message", "detail"):
            if isinstance(body.get(key), str):
                return str(body[key])[:300]
    return ""


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _looks_like_token_limit(message: str) -> bool:
    lowered = message.lower()
    return any(word in lowered for word in ("token", "context length", "too long", "maximum"))


def _classify(response: httpx.Response) -> UpstreamError | _Retry:
    status = response.status_code
    message = _error_message(response)
    if status in (401, 403):
        return BadKey(f"the upstream refused the key ({status}): {message}", status=status)
    if status == 413 or (status == 400 and _looks_like_token_limit(message)):
        return TokenLimit(f"the question is too long for the model: {message}", status=status)
    if status == 429:
        after = _retry_after(response)
        return _Retry(RateLimited(f"rate limited: {message}", retry_after=after), retry_after=after)
    if status >= 500:
        return _Retry(UpstreamDown(f"the upstream failed ({status}): {message}", status=status))
    return BadRequest(f"the upstream refused the request ({status}): {message}", status=status)


@dataclass(frozen=True, slots=True)
class _Choice:
    """The first choice of a chunk: its content, whether it reasons, its finish reason."""

    text: str = ""
    reasoning: bool = False
    reason: str | None = None


def _choice_of(chunk: Mapping[str, Any], *, whole: bool = False) -> _Choice:
    """Read the first choice; missing pieces are empty.

    A streamed chunk's text is its ``delta``; a whole completion's is its ``message``. Perplexity
    sends both on each: the delta is the new piece, the message everything so far (and a whole
    completion comes with an empty delta), so the other one would double or lose the text.
    """
    choices = chunk.get("choices")
    if not isinstance(choices, Sequence) or not choices or not isinstance(choices[0], Mapping):
        return _Choice()
    choice = choices[0]
    order = ("message", "delta") if whole else ("delta", "message")
    part: Mapping[str, Any] = next(
        (choice[key] for key in order if isinstance(choice.get(key), Mapping)), {}
    )
    content = part.get("content")
    reason = choice.get("finish_reason")
    return _Choice(
        text=content if isinstance(content, str) else "",
        reasoning=reasoning_of(part),
        reason=reason if isinstance(reason, str) else None,
    )


def _is_json(response: httpx.Response) -> bool:
    media_type = str(response.headers.get("content-type", "")).split(";")[0]
    return media_type.strip().lower() == "application/json"


def _related(chunk: Mapping[str, Any]) -> tuple[str, ...]:
    raw = chunk.get("related_questions")
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        return ()
    return tuple(q.strip() for q in raw if isinstance(q, str) and q.strip())


def _usage(chunk: Mapping[str, Any]) -> Usage | None:
    raw = chunk.get("usage")
    if not isinstance(raw, Mapping):
        return None

    def count(key: str) -> int | None:
        value = raw.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    return Usage(
        prompt_tokens=count("prompt_tokens"),
        completion_tokens=count("completion_tokens"),
        total_tokens=count("total_tokens"),
    )


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
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep | None = None,
        on_retry: Callable[[], None] | None = None,
    ) -> None:
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._api_key = api_key
        self._model = model
        self._timeouts = timeouts
        self._retry = retry
        self._related_questions = related_questions
        self._sleep: Sleep = sleep or asyncio.sleep
        self._on_retry = on_retry
        self._http = httpx.AsyncClient(
            transport=transport or default_transport(),
            timeout=httpx.Timeout(timeouts.idle, connect=timeouts.connect),
            headers={"Accept": "text/event-stream"},
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
        return body

    def _headers(self) -> dict[str, str]:
        if self._api_key is None:
            return {}
        return {"Authorization": f"Bearer {self._api_key.get_secret_value()}"}

    async def _with_retries(
        self,
        attempt: Callable[[], AsyncIterator[AnswerEvent]],
    ) -> AsyncIterator[AnswerEvent]:
        """Run ``attempt`` again on a retryable failure, unless it already yielded text."""
        loop_start = time.monotonic()
        tries = 0
        while True:
            try:
                async for event in attempt():
                    yield event
                return
            except _Retry as retry:
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
        return self._with_retries(lambda: self._stream_once(body))

    async def _stream_once(self, body: dict[str, Any]) -> AsyncIterator[AnswerEvent]:
        progress = _Progress()
        deadline = time.monotonic() + self._timeouts.total
        try:
            async with aconnect_sse(
                self._http, "POST", self._url, json=body, headers=self._headers()
            ) as source:
                response = source.response
                if response.status_code != 200:
                    await response.aread()
                    raise _classify(response)
                if _is_json(response):  # a gateway that answers `stream: true` all at once
                    await response.aread()
                    event = self._read_chunk(response.text, progress, whole=True)
                    if event is not None:
                        yield event
                else:
                    async for sse in source.aiter_sse():
                        if sse.data == "[DONE]":
                            break
                        event = self._read_chunk(sse.data, progress)
                        if event is not None:
                            yield event
                        if time.monotonic() > deadline:
                            raise StreamCut(
                                f"the answer took longer than {self._timeouts.total:.0f} s",
                                partial_text=progress.partial,
                            )
        except (httpx.TimeoutException, httpx.TransportError, SSEError) as error:
            raise self._transport_failure(error, progress) from None
        tail = progress.think.tail
        if tail:  # a partial "<think" that the answer ended on was text after all
            progress.add(tail)
            yield TextDelta(tail)
        yield self._finish(progress)

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
            message = _message_of(chunk) or "unknown error"
            if progress.started:
                raise StreamCut(
                    f"the upstream failed mid-answer: {message}", partial_text=progress.partial
                )
            raise _Retry(UpstreamDown(f"the upstream failed: {message}"))
        choice = _choice_of(chunk, whole=whole)
        progress.related = _related(chunk) or progress.related
        progress.usage = _usage(chunk) or progress.usage
        progress.annotations.extend(annotations_of(chunk))
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

    def _transport_failure(self, error: Exception, progress: _Progress) -> UpstreamError | _Retry:
        if isinstance(error, SSEError):
            return UpstreamDown(f"the upstream did not answer with an event stream ({error})")
        if isinstance(error, httpx.TimeoutException):
            what = f"no answer for {self._timeouts.idle:.0f} s"
            if isinstance(error, httpx.ConnectTimeout):
                what = f"could not connect within {self._timeouts.connect:.0f} s"
        else:
            what = f"the connection failed ({type(error).__name__})"
        if progress.started:
            return StreamCut(f"the answer was interrupted: {what}", partial_text=progress.partial)
        if progress.reasoned:
            return _Retry(
                UpstreamDown(f"the answer was interrupted while the model reasoned: {what}")
            )
        return _Retry(UpstreamDown(f"the upstream is unreachable: {what}"))

    def _finish(self, progress: _Progress) -> AnswerDone:
        final = progress.final
        if final is None:
            if progress.started:
                raise StreamCut(
                    "the answer ended before it was complete", partial_text=progress.joined
                )
            raise _Retry(UpstreamDown("the upstream closed the stream without an answer"))
        reason = _choice_of(final).reason
        if reason == "content_filter":
            raise ContentFiltered(
                "the upstream declined to answer this question", partial_text=progress.joined
            )
        return AnswerDone(
            text=progress.joined,
            finish_reason=reason or "stop",
            citations=normalise_citations(final, annotations=progress.annotations),
            related_questions=progress.related,
            usage=progress.usage,
            skipped_chunks=progress.skipped,
            model=final.get("model") if isinstance(final.get("model"), str) else None,
        )
