"""Every way into the Slack app (a mention, a DM, a related-question click, a feedback click)
passes one allowlist check and is claimed once, whichever and however many workers get it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.admission import Admission
from bot.service import AnswerService
from bot.state import open_state
from bot.upstream.client import AnswerClient, RetryPolicy
from tests.integrations.slack.conftest import World, running_slack, slack_settings
from tests.sim.slack import Message, SlackSim
from tests.sim.upstream import UpstreamSim, answer

CHANNEL = "C0GENERAL"
REFUSAL = "citebot is not enabled here. Please ask in a channel where it is allowed."
PRAYER = answer(["Prayer lifts the heart."], related=["How should I pray?"])


@asynccontextmanager
async def world(**settings: str) -> AsyncIterator[World]:
    async with SlackSim() as sim, UpstreamSim().running() as upstream:
        yield World(
            sim=sim,
            upstream=upstream,
            settings=slack_settings(sim, upstream, **settings),
            client=AnswerClient(
                base_url=upstream.base_url,
                api_key=None,
                model="m",
                retry=RetryPolicy(max_retries=0),
            ),
        )


def with_button(world: World, asked_ts: str, action_id: str) -> Message:
    [message] = [
        m
        for m in world.sim.bot_replies(CHANNEL, asked_ts)
        if any(e["action_id"] == action_id for e in m.elements())
    ]
    return message


async def earlier_answer(world: World) -> str:
    """An answer with its buttons, from before the allowlist left this channel out."""
    world.upstream.queue(PRAYER)
    async with running_slack(world.settings, world.client):
        await world.sim.wait_connections(1)
        asked = await world.sim.mention(CHANNEL, "What is prayer?")
        await world.answered(CHANNEL, asked.ts)
    return asked.ts


async def test_buttons_in_a_channel_no_longer_allowed_are_refused_privately() -> None:
    async with world() as w, w.client:
        asked_ts = await earlier_answer(w)
        narrowed = w.settings.with_slack(channel_allowlist=("C0ELSEWHERE",))
        async with running_slack(narrowed, w.client):
            await w.sim.wait_connections(1)
            feedback = with_button(w, asked_ts, "citebot_feedback")
            await w.sim.acked(
                await w.sim.click(
                    "citebot_feedback", channel=CHANNEL, message_ts=feedback.ts, user="U0BOB"
                )
            )
            await w.sim.wait_for(lambda: w.sim.ephemerals("U0BOB"))
            related = with_button(w, asked_ts, "citebot_related_0")
            await w.sim.acked(
                await w.sim.click(
                    "citebot_related_0", channel=CHANNEL, message_ts=related.ts, user="U0BOB"
                )
            )
            await w.answered(CHANNEL, asked_ts)
    [refused] = w.sim.ephemerals("U0BOB")
    assert refused.shown == REFUSAL  # not "Thank you for the feedback!": no vote was kept
    assert w.sim.bot_replies(CHANNEL, asked_ts)[-1].shown == REFUSAL
    assert len(w.upstream.requests) == 1  # the related question was not asked


async def test_a_dm_is_answered_whatever_the_channel_allowlist() -> None:
    async with world(SLACK_CHANNEL_ALLOWLIST="C0ELSEWHERE") as w, w.client:
        w.upstream.queue(answer(["In private."]))
        async with running_slack(w.settings, w.client):
            await w.sim.wait_connections(1)
            asked = await w.sim.dm("Just between us?")
            await w.answered(asked.channel, asked.ts)
        assert [m.shown for m in w.answer_of(asked.channel, asked.ts)] == ["In private."]


async def test_a_click_delivered_to_every_worker_is_answered_once() -> None:
    async with world() as w, w.client, open_state("memory://") as state:
        w.upstream.queue(PRAYER, answer(["Simply and often."]))
        service = AnswerService(client=w.client, state=state, admission=Admission(max_in_flight=4))
        async with (
            running_slack(w.settings, w.client, service=service),
            running_slack(w.settings, w.client, service=service),
        ):
            await w.sim.wait_connections(2)
            asked = await w.sim.mention(CHANNEL, "What is prayer?")
            await w.answered(CHANNEL, asked.ts)
            related = with_button(w, asked.ts, "citebot_related_0")
            click = await w.sim.click(
                "citebot_related_0", channel=CHANNEL, message_ts=related.ts, to_all=True
            )
            await w.sim.acked(click)
            await w.answered(CHANNEL, asked.ts, requests=2)
        assert len(click.envelope_ids) == 2
        assert len(w.upstream.requests) == 2  # the question, then the click: once
        assert [m.shown for m in w.answer_of(CHANNEL, asked.ts)][-1] == "Simply and often."
        assert sum(m.shown == "Simply and often." for m in w.answer_of(CHANNEL, asked.ts)) == 1
