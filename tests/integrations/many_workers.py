"""Several ``citebot run`` processes on one Redis, against the Discord, Slack and upstream
simulators: start them, ask, kill one, and read what each person sees."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import redis.asyncio as aioredis

from tests.integrations.fast_worker import IDENTIFY_SECONDS
from tests.patience import PATIENCE
from tests.sim.discord import DiscordSim, SimInteraction, SimMessage
from tests.sim.discord.gateway import GatewaySession
from tests.sim.slack import Delivery, Message, SlackSim
from tests.sim.upstream import UpstreamSim

ROOT = Path(__file__).resolve().parents[2]
INTERRUPTED = "The answer was interrupted before it finished"


@dataclass
class Worker:
    process: asyncio.subprocess.Process
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace")


@dataclass
class Fleet:
    """The simulators, the worker processes, and what was asked of them."""

    discord: DiscordSim
    slack: SlackSim
    upstream: UpstreamSim
    state_url: str
    workdir: Path
    command: tuple[str, ...] = ("-m", "tests.integrations.fast_worker")
    """The worker: ``citebot run`` with shortened clocks (tests); ``-m bot run`` as deployed."""
    workers: list[Worker] = field(default_factory=list)
    asked: dict[str, SimInteraction] = field(default_factory=dict)
    mentioned: dict[str, Delivery] = field(default_factory=dict)

    async def start(self, count: int, **env: str) -> list[Worker]:
        started = [await self._spawn(env) for _ in range(count)]
        self.workers += started
        return started

    async def _spawn(self, extra: dict[str, str]) -> Worker:
        return await spawn_worker(
            self.command,
            {
                "DISCORD_TOKEN": self.discord.token,
                "DISCORD_API_BASE_URL": self.discord.base_url,
                "SLACK_BOT_TOKEN": self.slack.bot_token,
                "SLACK_APP_TOKEN": self.slack.app_token,
                "SLACK_API_BASE_URL": self.slack.base_url,
                "UPSTREAM_BASE_URL": self.upstream.base_url,
                "UPSTREAM_API_KEY": "sk-test",
                "STATE_URL": self.state_url,
                "SHUTDOWN_GRACE_SECONDS": "2",
                **extra,
            },
            workdir=self.workdir,
        )

    async def kill(self, worker: Worker) -> float:
        """SIGKILL, as an out-of-memory killer or a lost host would; when it was sent."""
        killed_at = time.monotonic()
        worker.process.send_signal(signal.SIGKILL)
        await worker.process.wait()
        return killed_at

    async def stop(self, worker: Worker) -> int:
        """SIGTERM, as a platform stops a worker; its exit code."""
        worker.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(worker.process.wait(), PATIENCE)

    # -- questions ----------------------------------------------------------------------------
    async def ask_discord(self, question: str, channel_id: int) -> None:
        self.asked[question] = await self.discord.slash_command(
            "ask", {"question": question}, channel_id=channel_id
        )

    async def ask_slack(self, question: str, channel: str) -> None:
        self.mentioned[question] = await self.slack.mention(channel, question)

    def discord_messages(self, question: str) -> list[SimMessage]:
        """What the asker sees of the answer: the response, then any followups."""
        interaction = self.asked[question]
        return [m for m in self.discord.messages.values() if m.interaction is interaction]

    def slack_messages(self, question: str) -> list[Message]:
        """What the asker sees of the answer in the thread (the cards that follow left out)."""
        delivery = self.mentioned[question]
        replies = self.slack.bot_replies(delivery.channel, delivery.ts)
        return [m for m in replies if m.streamed or not m.blocks]

    def slack_connection(self, question: str) -> int:
        (envelope,) = self.mentioned[question].envelope_ids
        return self.slack.sent_to[envelope]

    # -- the shards ---------------------------------------------------------------------------
    def identified(self) -> Counter[int]:
        """How many times each shard identified."""
        return Counter(int(data["shard"][0]) for data in self.discord.identifies)

    def overlaps(self) -> list[tuple[GatewaySession, GatewaySession]]:
        """Sessions that ran one shard at the same time (both got its events)."""
        by_shard: dict[int, list[GatewaySession]] = {}
        for session in self.discord.session_log:
            by_shard.setdefault(session.shard[0], []).append(session)
        found = []
        for sessions in by_shard.values():
            ordered = sorted(sessions, key=lambda s: s.identified_at)
            for earlier, later in itertools.pairwise(ordered):
                if earlier.closed_at is None or earlier.closed_at > later.identified_at:
                    found.append((earlier, later))
        return found

    async def held_by_the_gone(self, redis_url: str) -> list[str]:
        """The shard leases held by a worker that is no longer among the live workers."""
        live, held = await self._leases(redis_url)
        return [lease for lease, holder in held.items() if holder not in live]

    async def shared_by(self, redis_url: str, workers: int) -> None:
        """Wait until ``workers`` live workers hold their fair shares of the shards (as
        ``bot.shares`` counts them, by their sorted names) and every shard runs. Workers that
        join after the others settled (processes started seconds apart on a loaded machine)
        take their parts from them, so a test counts what happens from here."""
        deadline = time.monotonic() + PATIENCE
        while not await self._fair(redis_url, workers):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the shards were never shared by {workers} workers")
            await asyncio.sleep(0.1)
        await self.discord.wait_shards()

    async def _fair(self, redis_url: str, workers: int) -> bool:
        live, held = await self._leases(redis_url)
        members = sorted(live)
        if len(members) != workers or len(held) != self.discord.shards:
            return False
        count = self.discord.shards
        fair = [count // workers + (index < count % workers) for index in range(workers)]
        holding = Counter(held.values())
        return [holding[member] for member in members] == fair

    async def _leases(self, redis_url: str) -> tuple[set[str], dict[str, str]]:
        """The live workers, and each shard lease with the worker holding it."""
        async with aioredis.from_url(redis_url, decode_responses=True) as redis:
            (members,) = [k async for k in redis.scan_iter("citebot:members:discord:*")]
            live = {str(member) for member in await redis.zrange(members, 0, -1)}
            leases = [k async for k in redis.scan_iter("citebot:lease:discord:*:shard:*")]
            holders = await redis.mget(leases) if leases else []
        held = {lease: str(holder) for lease, holder in zip(leases, holders, strict=True) if holder}
        return live, held

    def shards_closed_since(self, moment: float) -> set[int]:
        return {
            s.shard[0]
            for s in self.discord.session_log
            if s.closed_at is not None and s.closed_at >= moment
        }


PLATFORM_SETTINGS = ("UPSTREAM_", "MAGISTERIUM_", "DISCORD_", "SLACK_", "TELEGRAM_")
"""The machine's own settings a test worker must not inherit: it would start a platform on the
real one, or ask the real upstream."""


async def spawn_worker(command: tuple[str, ...], env: dict[str, str], *, workdir: Path) -> Worker:
    """A worker process (``python COMMAND``) with the machine's environment less its platform
    and upstream settings, plus ``env``; its output goes to a log of its own in ``workdir``."""
    inherited = {k: v for k, v in os.environ.items() if not k.startswith(PLATFORM_SETTINGS)}
    log = workdir / f"worker-{time.monotonic_ns()}.log"
    with log.open("wb") as out:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *command,
            env={**inherited, "PYTHONPATH": str(ROOT), **env},
            cwd=workdir,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=out,
            stderr=out,
        )
    return Worker(process, log)


async def kill_all(workers: list[Worker]) -> None:
    """SIGKILL every worker still running (a test's way out, whatever happened in it)."""
    for worker in workers:
        if worker.process.returncode is None:
            worker.process.kill()
            await worker.process.wait()


async def until(predicate: Callable[[], object], *, within: float = PATIENCE) -> None:
    """Poll ``predicate`` (the simulators change state without telling this loop)."""
    deadline = time.monotonic() + within
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the world never reached the awaited state")
        await asyncio.sleep(0.05)


@asynccontextmanager
async def fleet(
    state_url: str,
    upstream: UpstreamSim,
    *,
    shards: int,
    max_concurrency: int,
    identify_seconds: float = IDENTIFY_SECONDS,
    command: tuple[str, ...] = Fleet.command,
) -> AsyncIterator[Fleet]:
    """The simulators up, workers started with :meth:`Fleet.start` and killed on the way out
    (``command`` and ``identify_seconds``: the deployed worker and Discord's real limit, for
    benches)."""
    async with AsyncExitStack() as stack:
        discord = await stack.enter_async_context(
            DiscordSim(
                shards=shards, max_concurrency=max_concurrency, identify_seconds=identify_seconds
            )
        )
        slack = await stack.enter_async_context(SlackSim())
        await stack.enter_async_context(upstream.running())
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="citebot-fleet-")))
        running = Fleet(discord, slack, upstream, state_url, workdir, command)
        try:
            yield running
        finally:
            await kill_all(running.workers)
