"""An operator's change reaches every worker on one store once a second has passed, with nothing
to restart: each worker reads a place's settings through a one-second cache."""

from __future__ import annotations

from collections.abc import Callable

from bot.places import CACHE_TTL, Places
from bot.state import State
from config import Settings
from tests.bot.state.conftest import shared_backends
from tests.places import at


@shared_backends
async def test_a_change_reaches_every_worker_once_its_cache_second_has_passed(
    open_states: Callable[[], State], environment: Settings
) -> None:
    """Each worker's own clock, moved past the cache's second: what is shown is what the
    store holds then, however long a loaded machine takes to read it."""
    now = [0.0]
    workers = [Places(open_states(), defaults=environment, clock=lambda: now[0]) for _ in range(3)]
    operator = Places(open_states(), defaults=environment)
    for worker in workers:  # each has read the place, and keeps it in its cache
        assert (await worker.effective("discord", "1", "2")).language == "de"

    await operator.set(at("discord:1"), "language", "fr", by="operator")
    await operator.set(at("discord:1/2"), "enabled", "off", by="operator")
    now[0] += CACHE_TTL * 1.1

    for worker in workers:
        here = await worker.effective("discord", "1", "2")
        assert (here.language, here.enabled) == ("fr", False)


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
