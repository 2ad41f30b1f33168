"""Hostile upstreams on loopback: one that keeps the connection alive forever with comments, one
that sends one endless ``data:`` line, one that answers with an endless JSON body. The answer
ends by its deadline or at the size cap, keeping the text that arrived, and the client reads
no more than the cap."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.upstream.client import AnswerClient, RetryPolicy, Timeouts
from bot.upstream.deadline import Deadline, DeadlinePassed
from bot.upstream.errors import TooLarge, TooSlow, UpstreamDown, UpstreamError
from bot.upstream.events import TextDelta
from tests.patience import PATIENCE
from tests.sim.hostile import (
    endless_json,
    hostile,
    keep_alive_forever,
    keep_alive_only,
    one_endless_line,
)


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
        async with asyncio.timeout(
            PATIENCE
        ):  # today's client never ends: fail, don't hang the suite
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
    assert took >= 1.0  # the deadline, and nothing else, ended it: its upstream never does


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
