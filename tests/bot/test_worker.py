"""``citebot run`` as deployed: worker processes on one Redis, against the simulators."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import signal
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.patience import PATIENCE
from tests.sim.redis_server import free_port
from tests.sim.slack import SlackSim
from tests.sim.upstream import Gate, Stream, UpstreamSim, answer, chunk, magisterium_citation

HOPE = answer(
    ["Hope is ", "a theological ", "virtue[^1]."],
    [magisterium_citation(0, "Hope is the theological virtue.", title="Catechism")],
)


@dataclass
class Worker:
    process: asyncio.subprocess.Process
    metrics_port: int

    async def metric(self, name: str, labels: str) -> float:
        """One sample of the worker's ``/metrics``, as Prometheus scrapes it."""
        async with httpx.AsyncClient() as http:
            text = (await http.get(f"http://127.0.0.1:{self.metrics_port}/metrics")).text
        for line in text.splitlines():
            if line.startswith(f"{name}{{{labels}}} "):
                return float(line.rsplit(" ", 1)[1])
        return 0.0

    async def stop(self, *, within: float = 25.0) -> tuple[int, float, str]:
        """SIGTERM, as the platform sends it; the exit code, the seconds it took, its log."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(self.process.communicate(), within)
        assert self.process.returncode is not None
        return self.process.returncode, time.monotonic() - started, stderr.decode()


async def dedup_hits(running: list[Worker], *, expected: int, within: float = PATIENCE) -> float:
    """The workers' dropped duplicates, once they reach ``expected`` (acks precede handling)."""
    deadline = time.monotonic() + within
    while True:
        total = sum(
            [
                await worker.metric("citebot_dedup_hits_total", 'platform="slack"')
                for worker in running
            ]
        )
        if total >= expected or time.monotonic() > deadline:
            return total
        await asyncio.sleep(0.05)


def answer_lines(log: str) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    return [line for line in lines if line.get("message") == "answer"]


def past_thinking(sim: SlackSim, channel: str, ts: str) -> bool:
    """The thread holds the bot's first reply (the answer's first text or a refusal; while it
    thinks, the thread shows only its status): the question has got as far as the upstream,
    or been turned away."""
    return bool(sim.bot_replies(channel, ts))


def worker_env(
    sim: SlackSim, upstream: UpstreamSim, state_url: str | None, **extra: str
) -> dict[str, str]:
    """A worker's environment on the simulators; ``state_url`` None leaves ``STATE_URL`` unset
    (the embedded store in the user's data directory: give an ``XDG_DATA_HOME``)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("UPSTREAM_", "MAGISTERIUM_", "DISCORD_", "SLACK_", "STATE_URL"))
    }
    env.update(
        {
            "SLACK_BOT_TOKEN": sim.bot_token,
            "SLACK_APP_TOKEN": sim.app_token,
            "SLACK_API_BASE_URL": sim.base_url,
            "UPSTREAM_BASE_URL": upstream.base_url,
            "UPSTREAM_API_KEY": "sk-test",
            "QUOTE_CHECK": "off",  # the simulated citations name pages on the internet
            **({} if state_url is None else {"STATE_URL": state_url}),
            **extra,
        }
    )
    return env


@asynccontextmanager
async def workers(
    count: int, sim: SlackSim, upstream: UpstreamSim, state_url: str | None, **extra: str
) -> AsyncIterator[list[Worker]]:
    """``count`` worker processes, each its own ``METRICS_PORT`` (unless ``extra`` names one),
    connected to Slack's Socket Mode (unless ``extra`` blanks the app token: HTTP mode)."""
    env = worker_env(sim, upstream, state_url, **extra)
    ports = [int(extra.get("METRICS_PORT") or free_port()) for _ in range(count)]
    started = [
        Worker(
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                "run",
                env={**env, "METRICS_PORT": str(port)},
                cwd=tempfile.gettempdir(),
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            ),
            port,
        )
        for port in ports
    ]
    try:
        if env["SLACK_APP_TOKEN"]:
            await sim.wait_connections(count)
        yield started
    finally:
        for worker in started:
            if worker.process.returncode is None:
                worker.process.kill()
                await worker.process.communicate()


@pytest.fixture
async def world() -> AsyncIterator[tuple[SlackSim, UpstreamSim]]:
    async with AsyncExitStack() as stack:
        sim = await stack.enter_async_context(SlackSim())
        upstream = await stack.enter_async_context(UpstreamSim(default=HOPE).running())
        yield sim, upstream


async def test_an_event_delivered_to_two_workers_and_redelivered_is_answered_once(
    world: tuple[SlackSim, UpstreamSim], fresh_redis: str
) -> None:
    sim, upstream = world
    async with workers(2, sim, upstream, fresh_redis) as both:
        delivery = await sim.mention("C1", "What is hope?", to_all=True)
        await sim.wait_for(lambda: any(m.blocks for m in sim.bot_replies("C1", delivery.ts)))
        again = await sim.redeliver(delivery, to_all=True)
        await sim.acked(again)
        dropped = await dedup_hits(both, expected=3)
        logs = [await worker.stop() for worker in both]
    assert dropped == 3  # the copy to the second worker, and both copies of the retry
    assert len(upstream.requests) == 1
    answers = [m for m in sim.bot_replies("C1", delivery.ts) if not m.blocks]
    assert [m.shown for m in answers] == [
        "Hope is a theological virtue[¹](https://example.org/doc/1)."
    ]
    (line,) = [line for _, _, log in logs for line in answer_lines(log)]
    assert line["platform"] == "slack"
    assert line["outcome"] == "answered"
    assert line["citations"] == 1
    assert line["characters"] == len("Hope is a theological virtue[^1].")
    assert line["first_token_seconds"] is not None
    assert line["done_seconds"] >= line["first_text_seconds"]
    assert not any("sk-test" in log or sim.bot_token in log for _, _, log in logs)


async def test_the_per_user_limit_is_shared_across_workers(
    world: tuple[SlackSim, UpstreamSim], fresh_redis: str
) -> None:
    sim, upstream = world
    async with workers(2, sim, upstream, fresh_redis, RATE_LIMIT_PER_MINUTE="2") as both:
        asked = []
        for n in range(3):  # to the workers in turn
            asked.append(await sim.mention(f"C{n}", f"Question {n}?", user="U_SAME", via=n % 2))
            await sim.wait_for(functools.partial(past_thinking, sim, f"C{n}", asked[n].ts))
        refused = sim.bot_replies("C2", asked[2].ts)
        for worker in both:
            await worker.stop()
    assert len(upstream.requests) == 2
    assert "You have asked a lot of questions in a short time" in refused[-1].shown


async def test_sigterm_mid_answer_closes_it_with_a_note_and_exits_0(
    world: tuple[SlackSim, UpstreamSim],
) -> None:
    sim, upstream = world
    upstream.queue(Stream((chunk("The first half of the answer"), Gate())))
    async with workers(1, sim, upstream, "memory://", SHUTDOWN_GRACE_SECONDS="1") as (worker,):
        delivery = await sim.mention("C1", "A long question?")
        await sim.wait_for(  # the first text, where the status said "thinking"
            lambda: any("first half" in m.shown for m in sim.bot_replies("C1", delivery.ts)),
        )
        code, seconds, log = await worker.stop()
    assert code == 0
    assert seconds < 25
    (shown,) = sim.bot_replies("C1", delivery.ts)
    assert shown.shown.startswith("The first half of the answer")
    assert "interrupted" in shown.shown
    assert not shown.streaming  # nothing is left mid-stream
    assert [line["outcome"] for line in answer_lines(log)] == ["interrupted"]
    assert "STATE_URL=memory:// keeps settings" in log  # and says nothing will survive it


async def test_slack_over_http_and_the_probes_share_one_port(
    world: tuple[SlackSim, UpstreamSim],
) -> None:
    """``PORT`` and ``METRICS_PORT`` name one port: the worker's one HTTP way in serves Slack's
    signed events and the probes on one site (two servers on one port could not both bind)."""
    sim, upstream = world
    port = free_port()
    sim.http_target = (f"http://127.0.0.1:{port}/slack/events", "sim-secret")
    one_port = {"SLACK_APP_TOKEN": "", "SLACK_SIGNING_SECRET": "sim-secret", "PORT": str(port)}
    async with (
        workers(1, sim, upstream, "memory://", METRICS_PORT=str(port), **one_port) as (worker,),
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
    ):
        deadline = time.monotonic() + 30
        while not await _ready(http):  # the worker starts, then Slack's route is up
            assert time.monotonic() < deadline, "the worker never said it was ready"
            await asyncio.sleep(0.1)
        delivery = await sim.mention("C1", "Over one port?")
        await sim.wait_for(
            lambda: any(m.blocks for m in sim.bot_replies("C1", delivery.ts)), within=20
        )
        assert (await http.get("/healthz")).json() == {"status": "ok"}
        assert (await http.get("/slack/events")).status_code == 405  # Slack's route: POST only
        assert (await http.get("/elsewhere")).status_code == 404
        code, _, log = await worker.stop()
    assert code == 0, log
    answers = [m for m in sim.bot_replies("C1", delivery.ts) if not m.blocks]
    assert [m.shown for m in answers] == [
        "Hope is a theological virtue[¹](https://example.org/doc/1)."
    ]


async def _ready(http: httpx.AsyncClient) -> bool:
    try:
        return (await http.get("/readyz")).status_code == 200
    except httpx.TransportError:
        return False
