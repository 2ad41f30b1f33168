"""The cache port quote checking keeps its verdicts in, on every backend."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.state import State
from tests.bot.state.conftest import shared_backends


async def test_a_cached_value_is_read_back_until_replaced(state: State) -> None:
    assert await state.cached("quote:abc") is None
    await state.cache("quote:abc", "found", ttl=60)
    assert await state.cached("quote:abc") == "found"
    await state.cache("quote:abc", "not_found", ttl=60)
    assert await state.cached("quote:abc") == "not_found"
    assert await state.cached("quote:abd") is None


async def test_a_cached_value_lapses_after_its_ttl(state: State) -> None:
    await state.cache("quote:short", "unreadable", ttl=0.2)
    await state.cache("quote:long", "found", ttl=60)
    await asyncio.sleep(0.3)
    assert await state.cached("quote:short") is None
    assert await state.cached("quote:long") == "found"


@shared_backends
async def test_a_value_one_worker_cached_is_read_by_another(
    open_states: Callable[[], State],
) -> None:
    one, two = open_states(), open_states()
    await one.cache("quote:abc", "found", ttl=60)
    assert await two.cached("quote:abc") == "found"
