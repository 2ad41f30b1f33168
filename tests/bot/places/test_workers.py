"""An operator's change reaches every worker on one store within about a second, with nothing
to restart: each worker reads a place's settings through a one-second cache."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from bot.places import CACHE_TTL, Places
from bot.state import State
from config import Settings
from tests.bot.state.conftest import shared_backends
from tests.places import at

ABOUT_A_SECOND = CACHE_TTL + 2.0
"""The cache's second, and room for a loaded machine's slowest store call."""


async def until(holds: Callable[[], Awaitable[bool]], *, within: float) -> None:
    deadline = time.monotonic() + within
    while not await holds():
        assert time.monotonic() < deadline, "the change never reached this worker"
        await asyncio.sleep(0.05)


@shared_backends
async def test_a_change_reaches_every_worker_within_about_a_second(
    open_states: Callable[[], State], environment: Settings
) -> None:
    workers = [Places(open_states(), defaults=environment) for _ in range(3)]
    operator = Places(open_states(), defaults=environment)
    for worker in workers:  # each has read the place, and keeps it in its cache
        assert (await worker.effective("discord", "1", "2")).language == "de"

    await operator.set(at("discord:1"), "language", "fr", by="operator")
    await operator.set(at("discord:1/2"), "enabled", "off", by="operator")

    for worker in workers:

        async def applied(worker: Places = worker) -> bool:
            here = await worker.effective("discord", "1", "2")
            return here.language == "fr" and not here.enabled

        await until(applied, within=ABOUT_A_SECOND)


@shared_backends
async def test_a_worker_reads_the_store_at_most_once_a_second_per_place(
    open_states: Callable[[], State], environment: Settings
) -> None:
    """What keeps the store's load flat however many questions a place asks: a change made
    meanwhile by another worker waits for the next second."""
    state = open_states()
    now = [0.0]
    worker = Places(state, defaults=environment, clock=lambda: now[0])
    assert (await worker.effective("slack", "T0123ABC", "C0456DEF")).auto_answer is False
    await Places(open_states(), defaults=environment).set(
        at("slack:T0123ABC/C0456DEF"), "auto_answer", "on", by="U1"
    )
    now[0] += CACHE_TTL * 0.9
    assert (await worker.effective("slack", "T0123ABC", "C0456DEF")).auto_answer is False
    now[0] += CACHE_TTL * 0.2
    assert (await worker.effective("slack", "T0123ABC", "C0456DEF")).auto_answer is True
