"""The answer log in every backend: records found by time and server, completed by the quote
checks and the votes, and gone once past their retention."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from decimal import Decimal

from redis.asyncio import Redis

from bot.state import LoggedAnswer, LoggedSource, LoggedVote, State, open_state

DAY = 86400.0


def record(
    answer_id: str,
    *,
    ago: float = 60.0,
    server: str | None = "G1",
    asker: str = "U1",
    vote_key: str | None = None,
    sources: tuple[LoggedSource, ...] = (),
) -> LoggedAnswer:
    return LoggedAnswer(
        id=answer_id,
        at=time.time() - ago,
        platform="discord",
        server=server,
        channel="C1" if server else "D1",
        asker=asker,
        language="fr",
        outcome="answered",
        first_text_seconds=0.8,
        total_seconds=4.2,
        model="magisterium-1",
        provider="magisterium",
        tokens=16_620,
        reported={"prompt": 100, "completion": 20, "total": 120},
        estimated={"system": 16_500},
        cost=Decimal("0.011640"),
        sources=sources,
        vote_key=vote_key,
    )


async def everything(state: State, since: float = 0.0, **where: str) -> list[LoggedAnswer]:
    found: list[LoggedAnswer] = []
    async for batch in state.logged_answers(since=since, until=time.time(), batch=2, **where):
        assert 0 < len(batch) <= 2
        found += batch
    return found


async def test_records_are_read_back_oldest_first_by_period_and_by_server(state: State) -> None:
    logged = {
        answer_id: record(answer_id, ago=ago, server=server)
        for answer_id, ago, server in (("a", 300, "G1"), ("b", 200, "G2"), ("c", 100, "G1"))
    }
    for kept in logged.values():
        await state.log_answer(kept, retention=DAY)
    await state.log_answer(record("dm", ago=50, server=None), retention=DAY)
    assert [r.id for r in await everything(state)] == ["a", "b", "c", "dm"]
    assert [r.id for r in await everything(state, platform="discord", server="G1")] == ["a", "c"]
    assert [r.id for r in await everything(state, since=time.time() - 250)] == ["b", "c", "dm"]
    [kept] = [r for r in await everything(state) if r.id == "c"]
    assert kept == logged["c"]  # every field as it was written
    assert kept.place == "discord:G1/C1"


async def test_answers_asked_in_the_same_instant_are_each_read_once(state: State) -> None:
    at = time.time() - 10
    for n in range(7):
        await state.log_answer(replace(record(f"same-{n}"), at=at), retention=DAY)
    read = [r.id for r in await everything(state)]  # two a batch
    assert sorted(read) == [f"same-{n}" for n in range(7)]


async def test_the_quote_checks_and_the_votes_complete_their_record(state: State) -> None:
    sources = (
        LoggedSource(title="Catechism 2559", url="https://example.org/ccc/2559"),
        LoggedSource(title="Lumen gentium", url="https://example.org/lg"),
        LoggedSource(title="Past the cards", url="https://example.org/more"),
    )
    await state.log_answer(record("a", vote_key="discord:m1", sources=sources), retention=DAY)
    await state.log_verdicts("a", ["found", "not_found"])
    up = LoggedVote(user="U2", value="up", at=time.time())
    down = LoggedVote(user="U2", value="down", at=time.time(), reason="quote_not_on_page")
    before = await state.log_vote("discord:m1", up)
    assert before is not None
    assert before.votes == ()
    await state.log_vote("discord:m1", down)  # the same person changes their mind
    await state.log_vote("discord:m1", LoggedVote(user="U3", value="up", at=time.time()))
    assert await state.log_vote("discord:nowhere", up) is None
    [kept] = await everything(state)
    assert [s.verdict for s in kept.sources] == ["found", "not_found", None]
    assert sorted((v.user, v.value, v.reason) for v in kept.votes) == [
        ("U2", "down", "quote_not_on_page"),
        ("U3", "up", None),
    ]


async def test_a_record_past_its_retention_is_gone_from_every_index(
    state: State, stored: Callable[[], Awaitable[str]]
) -> None:
    await state.log_answer(
        record("old", ago=2 * DAY, asker="U-OLD-81", vote_key="discord:m-old"), retention=3 * DAY
    )
    await state.log_answer(record("new", ago=60), retention=DAY)  # the retention is now a day
    assert [r.id for r in await everything(state)] == ["new"]
    assert await state.log_vote("discord:m-old", LoggedVote(user="U2", value="up", at=0)) is None
    held = await stored()
    assert "U-OLD-81" not in held
    assert "m-old" not in held
    await state.log_answer(record("ancient", ago=2 * DAY), retention=DAY)
    assert [r.id for r in await everything(state)] == ["new"]


async def test_redis_keeps_a_record_and_its_indexes_no_longer_than_its_retention(
    redis_url: str,
) -> None:
    async with open_state(redis_url, namespace="log-expiry") as state:
        await state.log_answer(record("a", ago=3600, vote_key="discord:m1"), retention=DAY)
    async with Redis.from_url(redis_url, decode_responses=True) as redis:
        keys = [key async for key in redis.scan_iter(match="log-expiry:log:*")]
        ttls = {key: await redis.pttl(key) for key in keys}
    assert len(ttls) == 5  # the record, its vote key, and the time, server and asker indexes
    assert all(0 < ttl <= DAY * 1000 for ttl in ttls.values())
    assert (DAY - 3600 - 60) * 1000 < ttls["log-expiry:log:answer:a"] <= (DAY - 3600) * 1000
