"""👎 asks why (issue 26), end to end: the feedback button's 👎 opens a modal of the four
reasons and a line of one's own, in the person's language; the reason is kept with the vote
(the operators' JSON line holds it, never the person's words), and only they are thanked."""

from __future__ import annotations

import logging
import time

import pytest

from bot.i18n.wording import Wording
from tests.integrations.slack.conftest import World, serving, slack_settings
from tests.sim.slack import Message, SlackSim
from tests.sim.upstream import UpstreamSim, answer

CHANNEL = "C0GENERAL"
BOB = "U0BOB"


async def _answered(world: World) -> Message:
    """An answer's thread message holding the feedback buttons."""
    world.upstream.queue(answer(["Peace be with you."]))
    asked = await world.sim.mention(CHANNEL, "Greet me")
    await world.answered(CHANNEL, asked.ts)
    [with_feedback] = [
        m
        for m in world.sim.bot_replies(CHANNEL, asked.ts)
        if any(e["action_id"] == "citebot_feedback" for e in m.elements())
    ]
    return with_feedback


def _feedback(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [r.__dict__["feedback"] for r in caplog.records if "feedback" in r.__dict__]


async def test_a_thumbs_down_asks_why_and_keeps_the_reason(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "citebot.answers")
    world.sim.workspace.add_user(BOB, locale="it-IT")
    message = await _answered(world)
    click = await world.sim.click(
        "citebot_feedback", "negative", channel=CHANNEL, message_ts=message.ts, user=BOB
    )
    await world.sim.acked(click)
    await world.sim.wait_for(lambda: world.sim.modals(BOB))
    [modal] = world.sim.modals(BOB)
    labels = Wording("it").reason_labels
    assert labels.title in modal.texts()
    assert [o["text"]["text"] for o in modal.elements()[0]["options"]] == list(
        labels.reasons.values()
    )
    assert world.sim.ephemerals(BOB) == []  # asked why, not yet thanked

    world.sim.fill(modal, "reason", "quote_not_on_page")
    world.sim.fill(modal, "comment", "The second quote is not on that page")
    await world.sim.acked(await world.sim.submit(modal))
    await world.sim.wait_for(lambda: world.sim.ephemerals(BOB))

    [thanks] = world.sim.ephemerals(BOB)
    assert thanks.shown == Wording("it").reason_thanks()
    assert world.sim.modals(BOB) == []
    votes = _feedback(caplog)
    assert [(v["value"], v["reason"], v["commented"]) for v in votes] == [
        ("down", None, False),  # kept at the click, should the modal be closed unanswered
        ("down", "quote_not_on_page", True),
    ]
    assert "The second quote is not on that page" not in caplog.text


async def test_a_thumbs_down_whose_modal_slack_refuses_is_thanked_at_once(
    world: World,
) -> None:
    message = await _answered(world)
    world.sim.fail_next("views.open", "expired_trigger_id", status=200, retry_after=None)
    await world.sim.click(
        "citebot_feedback", "negative", channel=CHANNEL, message_ts=message.ts, user=BOB
    )
    await world.sim.wait_for(lambda: world.sim.ephemerals(BOB))
    [thanks] = world.sim.ephemerals(BOB)
    assert thanks.shown == "Thank you for the feedback!"


async def test_the_vote_and_its_reason_are_kept_on_the_answers_record() -> None:
    """The answer log links a vote to its answer by the key the buttons send: the sink names
    the reply that holds them (``vote_key``), and the 👎 and its reason land on the record."""
    async with SlackSim() as sim, UpstreamSim().running() as upstream:
        config = slack_settings(sim, upstream, ANSWER_LOG="full")
        async with serving(sim, upstream, config) as (world, service):
            message = await _answered(world)
            await sim.click(
                "citebot_feedback", "negative", channel=CHANNEL, message_ts=message.ts, user=BOB
            )
            await sim.wait_for(lambda: sim.modals(BOB))
            [modal] = sim.modals(BOB)
            sim.fill(modal, "reason", "does_not_answer")
            await sim.submit(modal)
            await sim.wait_for(lambda: sim.ephemerals(BOB))
            records = [
                r
                async for batch in service.state.logged_answers(since=0, until=time.time() + 1)
                for r in batch
            ]
    [record] = records
    assert record.vote_key == f"slack:{CHANNEL}:{message.ts}"
    assert [(v.user, v.value, v.reason) for v in record.votes] == [(BOB, "down", "does_not_answer")]
