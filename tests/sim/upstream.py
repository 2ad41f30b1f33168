"""A scriptable OpenAI-compatible upstream on loopback, speaking Magisterium's wire format.

Tests queue replies (an SSE script, an error, or a provider's :class:`Recorded` reply) and read
back what the client sent. Each step of a script is a chunk (dict, sent as ``data: {json}``), a
raw string (sent as it is, for malformed chunks), a :class:`Comment`, a :class:`Pause` or
:class:`Cut` (the connection is dropped with no clean end).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web


@dataclass(frozen=True)
class Comment:
    text: str = "keep-alive"


@dataclass(frozen=True)
class Pause:
    seconds: float


@dataclass(frozen=True)
class Cut:
    """Drop the connection mid-stream, as a crashed proxy would."""


@dataclass(frozen=True)
class Gate:
    """Wait until the test calls :meth:`UpstreamSim.release` (for shutdown and pacing tests)."""

    name: str = "gate"


Step = dict[str, Any] | str | Comment | Pause | Cut | Gate


@dataclass(frozen=True)
class Numbered:
    """A long answer of numbered words (``w0000 w0001 …``, a paragraph every 40) at
    ``per_second`` words, for capacity benches.

    Every numbered stream is fed by one shared timer tick with pre-encoded chunks, so the
    simulator stays cheap with hundreds of streams; the time each word was sent is kept in
    :attr:`UpstreamSim.numbered` to measure how far behind a platform write is.
    """

    words: int
    per_second: float = 50.0


@dataclass(frozen=True)
class Stream:
    steps: tuple[Step, ...]
    done: bool = True


@dataclass(frozen=True)
class Json:
    """A plain JSON reply: an HTTP error, or a non-streaming ``chat.completion``."""

    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Recorded:
    """A reply a real provider sent, served byte for byte: an event stream is written one event
    at a time (as the provider flushed them), a JSON body at once, whatever was asked for."""

    body: bytes
    content_type: str = "text/event-stream"


Reply = Stream | Json | Numbered | Recorded


def numbered_word(n: int) -> str:
    return f"w{n:04d}" + (".\n\n" if n % 40 == 39 else " ")


@dataclass
class NumberedStream:
    """One numbered answer being played: its question and when each word left (monotonic)."""

    question: str
    words: int
    response: web.StreamResponse
    sent: list[float] = field(default_factory=list)
    finished: asyncio.Event = field(default_factory=asyncio.Event)


def _encoded(piece: str) -> bytes:
    return f"data: {json.dumps(chunk(piece))}\n\n".encode()


class _Ticker:
    """One timer for every numbered stream of one rate: each tick writes the next word to all.

    Ticks are scheduled on absolute times; a late tick is recorded at its real send time.
    """

    def __init__(self, per_second: float) -> None:
        self.period = 1 / per_second
        self.streams: list[NumberedStream] = []
        self.task: asyncio.Task[None] | None = None
        self._words: list[bytes] = []

    def word(self, n: int) -> bytes:
        while len(self._words) <= n:
            self._words.append(_encoded(numbered_word(len(self._words))))
        return self._words[n]

    def add(self, stream: NumberedStream) -> None:
        self.streams.append(stream)
        if self.task is None:
            self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        next_at = loop.time()
        while self.streams:
            next_at += self.period
            await asyncio.sleep(max(0.0, next_at - loop.time()))
            for stream in list(self.streams):
                if stream.finished.is_set():
                    self.streams.remove(stream)
                    continue
                n = len(stream.sent)
                try:
                    await stream.response.write(self.word(n))
                except (ConnectionResetError, RuntimeError):
                    stream.finished.set()
                    continue
                stream.sent.append(time.monotonic())
                if n + 1 >= stream.words:
                    stream.finished.set()
        self.task = None


def chunk(
    content: str | None = None, *, finish_reason: str | None = None, **top: Any
) -> dict[str, Any]:
    """One ``chat.completion.chunk``; ``top`` adds top-level fields (citations, usage...)."""
    delta: dict[str, Any] = {} if content is None else {"content": content}
    return {
        "id": "chatcmpl-sim",
        "object": "chat.completion.chunk",
        "created": 1_700_000_000,
        "model": "magisterium-1",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
        **top,
    }


def magisterium_citation(index: int, text: str, **fields: Any) -> dict[str, Any]:
    """A citation object as Magisterium sends it (footnote ``index + 1``)."""
    return {
        "cited_text": text,
        "cited_text_heading": fields.get("heading"),
        "document_title": fields.get("title", f"Document {index + 1}"),
        "document_index": index,
        "document_author": fields.get("author"),
        "document_year": fields.get("year"),
        "document_reference": fields.get("reference"),
        "source_url": fields.get("url", f"https://example.org/doc/{index + 1}"),
    }


def answer(
    pieces: Sequence[str],
    citations: Sequence[dict[str, Any]] = (),
    *,
    finish_reason: str = "stop",
    related: Sequence[str] | None = None,
    between: Sequence[Step] = (),
) -> Stream:
    """A well-formed streamed answer: a role chunk, the pieces, the final chunk, ``[DONE]``."""
    steps: list[Step] = [
        {
            **chunk(),
            "choices": [
                {"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}
            ],
        }
    ]
    for piece in pieces:
        steps.append(chunk(piece))
        steps.extend(between)
    final = chunk(
        finish_reason=finish_reason,
        citations=list(citations),
        usage={
            "prompt_tokens": 12,
            "completion_tokens": len(pieces),
            "total_tokens": 12 + len(pieces),
        },
    )
    if related is not None:
        final["related_questions"] = list(related)
    steps.append(final)
    return Stream(tuple(steps))


CITED = answer(
    ["Life is sacred from conception", " to natural death[^1]."],
    [
        magisterium_citation(
            0,
            "Human life is sacred &apos;from its beginning&apos;.",
            title="Cherishing Life",
            author="CBCEW",
            year="2004",
            reference="34",
        )
    ],
    related=["What does the Catechism say about it?", "Why is life sacred?"],
)
"""An answer with one footnote, its source and two related questions."""


def _has_text(step: dict[str, Any]) -> bool:
    choices = step.get("choices") or [{}]
    return bool(choices[0].get("delta", {}).get("content"))


@dataclass
class Request:
    body: dict[str, Any]
    headers: dict[str, str]
    at: float


class UpstreamSim:
    """Replies are served in the order queued; when the queue is empty ``default`` is served."""

    def __init__(self, default: Reply | None = None) -> None:
        self.default = default or answer(["Hello", " world."])
        self.replies: list[Reply] = []
        self.requests: list[Request] = []
        self.first_text_at: list[float] = []
        """When each stream's first piece of answer text was written (for latency benches)."""
        self.numbered: list[NumberedStream] = []
        """Every :class:`Numbered` answer served, in order of arrival."""
        self._tickers: dict[float, _Ticker] = {}
        self.base_url = ""
        self._gates: dict[str, asyncio.Event] = {}

    def queue(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def release(self, name: str = "gate") -> None:
        self._gates.setdefault(name, asyncio.Event()).set()

    @property
    def questions(self) -> list[list[dict[str, Any]]]:
        """The ``messages`` of every request, in order (for history assertions)."""
        return [request.body.get("messages", []) for request in self.requests]

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(Request(body=body, headers=dict(request.headers), at=time.monotonic()))
        reply = self.replies.pop(0) if self.replies else self.default
        if isinstance(reply, Recorded):
            return await self._replay(reply, request)
        if isinstance(reply, Json):
            payload = (
                reply.body
                if reply.body is not None
                else {"error": {"message": f"simulated {reply.status}"}}
            )
            text = payload if isinstance(payload, str) else json.dumps(payload)
            return web.Response(
                status=reply.status,
                text=text,
                headers=reply.headers,
                content_type="application/json",
            )
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        with contextlib.suppress(ConnectionResetError):  # the client hung up
            if isinstance(reply, Numbered):
                await self._play_numbered(reply, body, response)
            else:
                await self._play(reply, request, response)
        return response

    async def _replay(self, reply: Recorded, request: web.Request) -> web.StreamResponse:
        if reply.content_type != "text/event-stream":
            return web.Response(body=reply.body, headers={"Content-Type": reply.content_type})
        response = web.StreamResponse(
            headers={"Content-Type": reply.content_type, "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        with contextlib.suppress(ConnectionResetError):
            for event in re.split(rb"(?<=\n\n)", reply.body):
                if event:
                    await response.write(event)
            await response.write_eof()
        return response

    async def _play_numbered(
        self, reply: Numbered, body: dict[str, Any], response: web.StreamResponse
    ) -> None:
        messages = body.get("messages") or [{}]
        stream = NumberedStream(
            question=str(messages[-1].get("content", "")), words=reply.words, response=response
        )
        self.numbered.append(stream)
        ticker = self._tickers.setdefault(reply.per_second, _Ticker(reply.per_second))
        await response.write(_encoded(""))  # the role chunk
        ticker.add(stream)
        await stream.finished.wait()
        final = chunk(
            finish_reason="stop",
            citations=[],
            usage={
                "prompt_tokens": 12,
                "completion_tokens": len(stream.sent),
                "total_tokens": 12 + len(stream.sent),
            },
        )
        await response.write(f"data: {json.dumps(final)}\n\ndata: [DONE]\n\n".encode())
        await response.write_eof()

    async def _play(
        self, reply: Stream, request: web.Request, response: web.StreamResponse
    ) -> None:
        text_sent = False
        for step in reply.steps:
            if isinstance(step, Pause):
                await asyncio.sleep(step.seconds)
            elif isinstance(step, Gate):
                await self._gates.setdefault(step.name, asyncio.Event()).wait()
            elif isinstance(step, Cut):
                assert request.transport is not None
                request.transport.abort()
                return
            elif isinstance(step, Comment):
                await response.write(f": {step.text}\n\n".encode())
            elif isinstance(step, str):
                await response.write(f"data: {step}\n\n".encode())
            else:
                await response.write(f"data: {json.dumps(step)}\n\n".encode())
                if not text_sent and _has_text(step):
                    text_sent = True
                    self.first_text_at.append(time.monotonic())
        if reply.done:
            await response.write(b"data: [DONE]\n\n")
        await response.write_eof()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[UpstreamSim]:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._handle)
        runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.5)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        try:
            yield self
        finally:
            for gate in self._gates.values():
                gate.set()
            for stream in self.numbered:
                stream.finished.set()
            for ticker in self._tickers.values():
                if ticker.task is not None:
                    ticker.task.cancel()
            await runner.cleanup()
