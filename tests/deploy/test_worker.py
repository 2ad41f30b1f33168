"""The image's worker (its default command, ``citebot run``) in podman containers, against the
Discord and upstream simulators and a real Redis on the host's loopback: what a person on
Discord sees, what the probes say, and how it stops."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
import redis.asyncio as aioredis

from tests.deploy.artifacts import version
from tests.deploy.containers import Container, container
from tests.integrations.many_workers import INTERRUPTED
from tests.sim.discord import DiscordSim, SimInteraction
from tests.sim.pages import FOUND
from tests.sim.redis_server import RedisProcess, free_port
from tests.sim.upstream import Gate, Pause, UpstreamSim, answer

STARTED = 60.0
"""Seconds a container may take to connect (a loaded 2-core machine, the suite beside it)."""

# One at a time across xdist's workers (tests/deploy/conftest.py); the time waiting for the turn
# counts against the timeout, so it is the whole group's, not one test's.
pytestmark = [pytest.mark.usefixtures("taking_turns"), pytest.mark.timeout(900)]


def discord_env(sim: DiscordSim, **more: str) -> dict[str, str]:
    return {"DISCORD_TOKEN": sim.token, "DISCORD_API_BASE_URL": sim.base_url, **more}


def cards(sim: DiscordSim, asked: SimInteraction) -> str:
    """The descriptions of the cards in the answer's thread, as they read now."""
    if asked.original is None:
        return ""
    thread = sim.thread_messages(asked.original.id)
    return "\n".join(embed.get("description", "") for card in thread for embed in card.embeds)


def shown(interaction: SimInteraction) -> str:
    """The answer as its asker sees it ("" while Discord shows "thinking…")."""
    original = interaction.original
    return "" if original is None or original.loading else original.content


async def test_the_worker_in_its_container_answers_ask_from_the_demo(
    image: str, tmp_path: Path
) -> None:
    port = free_port()
    async with DiscordSim() as sim:
        env = discord_env(sim, UPSTREAM_BASE_URL="demo", METRICS_PORT=str(port))
        async with container(image, env=env, log=tmp_path / "worker.log") as worker:
            await asyncio.wait_for(sim.connected.wait(), STARTED)
            healthy = await worker.healthcheck()
            ready = await readyz(port)
            asked = await sim.slash_command("ask", {"question": "How do I deploy citebot?"})

            await sim.until(lambda: "citebot run" in shown(asked))
            await sim.until(lambda: FOUND in cards(sim, asked))
            code, _ = await worker.stop(kill_after=30)

    assert worker.messages()[0] == f"citebot {version()} starting: discord"
    assert healthy == 0  # the image's HEALTHCHECK, on the METRICS_PORT given at run time
    assert ready == 200  # Discord connected, the state store answering, not draining
    assert shown(asked).startswith("To deploy citebot, run `citebot run`")
    assert "/corpus/04-deploying" in shown(asked)  # the footnote links to the demo's page
    assert code == 0


async def test_sigterm_lets_the_answer_in_time_finish_and_closes_the_other(
    image: str, tmp_path: Path
) -> None:
    """``podman stop`` (the image's STOPSIGNAL, as ``docker stop`` and Compose send it): the
    answer that can finish within the grace finishes whole, the one that cannot ends with the
    note, and the container exits 0 within ``SHUTDOWN_GRACE_SECONDS`` + 3 s."""
    grace = 4.0
    upstream = UpstreamSim()
    upstream.queue(
        answer(["The long one begins. ", "It never ends in time."], between=[Gate()]),
        answer(["The short one begins. ", "It ends within the grace."], between=[Pause(1.5)]),
    )
    async with DiscordSim() as sim, upstream.running():
        env = discord_env(
            sim,
            UPSTREAM_BASE_URL=upstream.base_url,
            UPSTREAM_API_KEY="sk-test",
            SHUTDOWN_GRACE_SECONDS=f"{grace:g}",
            QUOTE_CHECK="off",
        )
        async with container(image, env=env, log=tmp_path / "worker.log") as worker:
            await asyncio.wait_for(sim.connected.wait(), STARTED)
            long = await sim.slash_command("ask", {"question": "A long one?"})
            await sim.until(lambda: "begins" in shown(long))
            short = await sim.slash_command("ask", {"question": "A short one?"})
            await sim.until(lambda: "begins" in shown(short))
            code, seconds = await worker.stop(kill_after=grace + 30)

    assert code == 0
    assert seconds <= grace + 3
    assert shown(short) == "The short one begins. It ends within the grace."
    long_messages = [m for m in sim.messages.values() if m.interaction is long]
    assert long_messages[0].content.startswith("The long one begins.")
    assert INTERRUPTED in long_messages[-1].content
    assert not any(m.loading for m in sim.messages.values())  # nothing left "thinking…"
    print(f"SIGTERM to exit: {seconds:.1f} s (grace {grace:g} s)")


async def test_two_containers_on_one_redis_answer_one_ask_once(
    image: str, redis_process: RedisProcess, tmp_path: Path
) -> None:
    upstream = UpstreamSim(default=answer(["Answered once, ", "by one of two workers."]))
    async with DiscordSim() as sim, upstream.running():
        env = discord_env(
            sim,
            UPSTREAM_BASE_URL=upstream.base_url,
            UPSTREAM_API_KEY="sk-test",
            STATE_URL=redis_process.url,
            SHUTDOWN_GRACE_SECONDS="2",
            QUOTE_CHECK="off",
        )
        ports = [free_port(), free_port()]  # the host's network is shared, as pods' are not
        async with (
            container(image, env={**env, "METRICS_PORT": str(ports[0])}, log=tmp_path / "1") as one,
            container(image, env={**env, "METRICS_PORT": str(ports[1])}, log=tmp_path / "2") as two,
        ):
            await until_joined(redis_process.url, 2)
            await sim.wait_shards(within=STARTED)
            # the worker running the one shard and the one running none: both ready for work
            ready = [await readyz(port) for port in ports]
            asked = await sim.slash_command("ask", {"question": "Who answers?"})
            await sim.until(lambda: "by one of two workers" in shown(asked))
            await asyncio.sleep(2)  # time for a second answer, were there one
            codes = await asyncio.gather(*(w.stop(kill_after=30) for w in (one, two)))

    assert ready == [200, 200]
    assert shown(asked) == "Answered once, by one of two workers."
    assert len(asked.acks) == 1
    assert len(upstream.requests) == 1
    assert sorted(answers(w) for w in (one, two)) == [0, 1]
    assert [code for code, _ in codes] == [0, 0]


async def until_joined(redis_url: str, count: int) -> None:
    """Until ``count`` workers have said, in Redis, that they run Discord."""
    async with asyncio.timeout(STARTED), aioredis.from_url(redis_url) as redis:
        while True:
            groups = [key async for key in redis.scan_iter("citebot:members:discord:*")]
            if sum([await redis.zcard(key) for key in groups]) >= count:
                return
            await asyncio.sleep(0.2)


async def readyz(port: int) -> int:
    """The status a readiness probe gets from the worker's ``/readyz``, once it settles."""
    async with httpx.AsyncClient() as probe:
        for _ in range(50):
            status = (await probe.get(f"http://127.0.0.1:{port}/readyz")).status_code
            if status == 200:
                break
            await asyncio.sleep(0.2)
    return status


def answers(worker: Container) -> int:
    """How many answers the worker logged (one JSON line each)."""
    return worker.messages().count("answer")
