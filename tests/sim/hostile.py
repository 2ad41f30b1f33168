"""Hostile upstreams on loopback, for what no well-behaved simulator does: one that keeps the
connection alive forever with comments, one that sends one endless ``data:`` line, one whose
JSON body never ends. :class:`Hostile` counts what crossed the wire before the client hung up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from aiohttp import web

from tests.sim.upstream import chunk

__all__ = [
    "Hostile",
    "Play",
    "endless_json",
    "hostile",
    "keep_alive_forever",
    "keep_alive_only",
    "one_endless_line",
]

Play = Callable[[web.StreamResponse], Awaitable[None]]


@dataclass
class Hostile:
    url: str
    sent: list[int]
    """Bytes written to each connection before the client hung up."""


class _Counted(web.StreamResponse):
    """A response that adds what it writes to the last count in ``sent``."""

    def __init__(self, sent: list[int], *, headers: dict[str, str]) -> None:
        super().__init__(headers=headers)
        self._sent = sent

    async def write(self, data: bytes | bytearray | memoryview) -> None:
        self._sent[-1] += len(data)
        await super().write(data)


@asynccontextmanager
async def hostile(play: Play, content_type: str = "text/event-stream") -> AsyncIterator[Hostile]:
    sent: list[int] = []

    async def handle(request: web.Request) -> web.StreamResponse:
        await request.read()
        response = _Counted(sent, headers={"Content-Type": content_type})
        await response.prepare(request)
        sent.append(0)
        with contextlib.suppress(ConnectionResetError, RuntimeError):  # the client hung up
            await play(response)
        return response

    app = web.Application()
    app.router.add_post("/v1/chat/completions", handle)
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.2)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield Hostile(f"http://127.0.0.1:{runner.addresses[0][1]}/v1", sent)
    finally:
        await runner.cleanup()


def data(piece: str) -> bytes:
    return f"data: {json.dumps(chunk(piece))}\n\n".encode()


async def keep_alive_forever(response: web.StreamResponse) -> None:
    await response.write(data("The first words"))
    while True:
        await response.write(b": keep-alive\n\n")
        await asyncio.sleep(0.02)


async def keep_alive_only(response: web.StreamResponse) -> None:
    while True:
        await response.write(b": still thinking\n\n")
        await asyncio.sleep(0.02)


async def one_endless_line(response: web.StreamResponse) -> None:
    await response.write(data("The first words"))
    await response.write(b'data: {"choices": [{"delta": {"content": "')
    while True:
        await response.write(b"x" * 65536)
        await asyncio.sleep(0)


async def endless_json(response: web.StreamResponse) -> None:
    await response.write(b'{"choices": [{"message": {"content": "')
    while True:
        await response.write(b"y" * 65536)
        await asyncio.sleep(0)
