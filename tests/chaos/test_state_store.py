"""``redis-server`` killed mid-answer and started again, under the bots as deployed
(``STATE_URL=redis://…``): the answer in flight finishes, questions asked during the outage
are answered (no "citebot is thinking…" left forever, no mention left unanswered), and once
Redis is back the bots use it again by themselves (a follow-up remembers its thread)."""

from __future__ import annotations

import asyncio

from bot.upstream.client import AnswerClient, RetryPolicy
from config import load_settings
from integrations.discord.settings import DiscordSettings
from tests.chaos.bots import discord_bot
from tests.integrations.slack.conftest import World, running_slack, slack_settings
from tests.sim.discord import DiscordSim
from tests.sim.redis_server import RedisProcess
from tests.sim.slack import SlackSim
from tests.sim.upstream import Gate, Stream, UpstreamSim, answer, chunk, magisterium_citation

OUTAGE = {"STATE_TIMEOUT_SECONDS": "0.5"}
CITATION = magisterium_citation(0, "Hope is the theological virtue.", title="Catechism")
HELD = Stream(
    (
        chunk("Hope is a theological "),
        Gate(),
        chunk("virtue[^1]."),
        chunk(finish_reason="stop", citations=[CITATION]),
    )
)
PAUSE_AFTER_A_FAILURE = 2.1
"""bot.state.failopen.PAUSE, and a little: the store is tried again after it."""


def client_for(upstream: UpstreamSim) -> AnswerClient:
    return AnswerClient(
        base_url=upstream.base_url,
        api_key=None,
        model="magisterium-1",
        retry=RetryPolicy(max_retries=0),
    )


async def test_discord_answers_through_a_redis_outage_and_remembers_again_after_it(
    sim: DiscordSim, upstream: UpstreamSim, redis_process: RedisProcess
) -> None:
    variables = {
        "DISCORD_TOKEN": sim.token,
        "DISCORD_API_BASE_URL": sim.base_url,
        "UPSTREAM_BASE_URL": upstream.base_url,
        "STATE_URL": redis_process.url,
        **OUTAGE,
    }
    settings = load_settings(variables, env_file=None)
    discord = DiscordSettings.load(variables, env_file=None)
    upstream.queue(HELD, answer(["Asked in the outage."]), answer(["Mentioned in the outage."]))
    upstream.queue(answer(["After it[^1]."], [CITATION]), answer(["Remembered."]))
    async with client_for(upstream) as client, discord_bot(settings, discord, client):
        first = await sim.slash_command("ask", {"question": "What is hope?"})
        await sim.until(lambda: first.original is not None and "Hope is" in first.original.content)
        redis_process.kill()
        upstream.release()
        assert first.original is not None
        first_id = first.original.id
        await sim.until(lambda: len(sim.thread_messages(first_id)) > 0)
        thread = sim.thread_of(first_id)
        assert thread is not None

        during = await sim.slash_command("ask", {"question": "And now?"}, channel_id=thread.id)
        await sim.until(lambda: "Asked in the outage." in getattr(during.original, "content", ""))
        await sim.user_message(thread.id, f"<@{sim.bot.id}> still there?", mentions=[sim.bot.id])
        await sim.until(lambda: "Mentioned in the outage." in thread.messages[-1].content)

        redis_process.start()
        await asyncio.sleep(PAUSE_AFTER_A_FAILURE)
        after = await sim.slash_command("ask", {"question": "Back?"})
        await sim.until(lambda: "After it" in getattr(after.original, "content", ""))
        assert after.original is not None
        after_id = after.original.id
        await sim.until(lambda: len(sim.thread_messages(after_id)) > 0)
        follow_thread = sim.thread_of(after_id)
        assert follow_thread is not None
        follow = await sim.slash_command(
            "ask", {"question": "Remember?"}, channel_id=follow_thread.id
        )
        await sim.until(lambda: "Remembered." in getattr(follow.original, "content", ""))

    assert (
        first.original.content.startswith(
            "Hope is a theological virtue[¹](<https://example.org/doc/1>)"
        )
        or "https://example.org/doc/1" in first.original.content
    )
    assert not any(m.loading for m in sim.messages.values())  # nothing left "thinking…"
    assert upstream.questions[-1] == [
        {"role": "user", "content": "Back?"},
        {"role": "assistant", "content": "After it[^1]."},
        {"role": "user", "content": "Remember?"},
    ]


async def test_slack_answers_through_a_redis_outage_and_remembers_again_after_it(
    redis_process: RedisProcess,
) -> None:
    async with SlackSim() as sim, UpstreamSim().running() as upstream:
        settings = slack_settings(sim, upstream, STATE_URL=redis_process.url, **OUTAGE)
        upstream.queue(HELD, answer(["Asked in the outage."]))
        upstream.queue(answer(["After it."]), answer(["Remembered."]))
        async with client_for(upstream) as client, running_slack(settings, client):
            world = World(sim=sim, upstream=upstream, settings=settings, client=client)
            await sim.wait_connections(1)
            first = await sim.mention("C0GENERAL", "What is hope?")
            await sim.wait_for(lambda: world.answer_of("C0GENERAL", first.ts))
            redis_process.kill()
            upstream.release()
            await world.answered("C0GENERAL", first.ts)

            during = await sim.mention("C0GENERAL", "And now?")  # dedup and limits fail open
            await world.answered("C0GENERAL", during.ts, requests=2)

            redis_process.start()
            await asyncio.sleep(PAUSE_AFTER_A_FAILURE)
            after = await sim.mention("C0OTHER", "Back?")
            await world.answered("C0OTHER", after.ts, requests=3)
            follow = await sim.mention("C0OTHER", "Remember?", thread_ts=after.ts)
            await world.answered("C0OTHER", after.ts, requests=4)

        (answered,) = world.answer_of("C0GENERAL", first.ts)
        assert answered.shown == "Hope is a theological virtue[¹](https://example.org/doc/1)."
        assert [m.shown for m in world.answer_of("C0GENERAL", during.ts)] == [
            "Asked in the outage."
        ]
        assert world.answer_of("C0OTHER", after.ts)[-1].shown == "Remembered."
        assert follow.thread_ts == after.ts
        assert upstream.questions[-1][:2] == [
            {"role": "user", "content": "Back?"},
            {"role": "assistant", "content": "After it."},
        ]
