"""Conversation memory per thread and the records buttons look up, on every backend."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.state import State
from bot.upstream.events import Turn
from tests.bot.state.conftest import shared_backends

Q1, A1 = Turn("user", "Who wrote the Summa?"), Turn("assistant", "Thomas Aquinas [^1].")
Q2, A2 = Turn("user", "When?"), Turn("assistant", "Between 1265 and 1274.")
Q3 = Turn("user", "In Latin?")


async def test_recent_gives_the_last_turns_oldest_first(state: State) -> None:
    await state.append("T1", Q1, A1)
    await state.append("T1", Q2, A2)
    await state.append("T1", Q3)
    assert await state.recent("T1", 3) == (Q2, A2, Q3)
    assert await state.recent("T1", 10) == (Q1, A1, Q2, A2, Q3)
    assert await state.recent("T1", 0) == ()
    assert await state.recent("T2", 5) == ()


async def test_a_thread_keeps_only_its_last_turns(state: State) -> None:
    for turn in (Q1, A1, Q2, A2, Q3):
        await state.append("T1", turn, keep=3)
    assert await state.recent("T1", 10) == (Q2, A2, Q3)


async def test_a_thread_is_forgotten_a_ttl_after_its_last_write(state: State) -> None:
    await state.append("T1", Q1, A1, ttl=0.5)
    await asyncio.sleep(0.3)
    await state.append("T1", Q2, ttl=0.5)
    await asyncio.sleep(0.3)  # 0.6 s after the first write, 0.3 s after the last
    assert await state.recent("T1", 5) == (Q1, A1, Q2)
    await asyncio.sleep(0.3)
    assert await state.recent("T1", 5) == ()
    await state.append("T1", Q3, ttl=0.5)
    assert await state.recent("T1", 5) == (Q3,)


@shared_backends
async def test_a_second_worker_continues_the_conversation(open_states: Callable[[], State]) -> None:
    one, two = open_states(), open_states()
    await one.append("T1", Q1, A1)
    await two.append("T1", Q2, A2)
    assert await one.recent("T1", 4) == (Q1, A1, Q2, A2)


async def test_each_user_has_one_vote_per_answer(state: State) -> None:
    assert await state.record_feedback("M42", "U1", "up")
    assert not await state.record_feedback("M42", "U1", "up")
    assert await state.record_feedback("M42", "U2", "up")
    assert await state.record_feedback("M42", "U1", "down")
    assert await state.feedback("M42") == {"U1": "down", "U2": "up"}
    assert await state.feedback("M43") == {}
