"""Many Telegram workers on one Redis: real ``citebot run`` processes (their leases and records
at ``fast_worker.SCALE``), one simulated Telegram, one real redis-server. One of them reads the
updates; every question is answered once; when the reader's worker dies (SIGKILL) another takes
the reader within seconds and closes the dead one's answers with the note, and on SIGTERM it
hands the reader over at once."""

from __future__ import annotations

import asyncio
import signal
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import redis.asyncio as aioredis

from tests.integrations.many_workers import INTERRUPTED, Worker, kill_all, spawn_worker, until
from tests.patience import PATIENCE
from tests.sim.telegram import SimChat, SimUser, TelegramSim
from tests.sim.upstream import Gate, UpstreamSim, answer

FIRST, REST = "First half of the answer. ", "Second half, after the gate."
READING = "Telegram: reading updates here"
STOPPED = "Telegram: no longer reading updates here"


@dataclass
class Workers:
    tg: TelegramSim
    upstream: UpstreamSim
    state_url: str
    workdir: Path
    running: list[Worker] = field(default_factory=list)

    async def start(self) -> Worker:
        worker = await spawn_worker(
            ("-m", "tests.integrations.fast_worker"),
            {
                "TELEGRAM_BOT_TOKEN": self.tg.token,
                "TELEGRAM_API_BASE_URL": self.tg.base_url,
                "UPSTREAM_BASE_URL": self.upstream.base_url,
                "UPSTREAM_API_KEY": "sk-test",
                "STATE_URL": self.state_url,
                "SHUTDOWN_GRACE_SECONDS": "2",
                "QUOTE_CHECK": "off",
            },
            workdir=self.workdir,
        )
        self.running.append(worker)
        return worker

    def reader(self) -> Worker:
        """The live worker reading the updates now (its log says it took the reader last)."""
        [reading] = [
            w
            for w in self.running
            if w.process.returncode is None and w.text().rfind(READING) > w.text().rfind(STOPPED)
        ]
        return reading

    async def ask(self, people: list[SimUser], text: str) -> list[SimChat]:
        chats = []
        for n, person in enumerate(people):
            chat = self.tg.private_chat(person)
            await self.tg.user_says(person, chat, f"{text} {n}?")
            chats.append(chat)
        return chats


@asynccontextmanager
async def workers(state_url: str, upstream: UpstreamSim) -> AsyncIterator[Workers]:
    async with TelegramSim() as tg, upstream.running():
        with tempfile.TemporaryDirectory(prefix="citebot-telegram-") as workdir:
            world = Workers(tg, upstream, state_url, Path(workdir))
            try:
                yield world
            except BaseException:
                for worker in world.running:  # pytest shows this with the failure
                    print(f"--- {worker.log.name}\n{worker.text()[-4000:]}")
                raise
            finally:
                await kill_all(world.running)


async def recorded(redis_url: str, text: str) -> int:
    """How many answers in flight the workers' records show ``text`` of: a record is stored
    after a draft is sent (a loaded machine once killed a worker in between, and its answer was
    closed as one that showed nothing)."""
    async with aioredis.from_url(redis_url, decode_responses=True) as redis:
        shown = 0
        async for key in redis.scan_iter(match="*:inflight:records"):
            shown += sum(text in str(value) for value in await redis.hvals(key))
        return shown


async def until_recorded(redis_url: str, text: str, count: int) -> None:
    """Until ``count`` answers' records show ``text``: what a closer will send."""
    deadline = time.monotonic() + PATIENCE
    while await recorded(redis_url, text) < count:
        assert time.monotonic() < deadline, "the answers in flight never recorded what they showed"
        await asyncio.sleep(0.05)


def shown(tg: TelegramSim, chat: SimChat) -> list[str]:
    return [m.readable for m in tg.bot_messages(chat)]


async def test_a_killed_readers_updates_move_and_its_answers_end_with_the_note(
    fresh_redis: str,
) -> None:
    upstream = UpstreamSim(default=answer([FIRST, REST], between=[Gate()]))
    async with workers(fresh_redis, upstream) as world:
        tg = world.tg
        first, second = await world.start(), await world.start()
        await until(lambda: tg.updates.long_polling, within=60)  # two workers start, loaded
        people = [tg.add_user(f"Person {n}", username=f"person_{n}") for n in range(6)]

        early = await world.ask(people[:3], "Before")
        await until(lambda: len(upstream.requests) == 3)
        await until(
            lambda: all(
                any(FIRST.strip() in d.history[-1] for d in tg.drafts_in(c)) for c in early
            ),
        )
        await until_recorded(fresh_redis, FIRST.strip(), len(early))
        victim = world.reader()
        survivor = second if victim is first else first
        killed_at = time.monotonic()
        victim.process.send_signal(signal.SIGKILL)
        await victim.process.wait()
        await until(lambda: READING in survivor.text())
        took_over = time.monotonic() - killed_at

        late = await world.ask(people[3:], "After")
        await until(lambda: len(upstream.requests) == 6)
        upstream.release()
        await until(lambda: all(shown(tg, c) for c in early + late))
        logs = first.text() + second.text()
        survivor.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(survivor.process.wait(), PATIENCE) == 0

    assert took_over < 10  # the lease lapses in 2 s at this scale, then a tick
    asked = Counter(q[-1]["content"] for q in upstream.questions)
    assert set(asked.values()) == {1}  # every question reached the upstream once
    assert len(asked) == 6
    for chat in early:  # the dead worker's drafts: a message with what was shown, and the note
        [message] = shown(tg, chat)
        assert message == f"{FIRST.strip()}\n\n_{INTERRUPTED}" + message.split(INTERRUPTED)[1]
    for chat in late:
        assert shown(tg, chat)[0] == FIRST + REST
    # Only one reader read at a time: the one 409 ends the dead worker's poll, left hanging
    # at Telegram when it died, as the new reader starts.
    assert [r for r in tg.requests if r.status == 409 and r.at < killed_at] == []
    assert tg.token not in logs
    tg.assert_valid()


async def test_sigterm_hands_the_reader_over_at_once(fresh_redis: str) -> None:
    upstream = UpstreamSim(default=answer(["Answered."]))
    async with workers(fresh_redis, upstream) as world:
        tg = world.tg
        first, second = await world.start(), await world.start()
        await until(lambda: tg.updates.long_polling, within=60)  # two workers start, loaded
        people = [tg.add_user(f"Person {n}", username=f"person_{n}") for n in range(6)]
        before = await world.ask(people[:3], "Before")
        await until(lambda: all(shown(tg, c) for c in before))
        reader = world.reader()
        other = second if reader is first else first
        stopped_at = time.monotonic()
        reader.process.send_signal(signal.SIGTERM)
        await until(lambda: READING in other.text())
        handed_over = time.monotonic() - stopped_at
        assert await asyncio.wait_for(reader.process.wait(), PATIENCE) == 0
        after = await world.ask(people[3:], "After")
        await until(lambda: all(shown(tg, c) for c in after))
        other.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(other.process.wait(), PATIENCE) == 0

    assert handed_over < 5  # let go at its next tick, taken at the other's (0.4 s each here)
    asked = Counter(q[-1]["content"] for q in upstream.questions)
    assert asked == {f"{when} {n}?": 1 for when in ("Before", "After") for n in range(3)}
    for chat in before + after:
        assert shown(tg, chat) == ["Answered."]
    tg.assert_valid()
