"""The sink on its own against the simulated Slack: what a thread shows as an answer streams."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from typing import Any

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from bot.budgets import WriteBudget
from integrations.slack.sink import NativeStreams, SlackSink
from integrations.slack.wire import SLACK_LIMITS, make_web_client
from tests.sim.slack import SlackSim

CHANNEL = "C0GENERAL"


def md(text: str) -> dict[str, Any]:
    return {"markdown_text": text, "unfurl_links": False, "unfurl_media": False}


@pytest.fixture
async def sim() -> AsyncIterator[SlackSim]:
    async with SlackSim() as running:
        yield running


@pytest.fixture
def web(sim: SlackSim) -> AsyncWebClient:
    return make_web_client(token=sim.bot_token, base_url=sim.base_url)


@pytest.fixture
async def asked(sim: SlackSim) -> str:
    said = sim._said(CHANNEL, "channel", "<@U0BOT> why?", user="U0ALICE", thread_ts=None)
    return said.ts


def sink_for(
    web: AsyncWebClient, thread_ts: str, streams: NativeStreams | None = None, interval: float = 0.3
) -> SlackSink:
    return SlackSink(
        web=web,
        channel=CHANNEL,
        thread_ts=thread_ts,
        team_id="T0SIM",
        user_id="U0ALICE",
        streams=streams or NativeStreams(),
        update_interval=interval,
    )


def methods(sim: SlackSim) -> list[str]:
    return [call.method for call in sim.calls]


async def test_the_first_text_starts_a_stream_and_only_suffixes_are_appended(
    sim: SlackSim, web: AsyncWebClient, asked: str
) -> None:
    sink = sink_for(web, asked)
    await sink.show([md("Hel")], final=False)
    assert [m.shown for m in sim.bot_replies(CHANNEL, asked)] == ["Hel"]
    await sink.show([md("Hello wor")], final=False)
    await sink.show([md("Hello world.")], final=True)
    [answer] = sim.bot_replies(CHANNEL, asked)
    assert answer.shown == "Hello world."
    assert not answer.streaming
    assert methods(sim) == ["chat.startStream", "chat.appendStream", "chat.stopStream"]
    assert [c.args.get("markdown_text") for c in sim.calls] == ["Hel", "lo wor", "ld."]
    assert sim.calls[0].args["recipient_user_id"] == "U0ALICE"


async def test_a_final_text_that_rewrites_earlier_text_is_edited_in(
    sim: SlackSim, web: AsyncWebClient, asked: str
) -> None:
    sink = sink_for(web, asked)
    await sink.show([md("Grace [1]")], final=False)
    await sink.show([md("Grace [[1]](https://example.org/1)")], final=True)
    [answer] = sim.bot_replies(CHANNEL, asked)
    assert answer.shown == "Grace [[1]](https://example.org/1)"
    assert methods(sim) == ["chat.startStream", "chat.stopStream", "chat.update"]


async def test_a_tier_2_429_falls_back_to_post_and_spaced_edits(
    sim: SlackSim, web: AsyncWebClient, asked: str
) -> None:
    sim.fail_next("chat.startStream", retry_after=30)
    web = make_web_client(
        token=sim.bot_token, base_url=sim.base_url, budget=WriteBudget(SLACK_LIMITS)
    )
    streams = NativeStreams()
    sink = sink_for(web, asked, streams)
    for text in ("One", "One two", "One two three"):
        await sink.show([md(text)], final=False)
    await sink.show([md("One two three.")], final=True)
    [answer] = sim.bot_replies(CHANNEL, asked)
    assert answer.shown == "One two three."
    assert sink.fell_back == "ratelimited"
    assert methods(sim) == ["chat.startStream", "chat.postMessage"] + ["chat.update"] * 3
    edits = [c.at for c in sim.calls if c.method in ("chat.postMessage", "chat.update")]
    assert min(b - a for a, b in itertools.pairwise(edits)) >= 0.29
    # Every other answer in the workspace posts instead of hitting the Tier-2 wall again.
    later = sink_for(web, asked, streams)
    await later.show([md("Next")], final=False)
    assert methods(sim)[-1] == "chat.postMessage"


async def test_a_dropped_stream_is_finished_by_editing_the_whole_text(
    sim: SlackSim, web: AsyncWebClient, asked: str
) -> None:
    sim.expire_after_appends = 1
    sink = sink_for(web, asked)
    await sink.show([md("Alpha")], final=False)
    await sink.show([md("Alpha beta")], final=False)
    await sink.show([md("Alpha beta gamma")], final=False)
    await sink.show([md("Alpha beta gamma.")], final=True)
    [answer] = sim.bot_replies(CHANNEL, asked)
    assert answer.shown == "Alpha beta gamma."
    assert sink.fell_back == "message_not_in_streaming_state"
    assert methods(sim) == [
        "chat.startStream",
        "chat.appendStream",
        "chat.appendStream",
        "chat.update",
        "chat.update",
    ]


async def test_a_long_answer_rolls_over_into_a_new_message_without_loss(
    sim: SlackSim, web: AsyncWebClient, asked: str
) -> None:
    first, second = "a" * 11990, "b" * 500
    sink = sink_for(web, asked)
    await sink.show([md(first[:6000])], final=False)
    await sink.show([md(first), md(second[:100])], final=False)
    await sink.show([md(first), md(second)], final=True)
    shown = [m.shown for m in sim.bot_replies(CHANNEL, asked)]
    assert shown == [first, second]
    assert not any(m.streaming for m in sim.bot_replies(CHANNEL, asked))
    assert methods(sim) == [
        "chat.startStream",
        "chat.stopStream",
        "chat.startStream",
        "chat.stopStream",
    ]


async def test_a_notice_alone_is_posted_once(
    sim: SlackSim, web: AsyncWebClient, asked: str
) -> None:
    await sink_for(web, asked).show([md("The answer service is busy.")], final=True)
    assert methods(sim) == ["chat.postMessage"]
    assert [m.shown for m in sim.bot_replies(CHANNEL, asked)] == ["The answer service is busy."]


async def test_a_refused_card_still_shows_its_text(
    sim: SlackSim, web: AsyncWebClient, asked: str
) -> None:
    too_long = {"type": "header", "text": {"type": "plain_text", "text": "x" * 151}}
    await sink_for(web, asked).post_thread(
        [
            {"text": "1. Cherishing Life, 34", "blocks": [too_long], "unfurl_links": False},
        ]
    )
    [card] = sim.bot_replies(CHANNEL, asked)
    assert card.shown == "1. Cherishing Life, 34"
    assert card.blocks is None


async def test_a_card_slack_keeps_refusing_is_skipped_and_the_rest_still_land(
    sim: SlackSim, web: AsyncWebClient, asked: str
) -> None:
    sim.fail_next("chat.postMessage", "internal_error", times=2)  # the card, then its text
    card = {"type": "section", "text": {"type": "mrkdwn", "text": "Human life is sacred."}}
    await sink_for(web, asked).post_thread(
        [
            {"text": "1. Cherishing Life, 34", "blocks": [card], "unfurl_links": False},
            {"text": "2. Evangelium Vitae, 2", "blocks": [card], "unfurl_links": False},
        ]
    )
    [shown] = sim.bot_replies(CHANNEL, asked)
    assert shown.shown == "2. Evangelium Vitae, 2"
    assert shown.block_text() == "Human life is sacred."


def two_cards(first_title: str, *, verdict: str = "") -> dict[str, Any]:
    """A thread message of two cards as integrations.slack.cards writes them (each from its
    title section to its divider)."""

    def card(title: str, said: str) -> list[dict[str, Any]]:
        text = {"type": "text", "text": said + verdict}
        return [
            {"type": "section", "text": {"type": "mrkdwn", "text": f"*{title}*"}},
            {"type": "rich_text", "elements": [{"type": "rich_text_quote", "elements": [text]}]},
            {"type": "divider"},
        ]

    blocks = card(first_title, "Grace is favor.") + card("2. Lumen Gentium", "Grace heals.")
    return {"text": "Sources: 1. Catechism · 2. Lumen Gentium", "blocks": blocks}


async def test_a_card_slack_refuses_is_left_out_and_its_neighbours_land_and_take_their_edits(
    sim: SlackSim, web: AsyncWebClient, asked: str
) -> None:
    """Slack names the refused block; the message goes again without that card, and the
    verdicts edited in later leave it out too (it would be refused again)."""
    sink = sink_for(web, asked)
    too_long = "1. " + "x" * 3000  # past a section's 3,000 characters
    await sink.post_thread([two_cards(too_long)])
    await sink.edit_thread(0, two_cards(too_long, verdict=" ✓"))
    [shown] = sim.bot_replies(CHANNEL, asked)
    assert "Grace heals. ✓" in shown.block_text()
    assert "Grace is favor." not in shown.block_text()
    assert [c.method for c in sim.calls if not c.ok] == ["chat.postMessage"]
