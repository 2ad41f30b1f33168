"""What several workers agree on through one Redis: two Coordinations are two workers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.state.coordination import Coordination, open_coordination
from bot.state.records import Records

Workers = Callable[[], Coordination]


@pytest.fixture
def workers(coordinations: Workers) -> Workers:
    return coordinations


@pytest.mark.parametrize("url", ["memory://", "sqlite:///state.db"])
def test_one_worker_alone_needs_no_coordination(url: str) -> None:
    assert open_coordination(url) is None


async def test_members_are_the_workers_still_beating(workers: Workers) -> None:
    a, b = workers(), workers()
    assert await a.members("discord", "A", ttl=30) == ["A"]
    assert await b.members("discord", "B", ttl=0.2) == ["A", "B"]
    await asyncio.sleep(0.3)  # B stopped beating: gone for A
    assert await a.members("discord", "A", ttl=30) == ["A"]
    await a.leave("discord", "A")
    assert await b.members("discord", "B", ttl=30) == ["B"]


async def test_a_lease_has_one_holder_until_released_or_lapsed(workers: Workers) -> None:
    a, b = workers(), workers()
    assert await a.hold("shard:0", "A", ttl=0.3)
    assert not await b.hold("shard:0", "B", ttl=30)
    assert await a.hold("shard:0", "A", ttl=0.3)  # renewing
    assert await b.holders(["shard:0", "shard:1"]) == ["A", None]
    await b.release("shard:0", "B")  # not B's to release
    assert await b.holders(["shard:0"]) == ["A"]
    await asyncio.sleep(0.4)  # A died: its lease lapsed
    assert await b.hold("shard:0", "B", ttl=30)
    await a.release("shard:0", "A")
    assert await a.holders(["shard:0"]) == ["B"]
    await b.release("shard:0", "B")
    assert await a.holders(["shard:0"]) == [None]


async def test_the_first_proposal_stands_while_anyone_proposes(workers: Workers) -> None:
    a, b = workers(), workers()
    assert await a.agree("count", "4", ttl=0.3) == "4"
    assert await b.agree("count", "2", ttl=0.3) == "4"
    await asyncio.sleep(0.4)  # nobody proposed again: the next worker's count stands
    assert await b.agree("count", "2", ttl=30) == "2"


async def test_a_window_is_shared_slot_by_slot(workers: Workers) -> None:
    """Three calls a minute between two workers: the fourth, from either, waits for the
    first to leave the window."""
    a, b = workers(), workers()
    minute = {"chat.update": (3, 60.0)}
    waits = [(await worker.reserve(minute))[0] for worker in (a, b, a)]
    assert waits == [0, 0, 0]
    wait, found = await b.reserve(minute)
    slots = found["chat.update"]
    assert 59 < wait <= 60
    assert len(slots) == 4
    assert slots[-1] == wait
    (window,) = (await a.windows({"chat.update": 60})).values()
    assert window == pytest.approx(slots, abs=0.05)


async def test_a_write_in_several_windows_takes_one_time_in_all(workers: Workers) -> None:
    """A group's minute has room, its chat's second does not: the slot is the chat's, taken in
    both, so the group's window counts the write when it goes (not when it was asked); a
    pause the platform asked for (a 429's Retry-After) holds every worker's next slot."""
    a, b = workers(), workers()
    group, chat = ("group", (20, 60.0)), ("chat", (1, 1.0))
    assert (await a.reserve(dict([group, chat])))[0] == 0
    wait, found = await b.reserve(dict([group, chat]))
    assert 0.9 < wait <= 1.0
    assert found["group"][-1] == found["chat"][-1] == wait
    await a.pause("chat", 5.0)
    wait, _ = await b.reserve(dict([chat]))
    assert 4.9 < wait <= 5.0
    wait, _ = await a.reserve(dict([group]), not_before=2.0)
    assert 1.9 < wait <= 2.0


async def test_tallies_sum_the_other_live_workers(workers: Workers) -> None:
    a, b, c = workers(), workers(), workers()
    assert await a.tally("claims", "A", {"chat.update": 2}, ttl=30) == {}
    assert await b.tally("claims", "B", {"chat.update": 1, "chat.stopStream": 3}, ttl=0.2) == {
        "chat.update": 2
    }
    assert await c.tally("claims", "C", {}, ttl=30) == {"chat.update": 3, "chat.stopStream": 3}
    await asyncio.sleep(0.3)  # B died: its promises go with it
    assert await c.tally("claims", "C", {}, ttl=30) == {"chat.update": 2}
    assert await a.tally("claims", "A", {}, ttl=30) == {}


async def test_a_lapsed_record_goes_to_exactly_one_worker(workers: Workers) -> None:
    owner, *others = (Records(workers()) for _ in range(4))
    await owner.put("slack", "r1", '{"a": 1}', ttl=0.2)
    await owner.put("slack", "r2", '{"b": 2}', ttl=30)
    assert [await other.take_lapsed("slack") for other in others] == [[], [], []]
    await asyncio.sleep(0.3)
    taken = await asyncio.gather(*(other.take_lapsed("slack") for other in others))
    assert sorted((r.id, r.record) for found in taken for r in found) == [("r1", '{"a": 1}')]
    assert await others[0].take_lapsed("discord") == []


async def test_a_beating_record_never_lapses_and_a_dropped_one_is_gone(workers: Workers) -> None:
    owner, other = Records(workers()), Records(workers())
    await owner.put("discord", "r1", "first", ttl=0.3)
    await owner.put("discord", "r2", "kept", ttl=0.3)
    for _ in range(3):
        await asyncio.sleep(0.15)
        await owner.beat("discord", {"r1": "", "r2": ""}, ttl=0.3)
    await owner.beat("discord", {"r1": "moved on"}, ttl=None)  # a change, no beat
    await owner.drop("discord", "r2")
    assert await other.take_lapsed("discord") == []
    await asyncio.sleep(0.35)
    (lapsed,) = await other.take_lapsed("discord")
    assert (lapsed.id, lapsed.record) == ("r1", "moved on")


async def test_a_records_secret_expires_with_itself_and_never_prints(workers: Workers) -> None:
    owner, other = Records(workers()), Records(workers())
    await owner.put("discord", "fresh", "{}", ttl=0.1, secret="tok-fresh", secret_ttl=30)
    await owner.put("discord", "stale", "{}", ttl=0.1, secret="tok-stale", secret_ttl=0.05)
    await asyncio.sleep(0.2)
    lapsed = {r.id: r for r in await other.take_lapsed("discord")}
    assert lapsed["fresh"].secret == "tok-fresh"
    assert lapsed["stale"].secret is None
    assert "tok-fresh" not in repr(lapsed["fresh"])
