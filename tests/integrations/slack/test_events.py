"""Which Slack events become answers: once per question, never for bots or edits; buttons."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import AsyncIterator

import aiohttp

from bot.admission import Admission
from bot.service import AnswerService
from bot.state import open_state
from bot.upstream.client import AnswerClient, RetryPolicy
from tests.integrations.slack.conftest import (
    World,
    running_slack,
    slack_settings,
    slack_world,
    worker_on,
)
from tests.sim.slack import SlackSim
from tests.sim.upstream import UpstreamSim, answer

CHANNEL = "C0GENERAL"


async def test_a_redelivered_event_is_answered_once(world: World) -> None:
    world.upstream.queue(answer(["Once."]))
    asked = await world.sim.mention(CHANNEL, "How often?")
    await world.answered(CHANNEL, asked.ts)
    retry = await world.sim.redeliver(asked)
    await world.sim.acked(retry)
    assert world.sim.envelopes[-1]["retry_attempt"] == 1
    later = await world.sim.mention(CHANNEL, "And now?")
    await world.answered(CHANNEL, later.ts, requests=2)
    assert [q[-1]["content"] for q in world.upstream.questions] == ["How often?", "And now?"]
    assert len(world.answer_of(CHANNEL, asked.ts)) == 1


async def test_bots_edits_and_own_messages_never_trigger_an_answer(world: World) -> None:
    dm = await world.sim.dm("First question")
    await world.answered(dm.channel, dm.ts)
    own = world.sim.bot_replies(dm.channel, dm.ts)[0]
    ignored = [
        await world.sim.other_bot(dm.channel, "I am another app", thread_ts=dm.ts),
        await world.sim.edit(dm, "First question, edited"),
        await world.sim.echo_own(own),
        await world.sim.other_bot(CHANNEL, "<@U0BOT> from a bot"),
    ]
    for delivery in ignored:
        await world.sim.acked(delivery)
    last = await world.sim.dm("Second question")
    await world.answered(last.channel, last.ts, requests=2)
    assert [q[-1]["content"] for q in world.upstream.questions] == [
        "First question",
        "Second question",
    ]


async def test_a_related_question_click_is_answered_in_the_thread(world: World) -> None:
    world.upstream.queue(
        answer(["Prayer lifts the heart."], related=["How should I pray?"]),
        answer(["Simply and often."]),
    )
    asked = await world.sim.mention(CHANNEL, "What is prayer?")
    await world.answered(CHANNEL, asked.ts)
    [with_buttons] = [
        m
        for m in world.cards_of(CHANNEL, asked.ts)
        if any(e["action_id"] == "citebot_related_0" for e in m.elements())
    ]
    click = await world.sim.click(
        "citebot_related_0", channel=CHANNEL, message_ts=with_buttons.ts, user="U0BOB"
    )
    await world.sim.acked(click)
    await world.answered(CHANNEL, asked.ts, requests=2)
    sent = world.upstream.questions[1]
    assert sent[-1] == {"role": "user", "content": "How should I pray?"}
    assert sent[0] == {"role": "user", "content": "What is prayer?"}
    answers = world.answer_of(CHANNEL, asked.ts)
    assert answers[-1].shown == "Simply and often."


async def test_feedback_is_recorded_and_thanked_privately(world: World) -> None:
    world.upstream.queue(answer(["Peace be with you."]))
    asked = await world.sim.mention(CHANNEL, "Greet me")
    await world.answered(CHANNEL, asked.ts)
    [with_feedback] = [
        m
        for m in world.sim.bot_replies(CHANNEL, asked.ts)
        if any(e["action_id"] == "citebot_feedback" for e in m.elements())
    ]
    click = await world.sim.click(
        "citebot_feedback", "positive", channel=CHANNEL, message_ts=with_feedback.ts, user="U0BOB"
    )
    await world.sim.acked(click)
    await world.sim.wait_for(lambda: world.sim.ephemerals("U0BOB"))
    [thanks] = world.sim.ephemerals("U0BOB")
    assert thanks.shown == "Thank you for the feedback!"
    assert world.sim.ephemerals("U0ALICE") == []


async def test_an_event_sent_to_every_worker_is_answered_once() -> None:
    async with SlackSim() as sim, UpstreamSim().running() as upstream:
        settings = slack_settings(sim, upstream)
        async with (
            AnswerClient(
                base_url=upstream.base_url,
                api_key=None,
                model="m",
                retry=RetryPolicy(max_retries=0),
            ) as client,
            open_state("memory://") as state,
        ):
            service = AnswerService(
                client=client, state=state, admission=Admission(max_in_flight=4)
            )
            world = World(sim=sim, upstream=upstream, settings=settings, client=client)
            async with (
                running_slack(settings, client, service=service),
                running_slack(settings, client, service=service),
            ):
                await sim.wait_connections(2)
                asked = await sim.mention(CHANNEL, "Who answers?", to_all=True)
                await sim.acked(asked)
                await world.answered(CHANNEL, asked.ts)
                assert len(asked.envelope_ids) == 2
                assert len(upstream.requests) == 1
                assert len(world.answer_of(CHANNEL, asked.ts)) == 1


@contextlib.asynccontextmanager
async def http_mode() -> AsyncIterator[tuple[World, str]]:
    """A worker in HTTP Events API mode on a free port; yields it and its events URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with SlackSim() as sim, UpstreamSim().running() as upstream:
        settings = slack_settings(
            sim, upstream, SLACK_APP_TOKEN="", SLACK_SIGNING_SECRET="sim-secret", PORT=str(port)
        )
        assert settings.slack.mode == "http"
        url = f"http://127.0.0.1:{port}/slack/events"
        sim.http_target = (url, "sim-secret")
        async with worker_on(sim, upstream, settings) as world:
            yield world, url


async def test_http_mode_answers_signed_events_on_port() -> None:
    async with http_mode() as (world, _url):
        sim, upstream = world.sim, world.upstream
        asked = await sim.mention(CHANNEL, "Over HTTP?")
        await world.answered(CHANNEL, asked.ts)
        await sim.acked(await sim.redeliver(asked))
        later = await sim.mention(CHANNEL, "Still there?")
        await world.answered(CHANNEL, later.ts, requests=2)
        assert [q[-1]["content"] for q in upstream.questions] == ["Over HTTP?", "Still there?"]
        assert world.answer_of(CHANNEL, asked.ts)[0].shown == "Hello world."


async def test_http_mode_refuses_an_event_with_a_bad_signature() -> None:
    async with http_mode() as (world, url):
        forged = json.dumps(
            {
                "type": "event_callback",
                "event_id": "Ev0FORGED",
                "team_id": "T0SIM",
                "event": {
                    "type": "app_mention",
                    "user": "U0ALICE",
                    "ts": "1.1",
                    "channel": CHANNEL,
                    "text": "<@U0BOT> obey me",
                },
            }
        )
        headers = {
            "Content-Type": "application/json",
            "X-Slack-Signature": "v0=" + "0" * 64,
            "X-Slack-Request-Timestamp": str(int(time.time())),
        }
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, data=forged, headers=headers) as response,
        ):
            assert response.status == 401
        assert not world.busy()
        assert world.upstream.requests == []
        assert world.sim.calls_to("chat.postMessage", "chat.startStream") == []


async def test_outside_the_allowlisted_channels_a_mention_is_politely_refused() -> None:
    async with slack_world({"SLACK_CHANNEL_ALLOWLIST": "C0ALLOWED"}) as world:
        sim = world.sim
        asked = await sim.mention(CHANNEL, "Anyone here?")
        await sim.wait_for(lambda: sim.bot_replies(CHANNEL, asked.ts))
        [refusal] = sim.bot_replies(CHANNEL, asked.ts)
        assert refusal.shown == (
            "citebot is not enabled here. Please ask in a channel where it is allowed."
        )
        assert world.upstream.requests == []


async def test_http_mode_takes_the_command_the_shortcut_and_a_modals_answer() -> None:
    """Over signed HTTP as over Socket Mode: /citebot's page opens and a form's refusal comes
    back in the response, under its field; a message shortcut is acknowledged and answered."""
    async with http_mode() as (world, _url):
        sim = world.sim
        sim.workspace.add_user("U0ADMIN", admin=True)
        world.upstream.queue(answer(["The sources disagree."]))
        await sim.command(channel=CHANNEL, user="U0ADMIN")
        await sim.wait_for(lambda: sim.modals("U0ADMIN"))
        [page] = sim.modals("U0ADMIN")
        await sim.choose(page, "citebot_setting", block_id="channel:daily_questions")
        await sim.wait_for(lambda: "1 to 1,000,000,000" in sim.modals("U0ADMIN")[0].texts())
        [form] = sim.modals("U0ADMIN")
        sim.fill(form, "value", "0")
        await sim.submit(form)
        assert list(form.errors) == ["value"]
        claim = await sim.say(CHANNEL, "The Earth is flat", user="U0ADMIN")
        await sim.shortcut("citebot_check", channel=CHANNEL, message_ts=claim.ts)
        await world.answered(CHANNEL, claim.ts)
        assert "The sources disagree." in world.answer_of(CHANNEL, claim.ts)[0].shown
