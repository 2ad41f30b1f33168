"""Every way into the Discord bot: ``/ask`` in a channel, in its thread and in a DM, a mention
in its thread, a button. Each passes the one allowlist check (a thread judged by its parent
channel), each is claimed once however many workers receive it, and what comes from a
private answer stays private."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.state import open_state
from bot.state.failopen import FailOpenState
from tests.integrations.discord.harness import RecordingService, running_harness
from tests.patience import PATIENCE
from tests.sim.discord import DiscordSim
from tests.sim.discord.model import EPHEMERAL
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

REFUSAL = "citebot is not enabled here. Please ask in a channel where it is allowed."
GRACE = answer(
    ["Grace is a gift of God[^1]."],
    [magisterium_citation(0, "Grace is favor.", url="https://example.org/ccc/1996")],
    related=["What is sanctifying grace?"],
)


def related_buttons(question: str) -> dict[str, Any]:
    return {
        "content": "**Related questions**",
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 2, "label": question, "custom_id": "citebot:related:0"}
                ],
            }
        ],
    }


async def test_ask_in_the_bot_s_thread_is_judged_by_its_parent_channel(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    upstream.queue(GRACE, answer(["It lasts."]))
    env = {"DISCORD_CHANNEL_ALLOWLIST": str(sim.text.id)}
    async with running_harness(sim, upstream, env=env) as harness:
        message = await harness.ask("What is grace?")
        thread = harness.sim.thread_of(message.id)
        assert thread is not None
        follow = await harness.ask("Is it lasting?", channel_id=thread.id)
    assert "It lasts." in follow.content  # not refused: the thread is in an allowed channel
    assert len(upstream.requests) == 2


async def test_a_mention_in_a_thread_of_a_channel_not_allowed_is_refused(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    elsewhere = sim.add_thread(sim.no_threads, "an old answer", owner=sim.bot)
    env = {"DISCORD_CHANNEL_ALLOWLIST": str(sim.text.id)}
    async with running_harness(sim, upstream, env=env):
        await sim.user_message(elsewhere.id, f"<@{sim.bot.id}> and this?", mentions=[sim.bot.id])
        await sim.until(lambda: sim.channel_messages(elsewhere.id)[-1].author.id == sim.bot.id)
    reply = sim.channel_messages(elsewhere.id)[-1]
    assert reply.author.id == sim.bot.id
    assert reply.content == REFUSAL
    assert upstream.requests == []


async def test_a_button_in_a_channel_not_allowed_is_refused_privately(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    elsewhere = sim.add_thread(sim.no_threads, "an old answer", owner=sim.bot)
    buttons = sim.add_message(elsewhere, sim.bot, related_buttons("What is hope?"))
    env = {"DISCORD_CHANNEL_ALLOWLIST": str(sim.text.id)}
    async with running_harness(sim, upstream, env=env):
        click = await sim.click_button(buttons.id, "citebot:related:0")
        await sim.until(lambda: click.original is not None)
    assert click.original is not None
    assert click.ephemeral
    assert click.original.content == REFUSAL
    assert upstream.requests == []


async def test_ask_in_a_dm_passes_the_same_check(sim: DiscordSim, upstream: UpstreamSim) -> None:
    env = {"DISCORD_GUILD_ALLOWLIST": str(sim.guild_id)}
    async with running_harness(sim, upstream, env=env):
        interaction = await sim.slash_command("ask", {"question": "Hi?"}, channel_id=sim.dm.id)
        await sim.until(lambda: interaction.original is not None)
    assert interaction.original is not None
    assert interaction.original.content == REFUSAL  # a DM is in no allowed guild
    assert upstream.requests == []


async def test_a_related_question_under_a_private_answer_is_answered_privately(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    upstream.queue(answer(["Sanctifying grace stays."]))
    private = sim.add_message(
        sim.text, sim.bot, related_buttons("What is sanctifying grace?"), flags=EPHEMERAL
    )
    async with running_harness(sim, upstream) as harness:
        click = await sim.click_button(private.id, "citebot:related:0")
        await harness.answers(1)
    assert click.acks[0]["type"] == 5
    assert click.acks[0]["data"]["flags"] & EPHEMERAL  # "thinking…" only the asker sees
    assert click.ephemeral
    assert sim.channel_messages(sim.text.id) == []  # nothing public, no thread to start one
    assert sim.requests_to("POST /channels/{channel_id}/messages/{message_id}/threads") == []
    assert upstream.questions[0][-1]["content"] == "What is sanctifying grace?"


@asynccontextmanager
async def two_workers(
    sim: DiscordSim, upstream: UpstreamSim, redis_url: str
) -> AsyncIterator[list[RecordingService]]:
    """Two workers on one Redis, neither given shards: each receives every event."""
    state = FailOpenState(open_state(redis_url, namespace=f"test-{uuid.uuid4().hex}"), timeout=2)
    async with (
        state,
        running_harness(sim, upstream, state=state, sync=False) as first,
        running_harness(sim, upstream, state=state, sync=False) as second,
    ):
        second.service.finished = first.service.finished  # one condition: answers anywhere
        yield [first.service, second.service]


async def test_two_workers_receiving_every_event_answer_each_once_without_a_traceback(
    sim: DiscordSim,
    upstream: UpstreamSim,
    redis_url: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    upstream.queue(GRACE, answer(["It can grow."]))
    with caplog.at_level(logging.INFO):
        async with two_workers(sim, upstream, redis_url) as services:
            assert len(sim.sessions) == 2

            def answered() -> int:
                return sum(len(service.outcomes) for service in services)

            async def until_answered(count: int) -> None:
                finished = services[0].finished
                async with asyncio.timeout(PATIENCE), finished:
                    await finished.wait_for(lambda: answered() >= count)

            interaction = await sim.slash_command("ask", {"question": "What is grace?"})
            await until_answered(1)
            assert interaction.original is not None
            thread = sim.thread_of(interaction.original.id)
            assert thread is not None
            await sim.user_message(
                thread.id, f"<@{sim.bot.id}> can it grow?", mentions=[sim.bot.id]
            )
            await until_answered(2)
            await asyncio.sleep(0.3)  # time for a duplicate to show, were there one
            assert answered() == 2
    assert len(upstream.requests) == 2  # one answer each, not two
    assert len(interaction.acks) == 1
    assert not [r for r in sim.requests if r.status == 400]  # no 40060 "already acknowledged"
    assert len([m for m in thread.messages if "It can grow." in m.content]) == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
