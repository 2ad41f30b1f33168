"""One capacity run for ``bench.bench_capacity``: the simulators and the load driver in this
process, the worker under test in its own process, each pinned to its own core.

The upstream plays every answer as numbered words (``w0000 w0001 …``) at 50 a second from one
shared timer and keeps the time each word left; the Discord simulator keeps the time each write
arrived. A write's added latency is its arrival minus the send time of the newest word it
carries (pacing holds older words back on purpose; the newest measures the worker's lag).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from tests.sim.discord import DiscordSim
from tests.sim.discord.model import SimInteraction
from tests.sim.upstream import Numbered, UpstreamSim, answer

WORKER_CORE, SIMS_CORE = 0, 1
TOKENS_PER_SECOND = 50.0
RAMP_PER_SECOND = 100.0
"""Questions asked a second while ramping up (interactions must be acknowledged within 3 s)."""
SETTLE_SECONDS = 3.0
"""After the last answer started and before the window: every answer is past its first write."""
WINDOW_SECONDS = 10.0
WARM_UP = 5
FLUSH_GAP = 0.5
"""Seconds: pacing spaces an answer's flushes ≥ 1 s apart, so closer requests are one flush."""
ROOT = Path(__file__).resolve().parent.parent
WORD = re.compile(r"w(\d{4})")
INTERRUPTED = "The answer was interrupted"


@dataclass
class Step:
    """What one run at ``in_flight`` answers measured."""

    transport: str
    in_flight: int
    started: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    worker_cpu: float = 0.0
    """Fraction of the worker's core busy during the window."""
    sims_cpu: float = 0.0
    """Fraction of the simulators' core busy during the window."""
    rss_idle: int = 0
    rss_loaded: int = 0

    @property
    def p95_ms(self) -> float:
        if not self.latencies_ms or self.started < self.in_flight:
            return float("inf")
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]

    @property
    def cpu_ms_per_answer_second(self) -> float:
        return self.worker_cpu * 1000 / self.in_flight


def answer_words(in_flight: int, *, seconds: float | None = None) -> int:
    """Long enough to stay in flight from the first question to the end of the window."""
    lasting = seconds or in_flight / RAMP_PER_SECOND + SETTLE_SECONDS + WINDOW_SECONDS + 5
    return int(lasting * TOKENS_PER_SECOND)


class World:
    """The simulators, the worker process, and the questions asked (one per channel)."""

    def __init__(
        self, sim: DiscordSim, upstream: UpstreamSim, transport: str, channels: int
    ) -> None:
        self.sim = sim
        self.upstream = upstream
        self.transport = transport
        self.channels = [sim.add_text_channel(f"bench-{n}") for n in range(channels)]
        self.asked: dict[str, SimInteraction] = {}
        self.process: asyncio.subprocess.Process | None = None
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed in close())
            prefix="citebot-worker-", suffix=".log", delete=False
        )

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def start_worker(self, **env: str) -> None:
        clean = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("UPSTREAM_", "MAGISTERIUM_", "DISCORD_", "SLACK_"))
        }
        clean.update(
            {
                "PYTHONPATH": str(ROOT),
                "DISCORD_TOKEN": self.sim.token,
                "DISCORD_API_BASE_URL": self.sim.base_url,
                "UPSTREAM_BASE_URL": self.upstream.base_url,
                "UPSTREAM_API_KEY": "sk-bench",
                "MAX_IN_FLIGHT": "100000",
                "RATE_LIMIT_PER_MINUTE": "100000",
                # One worker alone, as the tables were measured: unset, STATE_URL is now the
                # embedded store in the user's data directory, kept from run to run (and its
                # daily counts with it: after a few sweeps the warm-up was refused).
                "STATE_URL": "memory://",
                **env,
            }
        )
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.capacity_worker",
            self.transport,
            env=clean,
            cwd=tempfile.gettempdir(),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self.log,
            stderr=self.log,
            preexec_fn=lambda: os.sched_setaffinity(0, {WORKER_CORE}),
        )
        await self.sim.wait_connected()

    async def ask(self, count: int, *, first: int = 0) -> None:
        """One question per channel, ``RAMP_PER_SECOND`` a second."""
        began = time.monotonic()
        for n in range(first, first + count):
            question = f"q{n}"
            self.asked[question] = await self.sim.slash_command(
                "ask", {"question": question}, channel_id=self.channels[n].id
            )
            ahead = began + (n - first + 1) / RAMP_PER_SECOND - time.monotonic()
            if ahead > 0:
                await asyncio.sleep(ahead)

    async def streaming(self, count: int, *, within: float = 30.0) -> int:
        """Wait until ``count`` numbered answers are streaming; how many are."""
        with contextlib.suppress(TimeoutError):
            await self.sim.until(lambda: len(self.upstream.numbered) >= count, within=within)
        return len(self.upstream.numbered)

    def rss(self) -> int:
        return int(psutil.Process(self.pid).memory_info().rss)

    async def stop_worker(self, *, kill: bool) -> float:
        """SIGKILL (between steps) or SIGTERM (as a platform stops a worker); seconds to exit."""
        if self.process is None or self.process.returncode is not None:
            return 0.0
        began = time.monotonic()
        self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        await self.process.wait()
        return time.monotonic() - began

    def close(self) -> None:
        self.log.close()
        os.unlink(self.log.name)

    # -- what crossed the wire ---------------------------------------------------------------

    def latencies(self, since: float, until: float) -> list[float]:
        """Added latency (ms) of every flush in the window that carried a newer word.

        A flush that outgrows a message is several requests (edit the full message, create the
        next); requests of one answer less than :data:`FLUSH_GAP` apart count as one flush,
        measured when its last request landed, against the newest word in any of them.
        """
        questions = {interaction.token: question for question, interaction in self.asked.items()}
        sent = {stream.question: stream.sent for stream in self.upstream.numbered}
        flushes: dict[str, list[tuple[float, int]]] = {}
        for request in self.sim.requests:
            if (
                request.status != 200
                or not request.path.startswith("/webhooks/")
                or not isinstance(request.json, dict)
                or "content" not in request.json
            ):
                continue
            question = questions.get(request.path.split("/")[3])
            words = [int(w) for w in WORD.findall(request.json["content"] or "")]
            if question is None or not words:
                continue
            writes = flushes.setdefault(question, [])
            if writes and request.at - writes[-1][0] < FLUSH_GAP:
                writes[-1] = (request.at, max(writes[-1][1], *words))
            else:
                writes.append((request.at, max(words)))
        latencies = []
        for question, writes in flushes.items():
            newest = -1
            for at, word in writes:
                if word > newest and since <= at <= until and word < len(sent[question]):
                    latencies.append((at - sent[question][word]) * 1000)
                newest = max(newest, word)
        return latencies

    def left_mid_stream(self) -> int:
        """Answers whose last message neither ends the answer nor carries the interrupted note."""
        left = 0
        finished = {s.question for s in self.upstream.numbered if len(s.sent) >= s.words}
        for question, interaction in self.asked.items():
            messages = [m for m in self.sim.messages.values() if m.interaction is interaction]
            last = messages[-1].content if messages else ""
            if INTERRUPTED not in last and question not in finished:
                left += 1
        return left


@asynccontextmanager
async def world(transport: str, channels: int, *, words: int) -> AsyncIterator[World]:
    """Simulators up with ``channels`` channels and a warmed-up worker connected to them."""
    async with DiscordSim() as sim, UpstreamSim(default=Numbered(words)).running() as upstream:
        running = World(sim, upstream, transport, channels + WARM_UP)
        try:
            upstream.queue(*[answer(["Warm ", "up ", "done."])] * WARM_UP)
            await running.start_worker()
            await warm_up(running, channels)
            yield running
        finally:
            await running.stop_worker(kill=True)
            running.close()


async def warm_up(running: World, first: int) -> None:
    """A few whole answers first, so imports, caches and pools are in place before measuring."""
    await running.ask(WARM_UP, first=first)
    warm = [running.asked[f"q{n}"] for n in range(first, first + WARM_UP)]

    def done() -> bool:
        return all(i.original is not None and "done." in i.original.content for i in warm)

    await running.sim.until(done, within=30)
    for n in range(first, first + WARM_UP):
        del running.asked[f"q{n}"]
    await asyncio.sleep(1.0)


async def run_step(transport: str, in_flight: int) -> Step:
    """``in_flight`` answers at once; the added latency of their writes in a steady window."""
    step = Step(transport=transport, in_flight=in_flight)
    async with world(transport, in_flight, words=answer_words(in_flight)) as running:
        step.rss_idle = running.rss()
        await running.ask(in_flight)
        step.started = await running.streaming(in_flight)
        await asyncio.sleep(SETTLE_SECONDS)
        worker = psutil.Process(running.pid)
        cpu0, own0, since = sum(worker.cpu_times()[:2]), time.process_time(), time.monotonic()
        await asyncio.sleep(WINDOW_SECONDS)
        until = time.monotonic()
        step.worker_cpu = (sum(worker.cpu_times()[:2]) - cpu0) / (until - since)
        step.sims_cpu = (time.process_time() - own0) / (until - since)
        step.rss_loaded = running.rss()
        step.latencies_ms = running.latencies(since, until)
    return step


async def run_shutdown(transport: str, in_flight: int) -> tuple[float, int, int]:
    """``in_flight`` long answers mid-stream, then SIGTERM: seconds to exit, answers left
    mid-stream, the worker's exit code."""
    async with world(transport, in_flight, words=answer_words(0, seconds=60)) as running:
        await running.ask(in_flight)
        await running.streaming(in_flight)
        await asyncio.sleep(SETTLE_SECONDS)
        seconds = await running.stop_worker(kill=False)
        assert running.process is not None
        return seconds, running.left_mid_stream(), running.process.returncode or 0
