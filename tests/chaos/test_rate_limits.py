"""A 429 storm: the platform refuses a run of writes of every kind while several answers
stream. Every person still sees their whole answer, linked, with its cards; the 429s are
counted for the operator."""

from __future__ import annotations

import asyncio

from bot.pacing import Pacer
from tests.integrations.discord.harness import running_harness
from tests.integrations.slack.conftest import slack_world
from tests.sim.discord import DiscordSim
from tests.sim.upstream import Stream, UpstreamSim, answer, magisterium_citation

ANSWERS = 6
STORM = [
    ("PATCH /webhooks/{application_id}/{token}/messages/{message_id}", 8),  # answer edits
    ("POST /channels/{channel_id}/messages/{message_id}/threads", 3),  # threads on answers
    ("POST /channels/{channel_id}/messages", 4),  # cards in the threads
]


def cited(n: int) -> Stream:
    return answer(
        [f"Answer {n} ", "is written ", "in several ", "pieces[^1]."],
        [magisterium_citation(0, f"Source of answer {n}.", title=f"Document {n}")],
    )


async def test_discord_answers_through_a_429_storm(sim: DiscordSim, upstream: UpstreamSim) -> None:
    channels = [sim.add_text_channel(f"storm-{n}") for n in range(ANSWERS)]
    upstream.queue(*(cited(n) for n in range(ANSWERS)))
    sim.rate_limit_next(
        "PATCH /webhooks/{application_id}/{token}/messages/{message_id}", 0.2, count=8
    )
    sim.rate_limit_next("POST /webhooks/{application_id}/{token}", 0.2, count=3)
    sim.rate_limit_next("POST /channels/{channel_id}/messages/{message_id}/threads", 0.2, count=3)
    sim.rate_limit_next("POST /channels/{channel_id}/messages", 0.2, count=4)
    async with running_harness(sim, upstream, pacer=Pacer(min_interval=0.3)) as harness:
        asked = [
            await sim.slash_command("ask", {"question": f"Question {n}?"}, channel_id=channel.id)
            for n, channel in enumerate(channels)
        ]
        outcomes = await harness.answers(ANSWERS, within=60)
        limited = harness.service.metrics.platform_429s.labels("discord")._value.get()
    assert [o.status if o else None for o in outcomes] == ["answered"] * ANSWERS
    for n, interaction in enumerate(asked):
        assert interaction.original is not None
        assert interaction.original.content.startswith(f"Answer {n} is written in several pieces")
        assert "https://example.org/doc/1" in interaction.original.content
        cards = sim.thread_messages(interaction.original.id)
        assert [e["title"] for m in cards for e in m.embeds] == [f"Document {n}"]
    assert [count for _, count in STORM] == [
        len([r for r in sim.requests_to(route) if r.status == 429]) for route, _ in STORM
    ]  # every refusal happened, and was waited out or worked around
    assert limited == sum(count for _, count in STORM)


async def test_slack_answers_through_a_429_storm() -> None:
    async with slack_world(ping_interval=0.5) as world:
        sim = world.sim
        world.upstream.queue(*(cited(n) for n in range(3)))
        sim.fail_next("chat.startStream", retry_after=1, times=1)  # then streams pause a while
        sim.fail_next("chat.update", retry_after=1, times=2)
        sim.fail_next("chat.postMessage", retry_after=1, times=2)
        # two in channels (posted and edited) and one in a DM (streamed natively)
        asked = [await sim.mention(f"C0STORM{n}", f"Question {n}?") for n in range(2)]
        asked.append(await sim.dm("Question 2?"))
        for delivery in asked:
            await world.answered(delivery.channel, delivery.ts, requests=3)
        await asyncio.sleep(0)
    answers = []  # the upstream answers in the order it was asked, whichever came first
    for delivery in asked:
        (shown,) = world.answer_of(delivery.channel, delivery.ts)
        answers.append(shown.shown)
        assert not shown.streaming
        assert world.cards_of(delivery.channel, delivery.ts)
    assert sorted(answers) == [
        f"Answer {n} is written in several pieces[¹](https://example.org/doc/1)." for n in range(3)
    ]
    assert sim.ratelimited == {"chat.startStream": 1, "chat.postMessage": 2, "chat.update": 2}
