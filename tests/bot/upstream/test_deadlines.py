"""Hostile upstreams on loopback: one that keeps the connection alive forever with comments, one
that sends one endless ``data:`` line, one that answers with an endless JSON body. The answer
ends by its deadline or at the size cap, keeping the text that arrived, and the client reads
no more than the cap."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import pytest
from aiohttp import web

from bot.upstream.client import AnswerClient, RetryPolicy, Timeouts
from bot.upstream.deadline import Deadline, DeadlinePassed
from bot.upstream.errors import TooLarge, TooSlow, UpstreamDown, UpstreamError
from bot.upstream.events import TextDelta
from tests.sim.upstream import chunk

Play = Callable[[web.StreamResponse], Awaitable[None]]


@dataclass
class Hostile:
    url: str
    sent: list[int]
    """Bytes written to each connection before the client hung up."""


@asynccontextmanager
async def hostile(play: Play, content_type: str = "text/event-stream") -> AsyncIterator[Hostile]:
    sent: list[int] = []

    async def handle(request: web.Request) -> web.StreamResponse:
        await request.read()
        response = web.StreamResponse(headers={"Content-Type": content_type})
        await response.prepare(request)
        sent.append(0)
        original = response.write

        async def counted(data: bytes) -> None:
            sent[-1] += len(data)
            await original(data)

        response.write = counted  # type: ignore[method-assign]
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


async def run(url: str, *, total: float = 60.0, cap: int = 1 << 20) -> tuple[str, UpstreamError]:
    """Ask, the way an answer does; what text arrived and how it ended (and how long)."""
    text = []
    async with AnswerClient(
        base_url=url,
        api_key=None,
        model="m",
        timeouts=Timeouts(connect=2, idle=5, total=total),
        retry=RetryPolicy(max_retries=2, base_delay=0.01, max_delay=0.01),
        max_event_bytes=cap,
    ) as client:
        async with asyncio.timeout(15):  # today's client never ends: fail, don't hang the suite
            try:
                async for event in client.stream("Why?"):
                    if isinstance(event, TextDelta):
                        text.append(event.text)
            except UpstreamError as error:
                return "".join(text), error
    raise AssertionError("the hostile upstream's answer ended normally")


async def test_keep_alive_comments_do_not_keep_an_answer_past_its_deadline() -> None:
    async with hostile(keep_alive_forever) as upstream:
        started = time.monotonic()
        text, error = await run(upstream.url, total=1.0)
        took = time.monotonic() - started
    assert isinstance(error, TooSlow)
    assert text == error.partial_text == "The first words"
    assert 1.0 <= took < 3.0


async def test_keep_alive_before_any_text_gives_up_at_the_deadline_without_retrying() -> None:
    async with hostile(keep_alive_only) as upstream:
        text, error = await run(upstream.url, total=1.0)
    assert isinstance(error, UpstreamDown)
    assert text == ""
    assert "no answer in time" in str(error)
    assert len(upstream.sent) == 1  # the deadline is the whole answer's, not one attempt's


async def test_one_endless_data_line_is_read_up_to_the_cap_and_no_further() -> None:
    cap = 256 * 1024
    async with hostile(one_endless_line) as upstream:
        text, error = await run(upstream.url, total=30.0, cap=cap)
    assert isinstance(error, TooLarge)
    assert text == error.partial_text == "The first words"
    # What crossed the wire before the client hung up: the cap and the socket buffers, not
    # the 26 MB a second the old reader took in.
    assert upstream.sent[0] < cap + 4 * 1024 * 1024  # measured: 590 KB


async def test_an_endless_json_body_is_read_up_to_the_cap() -> None:
    cap = 256 * 1024
    async with hostile(endless_json, "application/json") as upstream:
        text, error = await run(upstream.url, total=30.0, cap=cap)
    assert isinstance(error, UpstreamDown)
    assert "bytes" in str(error)
    assert text == ""


async def test_the_deadline_interrupts_a_wait_and_then_every_later_one() -> None:
    loop = asyncio.get_running_loop()
    timer = Deadline(loop.time() + 0.05)
    with pytest.raises(DeadlinePassed):
        await timer.wait(asyncio.sleep(10))
    await asyncio.sleep(0)  # no cancellation of this task is left pending
    with pytest.raises(DeadlinePassed):
        await timer.wait(asyncio.sleep(0))
    timer.close()


async def test_a_deadline_that_passes_between_waits_cancels_nothing_else() -> None:
    loop = asyncio.get_running_loop()
    timer = Deadline(loop.time() + 0.01)
    assert await timer.wait(asyncio.sleep(0, "on time")) == "on time"
    await asyncio.sleep(0.05)  # the consumer's own work, past the deadline: not cancelled
    with pytest.raises(DeadlinePassed):
        await timer.wait(asyncio.sleep(0))


async def test_shutdown_still_cancels_an_answer_waiting_on_its_upstream() -> None:
    async def waiting() -> None:
        timer = Deadline(asyncio.get_running_loop().time() + 30)
        try:
            await timer.wait(asyncio.sleep(30))
        finally:
            timer.close()

    task = asyncio.create_task(waiting())
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
