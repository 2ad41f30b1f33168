"""Answers in flight on a shared Redis: a dead worker's are closed once by a live one.

Each InFlight here is one worker; a worker "dies" by leaving its InFlight without finishing its
answers (nothing beats for them any more, as after a SIGKILL). Times are shortened; the real
SIGKILL, with the platforms, is in tests/integrations/test_many_workers.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from contextlib import AsyncExitStack
from dataclasses import replace

from bot.answer import Question
from bot.inflight import InFlight, Orphan, Times, Whereabouts
from bot.render.ports import Payload
from bot.state.coordination import Coordination, open_coordination, shared_coordination
from tests.patience import PATIENCE
from tests.sim.redis_server import free_port

FAST = Times(beat=0.1, ttl=0.4, close_grace=1.0)


class Sink:
    """Where an answer is, as a platform sink would say (the token is the secret); a write is
    only kept in ``written``."""

    def __init__(self, conversation: str, *messages: str) -> None:
        self.where = Whereabouts(
            conversation=conversation,
            messages=messages,
            shown=bool(messages),
            secret="interaction-token",
            secret_ttl=60,
        )
        self.written: list[Sequence[Payload]] = []
        self.edited: list[tuple[int, Payload]] = []

    def whereabouts(self) -> Whereabouts:
        return self.where

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        self.written.append(messages)

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        return None

    async def edit_thread(self, index: int, payload: Payload) -> None:
        self.edited.append((index, payload))


class Closer:
    def __init__(self) -> None:
        self.closed: list[Orphan] = []
        self.changed = asyncio.Event()

    async def __call__(self, orphan: Orphan) -> None:
        self.closed.append(orphan)
        self.changed.set()

    async def first(self) -> Orphan:
        await asyncio.wait_for(self.changed.wait(), PATIENCE)
        return self.closed[0]


def question(platform: str = "slack") -> Question:
    return Question(
        text="What is hope?", platform=platform, user_id="U1", channel_id="C1", language="fr"
    )


async def test_a_dead_workers_answer_is_closed_once_with_where_it_last_was(
    coordinations: Callable[[], Coordination],
) -> None:
    sink = Sink("C1", "1.1")
    closers = [Closer(), Closer()]
    async with AsyncExitStack() as live:
        for closer in closers:
            worker = await live.enter_async_context(InFlight(coordinations(), times=FAST))
            await live.enter_async_context(worker.closing("slack", closer))
        dying = InFlight(coordinations(), times=FAST)
        async with dying:
            answer = dying.track(question(), sink)
            watched = await answer.__aenter__()  # the answer starts, and never finishes
            # it rolled over into a second message
            sink.where = replace(sink.where, messages=("1.1", "1.2"))
            await watched.show(({"text": "the second message"},), final=False)
            await asyncio.sleep(FAST.beat / 2)  # less than a beat: the write told the tracker
        # the worker is gone: nothing beats for its answer any more
        done, _ = await asyncio.wait(
            [asyncio.create_task(closer.first()) for closer in closers],
            return_when=asyncio.FIRST_COMPLETED,
        )
        orphan = done.pop().result()
        await asyncio.sleep(FAST.beat * 3)
    assert sum(len(closer.closed) for closer in closers) == 1
    assert orphan.platform == "slack"
    assert orphan.language == "fr"
    assert orphan.where == Whereabouts(
        conversation="C1", messages=("1.1", "1.2"), shown=True, secret="interaction-token"
    )
    assert orphan.where.secret == "interaction-token"
    assert "interaction-token" not in repr(orphan)


async def test_answers_that_beat_or_finish_are_never_closed(
    coordinations: Callable[[], Coordination],
) -> None:
    closer = Closer()
    async with (
        InFlight(coordinations(), times=FAST) as watcher,
        watcher.closing("slack", closer),
        InFlight(coordinations(), times=FAST) as worker,
    ):
        async with worker.track(question(), Sink("C1")):
            assert worker.answers == 1
            await asyncio.sleep(FAST.ttl * 2)  # long past the deadline, beating all along
        assert worker.answers == 0
        await asyncio.sleep(FAST.ttl + FAST.beat * 2)
    assert closer.closed == []


async def test_an_orphan_waits_for_a_worker_that_runs_its_platform(
    coordinations: Callable[[], Coordination],
) -> None:
    slack, discord = Closer(), Closer()
    async with InFlight(coordinations(), times=FAST) as slack_worker:
        async with slack_worker.closing("slack", slack):
            async with InFlight(coordinations(), times=FAST) as dying:
                answer = dying.track(question("discord"), Sink("42"))
                await answer.__aenter__()  # never finishes
            await asyncio.sleep(FAST.ttl * 2)
        assert slack.closed == []
        async with slack_worker.closing("discord", discord):
            orphan = await discord.first()
    assert orphan.where.conversation == "42"


async def test_one_worker_alone_records_nothing() -> None:
    async with (
        shared_coordination("memory://") as coordination,
        InFlight(coordination) as alone,
        alone.track(question(), Sink("C1")),
    ):
        assert alone.answers == 0


async def test_an_answer_goes_on_while_redis_is_down() -> None:
    """Nothing listens where the workers' Redis should be: the answer is written all the same,
    only unrecorded."""
    unreachable = open_coordination(f"redis://127.0.0.1:{free_port()}/0")
    assert unreachable is not None
    sink = Sink("C1")
    async with (
        InFlight(unreachable, times=FAST) as alone,
        alone.track(question(), sink) as watched,
    ):
        await watched.show(({"text": "Hope is a virtue."},), final=True)
        await asyncio.sleep(FAST.beat * 2)  # its beats fail too, and the worker goes on
    assert sink.written == [({"text": "Hope is a virtue."},)]
    await unreachable.aclose()


async def test_a_tracked_answer_still_edits_its_cards_with_their_quote_checks(
    coordinations: Callable[[], Coordination],
) -> None:
    """Workers on Redis track every answer; the cards' verdicts still reach the platform."""
    sink = Sink("C1", "1.1")
    worker = InFlight(coordinations(), times=FAST)
    async with worker, worker.track(question(), sink) as watched:
        await watched.edit_thread(0, {"text": "✓ Quote found on the page"})
    assert sink.edited == [(0, {"text": "✓ Quote found on the page"})]
