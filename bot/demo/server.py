"""The demo upstream as an HTTP server: OpenAI-compatible routes over the extractive answerer.

``running_demo`` starts it on a free loopback port inside the caller's event loop (``citebot
ask`` with no key, tests); ``serve_demo`` runs it until cancelled (``citebot demo-server``).
Answers stream at a steady pace like a real model's, so the pacing and rendering downstream
meet realistic timing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from aiohttp import web

from bot.demo.answerer import Answer, compose_answer
from bot.demo.index import Corpus
from bot.demo.pages import CorpusPages
from bot.demo.wire import (
    MODEL,
    ChatRequest,
    RequestError,
    completion,
    error_body,
    final_chunk,
    new_envelope,
    opening_chunk,
    parse_request,
    text_chunk,
    token_pieces,
)

log = logging.getLogger(__name__)

__all__ = ["DemoUpstream", "running_demo", "serve_demo", "started_demo"]

SHUTDOWN_TIMEOUT = 1.0  # seconds an answer in flight may keep streaming once the server stops


class _Pace:
    """Spaces deltas ``1 / tokens_per_second`` apart on a fixed schedule, so it does not drift."""

    def __init__(self, tokens_per_second: float) -> None:
        fast = tokens_per_second <= 0 or math.isinf(tokens_per_second)
        self._interval = 0.0 if fast else 1.0 / tokens_per_second
        self._next: float | None = None

    async def wait(self) -> None:
        if not self._interval:
            return
        now = asyncio.get_running_loop().time()
        self._next = now if self._next is None else max(self._next + self._interval, now)
        await asyncio.sleep(self._next - now)


@web.middleware
async def _json_errors(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Every HTTP error in the OpenAI error shape, as the client expects from an upstream."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        return web.json_response(error_body(error.reason), status=error.status)


class DemoUpstream:
    """The routes, answering from one corpus at one pace."""

    def __init__(self, *, corpus: Corpus, tokens_per_second: float) -> None:
        self.corpus = corpus
        self.tokens_per_second = tokens_per_second
        self.pages_url: str | None = None
        """This server's own origin once it listens: its citations link to its pages there."""

    def app(self) -> web.Application:
        app = web.Application(middlewares=[_json_errors])
        for prefix in ("", "/v1"):
            app.router.add_post(f"{prefix}/chat/completions", self.chat)
            app.router.add_get(f"{prefix}/models", self.models)
        app.router.add_get("/healthz", self.health)
        app.router.add_get("/corpus/{slug:.+}", CorpusPages(self.corpus).page)
        return app

    async def health(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "passages": len(self.corpus.passages)})

    async def models(self, request: web.Request) -> web.Response:
        return web.json_response(
            {
                "object": "list",
                "data": [
                    {"id": MODEL, "object": "model", "created": 0, "owned_by": "citebot-demo"}
                ],
            }
        )

    async def chat(self, request: web.Request) -> web.StreamResponse:
        try:
            chat = parse_request(json.loads(await request.read()))
        except (ValueError, UnicodeDecodeError) as error:
            message = (
                str(error)
                if isinstance(error, RequestError)
                else ("The request body is not valid JSON.")
            )
            return web.json_response(error_body(message), status=400)
        *earlier, question = chat.user_turns
        answer = compose_answer(self.corpus, question, history=earlier, pages_url=self.pages_url)
        if not chat.stream:
            return web.json_response(completion(chat, answer))
        return await self._stream(request, chat, answer)

    async def _stream(
        self, request: web.Request, chat: ChatRequest, answer: Answer
    ) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        envelope = new_envelope(chat)
        pieces = token_pieces(answer.text)
        pace = _Pace(self.tokens_per_second)
        try:
            await _send(response, opening_chunk(envelope))
            for piece in pieces:
                await pace.wait()
                await _send(response, text_chunk(envelope, piece))
            await _send(
                response, final_chunk(envelope, chat, answer, completion_tokens=len(pieces))
            )
            await response.write(b"data: [DONE]\n\n")
            await response.write_eof()
        except ConnectionResetError:
            log.debug("demo upstream: the client hung up mid-answer")
        return response


async def _send(response: web.StreamResponse, body: dict[str, Any]) -> None:
    await response.write(b"data: " + json.dumps(body, ensure_ascii=False).encode() + b"\n\n")


def _url(host: str, port: int) -> str:
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/v1"


@asynccontextmanager
async def started_demo(
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    corpus: str | None = None,
    tokens_per_second: float = 60.0,
) -> AsyncIterator[str]:
    """Serve the demo on ``host:port`` (0 picks a free port) and yield its base URL.

    The URL ends in ``/v1`` so ``{url}/chat/completions`` works. A bad ``corpus`` folder
    raises :class:`~bot.demo.index.CorpusError` before anything listens.
    """
    index = await asyncio.to_thread(Corpus.load, corpus)
    upstream = DemoUpstream(corpus=index, tokens_per_second=tokens_per_second)
    runner = web.AppRunner(
        upstream.app(),
        access_log=None,
        shutdown_timeout=SHUTDOWN_TIMEOUT,
    )
    try:
        await runner.setup()
        await web.TCPSite(runner, host, port).start()
        url = _url(host, runner.addresses[0][1])
        upstream.pages_url = url.removesuffix("/v1")
        yield url
    finally:
        await runner.cleanup()
        index.close()


@asynccontextmanager
async def running_demo(
    *, corpus: str | None = None, tokens_per_second: float = 60.0
) -> AsyncIterator[str]:
    """The demo on a free loopback port in the current loop, for ``citebot ask`` and tests."""
    async with started_demo(corpus=corpus, tokens_per_second=tokens_per_second) as url:
        yield url


async def serve_demo(
    *,
    host: str,
    port: int,
    corpus: str | None,
    tokens_per_second: float,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve until cancelled; ``on_ready`` receives the base URL (the bound port when 0)."""
    async with started_demo(
        host=host, port=port, corpus=corpus, tokens_per_second=tokens_per_second
    ) as url:
        if on_ready is not None:
            on_ready(url)
        await asyncio.Event().wait()
