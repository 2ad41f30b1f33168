"""Forget-me, as a person pressing it in a loop would use it: it touches only the presser's keys
(one walked every place's settings history in Redis, ~70 ms of Redis each), still finds what a
store an older citebot wrote holds of them, and runs at most a few times an hour, said in the
person's language."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from redis.asyncio import Redis

from bot.i18n.wording import Wording
from bot.service import FORGET_LIMIT
from bot.state import State, open_state
from bot.state.names import person_questions
from tests.integrations.telegram.world import CITED, telegram_world
from tests.sim.redis_server import RedisProcess

PLACES = 300
"""Places whose settings others changed: what a forget once walked every time."""


async def crowd(state: State) -> None:
    """Everyone else's things: settings changed in many places, their daily counts."""
    for n in range(PLACES):
        await state.change_place_settings({f"discord:{n}": {"language": "fr"}}, by=f"admin{n}")
        await state.take_daily({person_questions(f"discord:{n}", f"person{n}"): 5})


async def commands(redis: Redis) -> dict[str, int]:
    """How many times each command ran on the server since its statistics were reset."""
    stats = await redis.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(value["calls"]) for name, value in stats.items()}


async def test_on_redis_a_forget_touches_the_persons_keys_and_no_one_elses(
    redis_process: RedisProcess,
) -> None:
    async with (
        open_state(redis_process.url) as state,
        Redis.from_url(redis_process.url, decode_responses=True) as redis,
    ):
        await crowd(state)
        await state.change_place_settings({"discord:7": {"enabled": "off"}}, by="alice")
        await state.take_daily({person_questions("discord:7", "alice"): 5})
        await state.forget_person("discord", "someone")  # the store indexed once, here
        await redis.config_resetstat()

        forgotten = await state.forget_person("discord", "alice")
        ran = await commands(redis)

        assert forgotten >= 1
        assert ran.get("scan", 0) == 0
        assert ran.get("lrange", 0) <= 1  # the one place alice changed
        assert ran.get("zrange", 0) <= 3
        history = await state.settings_history("discord:7")
        assert [change.by for change in history] == ["admin7", "forgotten"]
        assert await state.daily_counts([person_questions("discord:7", "alice")]) == {
            person_questions("discord:7", "alice"): 0
        }


async def test_on_redis_what_an_older_citebot_wrote_is_still_found(
    redis_process: RedisProcess,
) -> None:
    """The store as an older citebot left it: settings changed and a daily count, noted
    nowhere as alice's."""
    async with (
        open_state(redis_process.url) as state,
        Redis.from_url(redis_process.url, decode_responses=True) as redis,
    ):
        now = int(time.time() * 1000)
        change = {"at": now, "by": "alice", "place": "discord:7", "key": "enabled", "old": None}
        change["new"] = "off"
        await redis.lpush("citebot:settings-history:discord:7", json.dumps(change))
        await redis.pexpire("citebot:settings-history:discord:7", 3_600_000)
        await redis.zadd("citebot:settings-index:history", {"discord:7": now})
        counter = "citebot:daily:" + person_questions("discord:7", "alice")
        await redis.hset(counter, mapping={"day": now // 86_400_000, "n": 3})
        await redis.pexpire(counter, 3_600_000)

        await state.forget_person("discord", "alice")

        assert [c.by for c in await state.settings_history("discord:7")] == ["forgotten"]
        assert not await redis.exists(counter)


async def test_on_sqlite_what_an_older_citebot_wrote_is_still_found_and_indexed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "state.db"
    async with open_state(f"sqlite:///{path}") as state:
        await state.take_daily({person_questions("discord:7", "alice"): 5})
    with sqlite3.connect(path) as db:  # as an older citebot left it
        db.execute("DELETE FROM belongings")
        db.execute("PRAGMA user_version = 0")

    async with open_state(f"sqlite:///{path}") as state:
        await state.change_place_settings({"discord:7": {"enabled": "off"}}, by="alice")
        await state.forget_person("discord", "alice")
        counts = await state.daily_counts([person_questions("discord:7", "alice")])
        assert list(counts.values()) == [0]
        assert [c.by for c in await state.settings_history()] == ["forgotten"]
    with sqlite3.connect(path) as db:
        plan = db.execute(
            "EXPLAIN QUERY PLAN UPDATE settings_history SET by = 'x' WHERE by = 'alice'"
        ).fetchall()
    assert "settings_history_by_person" in str(plan)


async def test_forget_me_runs_a_few_times_an_hour_and_says_so_in_the_persons_language(
    tmp_path: Path,
) -> None:
    most, _ = FORGET_LIMIT
    async with telegram_world({"STATE_URL": f"sqlite:///{tmp_path / 'state.db'}"}) as world:
        world.upstream.queue(CITED)
        alice = world.person("Alice", language_code="de")
        chat = world.tg.private_chat(alice)
        said = []
        for _ in range(most + 1):
            command = await world.tg.user_says(alice, chat, "/forget_me")
            await world.idle()
            [asked] = [m for m in world.tg.bot_messages(chat) if m.id > command.id]
            pressed = await world.tg.click(alice, asked, f"fm:{alice.id}")
            await world.tg.until(lambda: pressed.answered and bool(asked.edits))  # noqa: B023
            await world.idle()
            said.append(asked.readable)

        german = Wording(language="de")
        done = f"{german.forgot_you()}\n\n{german.forget_me_leaves('Telegram')}"
        assert said[:most] == [done] * most
        assert said[most][:20] == german.forget_me_too_soon(3600)[:20]


async def test_a_forget_leaves_everyone_elses_counts_and_changes(state: State) -> None:
    await crowd(state)
    await state.change_place_settings({"discord:7": {"enabled": "off"}}, by="alice")

    await state.forget_person("discord", "alice")

    history = await state.settings_history()
    assert {c.by for c in history} == {f"admin{n}" for n in range(PLACES)} | {"forgotten"}
    counts = await state.daily_counts(
        [person_questions(f"discord:{n}", f"person{n}") for n in (0, 299)]
    )
    assert list(counts.values()) == [1, 1]
