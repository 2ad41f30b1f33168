"""Closing a Slack answer whose worker died: the real sink writes half an answer, then the closer
another worker would run finishes it from the record (the sink's whereabouts) alone.

The whole path, with a real SIGKILL, is in tests/integrations/test_many_workers.py; here each
place an answer can be left in is set up on purpose.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from bot.i18n.wording import Wording
from integrations.slack.orphans import SlackOrphans
from integrations.slack.presenter import SlackPresenter
from integrations.slack.sink import NativeStreams, SlackSink
from integrations.slack.wire import make_web_client
from tests.integrations.orphaned import close_left
from tests.sim.slack import SlackSim

CHANNEL = "C0GENERAL"
HALF = {"markdown_text": "Hope is a theological virtue, and", "unfurl_links": False}
NOTE = "The answer was interrupted before it finished"


@pytest.fixture
async def sim() -> AsyncIterator[SlackSim]:
    async with SlackSim() as running:
        yield running


def client(sim: SlackSim) -> AsyncWebClient:
    return make_web_client(token=sim.bot_token, base_url=sim.base_url)


def sink(sim: SlackSim, *, streams: bool = True) -> SlackSink:
    """A mention was answered this far by a worker that is now dead."""
    asked = sim._said(CHANNEL, "channel", "<@U0BOT> what is hope?", user="U0ALICE", thread_ts=None)
    return SlackSink(
        web=client(sim),
        channel=CHANNEL,
        thread_ts=asked.ts,
        team_id="T0SIM",
        user_id="U0ALICE",
        streams=NativeStreams(enabled=streams),
    )


async def close(sim: SlackSim, left: SlackSink, language: str | None = None) -> None:
    """What another worker does with the dead worker's record."""
    hook = SlackOrphans(web=client(sim))
    await close_left(
        hook, SlackPresenter(), platform="slack", where=left.whereabouts(), language=language
    )


async def test_a_stream_left_open_is_stopped_with_the_note(
    sim: SlackSim,
) -> None:
    left = sink(sim)
    await left.show((HALF,), final=False)
    await close(sim, left)
    [answer] = sim.bot_replies(CHANNEL, left.thread_ts)
    assert not answer.streaming
    assert answer.shown.startswith("Hope is a theological virtue, and")
    assert answer.shown.endswith(
        f"\n\n*{NOTE}; what you see above is what arrived. Please ask again for the rest.*"
    )


async def test_a_posted_answer_gets_the_note_as_the_next_reply(
    sim: SlackSim,
) -> None:
    left = sink(sim, streams=False)  # past the stream quota: posted and edited
    await left.show((HALF,), final=False)
    await close(sim, left, language="fr")
    answer, note = sim.bot_replies(CHANNEL, left.thread_ts)
    assert answer.shown == "Hope is a theological virtue, and"  # never edited: nothing hidden
    assert note.shown.startswith("La réponse a été interrompue")
    assert [c.method for c in sim.calls if c.method.startswith("chat.")] == [
        "chat.postMessage",
        "chat.postMessage",
    ]


async def test_before_any_text_the_thread_is_told_to_ask_again(
    sim: SlackSim,
) -> None:
    left = sink(sim)
    thread = left.thread_ts
    await close(sim, left)
    [note] = sim.bot_replies(CHANNEL, thread)
    assert note.shown == "citebot is restarting. Please ask again in a moment."


async def test_a_thinking_placeholder_is_replaced_by_the_note(sim: SlackSim) -> None:
    """In a channel the answer's place is held by "citebot is thinking…": a worker that died
    before any text leaves that message saying what happened, not thinking forever."""
    left = sink(sim)
    await left.hold("citebot is thinking…")
    await close(sim, left, language="de")
    [message] = sim.bot_replies(CHANNEL, left.thread_ts)
    assert message.shown == Wording("de", "slack").restarting()
    assert "thinking" not in message.shown
