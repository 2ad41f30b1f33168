"""A Discord worker answering batch after batch, its shared state in a real Redis, and what of
it stays in the worker's own memory: shared by ``tests/chaos/test_memory.py`` (a few hundred
answers, a bound on what one leaves behind) and ``bench/bench_memory.py`` (thousands, the
flatness of the worker's memory as a benchmark row).

Each batch is answered before the next is asked, and the simulators' records of it are
forgotten (they are the test's, not the worker's). Discord's 3 seconds to acknowledge an
interaction are not raced here (a hundred at once, traced fourfold slower, on a loaded machine,
once took longer): what is measured is memory; the acknowledgement has its own tests. Only
the worker's own code (``bot/``, ``integrations/``) is counted: the libraries' caches
(discord.py keeps a rate-limit bucket per webhook for five idle minutes) are not the worker's
to free.
"""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import discord
import yarl

from bot.pacing import Pacer
from bot.service import Limits
from bot.state import open_state
from bot.state.failopen import FailOpenState
from tests.integrations.discord.harness import Harness, running_harness
from tests.patience import PATIENCE
from tests.sim.discord import DiscordSim
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

__all__ = ["BATCH", "Answering", "answering", "held_after"]

BATCH = 100
WINDOW = 5.0
"""The longest rate window an answer's writes are kept in (Discord's per-token budget)."""
ROOT = Path(__file__).parents[2]
OURS = [
    tracemalloc.Filter(True, str(ROOT / "bot" / "*")),
    tracemalloc.Filter(True, str(ROOT / "integrations" / "*")),
]
CITED = answer(
    ["Hope is a theological virtue[^1]."],
    [magisterium_citation(0, "Hope is the virtue.", title="Catechism")],
)


@contextmanager
def tracing() -> Iterator[None]:
    """tracemalloc counting what is allocated meanwhile (:func:`held_by_us` reads it)."""
    tracemalloc.start()
    try:
        yield
    finally:
        tracemalloc.stop()


def held_by_us() -> tuple[int, list[str]]:
    """Bytes our code allocated since tracing started and still holds, and where."""
    gc.collect()
    stats = tracemalloc.take_snapshot().filter_traces(OURS).statistics("lineno")
    return sum(stat.size for stat in stats), [str(stat) for stat in stats[:5]]


@dataclass
class Answering:
    sim: DiscordSim
    upstream: UpstreamSim
    harness: Harness
    asked: int = 0

    async def answer(self, count: int) -> None:
        """``count`` questions, a batch at a time, each batch answered before the next (waited
        for as events, however long a loaded machine takes)."""
        for start in range(0, count, BATCH):
            batch = min(BATCH, count - start)
            for _ in range(batch):
                self.asked += 1
                await self.sim.slash_command(
                    "ask",
                    {"question": f"Question {self.asked}?"},
                    channel_id=self.sim.no_threads.id,
                )
            outcomes = await self.harness.answers(batch)
            assert all(outcome and outcome.status == "answered" for outcome in outcomes)
            self.harness.service.outcomes.clear()
            self._forget()

    async def settle(self) -> None:
        """Every rate window the answers used passed, and one more answer written (budgets
        sweep on a write)."""
        await asyncio.sleep(WINDOW + 0.5)
        await self.answer(1)

    def _forget(self) -> None:
        sim = self.sim
        sim.messages.clear()
        sim.interactions.clear()
        sim.requests.clear()
        sim.no_threads.messages.clear()
        self.upstream.requests.clear()


async def held_after(redis_url: str, warm: int, *traced: int) -> list[tuple[int, list[str]]]:
    """What the worker's code holds (bytes, and where most) after ``warm`` answers and then
    each of ``traced`` more, each counted once the rate windows its answers used have passed."""
    held = []
    async with answering(redis_url) as worker:
        await worker.answer(warm)
        with tracing():
            for count in traced:
                await worker.answer(count)
                await worker.settle()
                held.append(held_by_us())
    return held


@asynccontextmanager
async def answering(redis_url: str) -> AsyncIterator[Answering]:
    """A worker answering on Discord, its state in ``redis_url`` (a namespace of its own)."""
    namespace = f"memory-{uuid.uuid4().hex}"
    async with (
        DiscordSim(buckets=False, ack_deadline=PATIENCE) as sim,
        UpstreamSim(default=CITED).running() as upstream,
        FailOpenState(open_state(redis_url, namespace=namespace), timeout=2) as state,
    ):
        discord.http.Route.BASE = sim.base_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sim.gateway_url)
        async with running_harness(
            sim,
            upstream,
            state=state,
            limits=Limits(questions_per_minute=10**6),
            max_in_flight=BATCH,
            pacer=Pacer(min_interval=0.0),
            sync=False,
        ) as harness:
            yield Answering(sim, upstream, harness)
