"""What must hold however slow or hostile things get: acks in time, no secrets in logs, no pings,
nothing left open."""

from __future__ import annotations

import asyncio
import gc
import logging

import discord
import pytest

from integrations.discord.settings import DiscordSettings
from tests.integrations.discord.harness import Harness, running_harness
from tests.patience import PATIENCE
from tests.sim.discord import DiscordSim
from tests.sim.upstream import Gate, UpstreamSim, answer

WEBHOOK_EDIT = "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"


async def test_a_feedback_click_is_acknowledged_while_the_state_is_slow(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness.upstream.queue(answer(["Grace is a gift."]))
    message = await harness.ask("What is grace?")
    state = harness.service.state
    recorded = state.record_feedback
    slow = asyncio.Event()

    async def record_slowly(key: str, user: str, value: str) -> bool:
        await slow.wait()  # a Redis far away, or busy
        return await recorded(key, user, value)

    monkeypatch.setattr(state, "record_feedback", record_slowly)
    click = await harness.sim.click_button(message.id, "citebot:feedback:up")
    ada = harness.sim.admin.id
    down = await harness.sim.click_button(message.id, "citebot:feedback:down", user_id=ada)
    try:
        await harness.sim.until(lambda: click.response_type is not None)
        await harness.sim.until(lambda: down.response_type is not None)
    finally:
        slow.set()
    assert click.acks[0]["data"]["allowed_mentions"] == {"parse": []}
    assert click.original is not None
    assert click.original.ephemeral
    assert down.modal is not None  # 👎 asks why, as quickly
    votes = await harness.votes(f"discord:{message.id}", count=2)
    assert votes == {str(harness.sim.user.id): "up", str(ada): "down"}


async def test_refusals_and_acknowledgements_never_ping(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    env = {"DISCORD_CHANNEL_ALLOWLIST": str(sim.forum.id)}
    async with running_harness(sim, upstream, env=env):
        interaction = await sim.slash_command("ask", {"question": "<@&1> @everyone?"})
        await sim.until(lambda: interaction.original is not None)
    [ack] = interaction.acks
    assert ack["data"]["allowed_mentions"] == {"parse": []}


async def test_a_rate_limited_interaction_edit_never_logs_its_token(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    sim = harness.sim
    harness.upstream.queue(answer(["First words", " and the rest."], between=[Gate()]))
    interaction = await sim.slash_command("ask", {"question": "slow?", "private": False})
    await sim.until(
        lambda: interaction.original is not None and "First words" in interaction.original.content
    )
    sim.rate_limit_next(WEBHOOK_EDIT, 0.1)  # the final edit waits it out and lands
    harness.upstream.release()
    await harness.answers(1)

    assert [r.status for r in sim.requests_to(WEBHOOK_EDIT)][-2:] == [429, 200]
    ours = "\n".join(
        r.getMessage() for r in caplog.records if not r.name.startswith("aiohttp.access")
    )  # the simulator's own log
    assert "rate limited" in ours
    assert interaction.token not in ours
    assert sim.token not in ours


async def test_a_refused_login_closes_everything_it_opened(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    with pytest.raises(discord.LoginFailure):
        async with running_harness(sim, upstream, env={"DISCORD_TOKEN": "not-the-token"}):
            pass
    gc.collect()  # an unclosed aiohttp session warns (an error here) when collected


async def test_cancelling_the_runner_closes_the_client(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    """The worker cancels the runner on SIGTERM; the gateway is closed and nothing leaks."""
    from integrations.discord.run import run_discord

    async with running_harness(sim, upstream) as harness:
        ready = asyncio.Event()
        environment = harness.kit.environment
        assert isinstance(environment, DiscordSettings)
        runner = asyncio.create_task(
            run_discord(harness.kit, environment, ready, guild_ready_timeout=0.1)
        )
        async with asyncio.timeout(PATIENCE):
            await ready.wait()
        runner.cancel()
        with pytest.raises(asyncio.CancelledError):
            await runner
    assert len(sim.closes) >= 2, "a gateway was left open"
    gc.collect()
