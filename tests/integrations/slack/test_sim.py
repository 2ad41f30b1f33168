"""The Slack simulator speaks the wire the real slack_sdk / slack-bolt clients expect."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.app.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from tests.sim.slack import Identity, SlackSim


@pytest.fixture
async def sim() -> AsyncIterator[SlackSim]:
    async with SlackSim() as running:
        running.workspace.add_channel("C0GENERAL", "channel")
        yield running


@pytest.fixture
def web(sim: SlackSim) -> AsyncWebClient:
    return AsyncWebClient(token=sim.bot_token, base_url=sim.base_url)


async def test_a_mention_is_acked_and_the_reply_lands_in_its_thread(sim: SlackSim) -> None:
    app = AsyncApp(client=AsyncWebClient(token=sim.bot_token, base_url=sim.base_url))

    @app.event("app_mention")
    async def answer(event: dict[str, Any], say: Any) -> None:
        await say(text="pong", thread_ts=event.get("thread_ts") or event["ts"])

    handler = AsyncSocketModeHandler(app, sim.app_token)
    await handler.connect_async()
    try:
        asked = await sim.mention("C0GENERAL", "ping")
        await sim.acked(asked)
        await sim.wait_for(lambda: sim.bot_replies("C0GENERAL", asked.ts))
    finally:
        await handler.close_async()
    [reply] = sim.bot_replies("C0GENERAL", asked.ts)
    assert reply.shown == "pong"
    assert reply.thread_ts == asked.ts
    assert [c.method for c in sim.calls][:2] == ["apps.connections.open", "auth.test"]
    assert sim.calls_to("apps.connections.open")[0].token_kind == "app"


async def test_tokens_are_checked(sim: SlackSim) -> None:
    stranger = AsyncWebClient(token="xoxb-wrong", base_url=sim.base_url)
    with pytest.raises(SlackApiError) as refused:
        await stranger.auth_test()
    assert refused.value.response["error"] == "invalid_auth"
    bot = AsyncWebClient(token=sim.bot_token, base_url=sim.base_url)
    with pytest.raises(SlackApiError) as wrong_kind:
        await bot.apps_connections_open(app_token=sim.bot_token)
    assert wrong_kind.value.response["error"] == "not_allowed_token_type"


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ({"text": "x" * 4001}, "msg_too_long"),
        ({"markdown_text": "x" * 12001}, "msg_too_long"),
        ({"markdown_text": "hi", "text": "hi"}, "invalid_arguments"),
        ({"text": "t", "blocks": [{"type": "divider"}] * 51}, "invalid_blocks"),
        (
            {
                "text": "t",
                "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}],
            },
            "invalid_blocks",
        ),
        (
            {
                "text": "t",
                "blocks": [{"type": "header", "text": {"type": "plain_text", "text": "x" * 151}}],
            },
            "invalid_blocks",
        ),
        (
            {
                "text": "t",
                "blocks": [{"type": "context", "elements": [{"type": "mrkdwn", "text": "x"}] * 11}],
            },
            "invalid_blocks",
        ),
        ({"text": "t", "blocks": [{"type": "markdown", "text": "x" * 6001}] * 2}, "invalid_blocks"),
        (
            {
                "text": "t",
                "blocks": [
                    {
                        "type": "actions",
                        "elements": [
                            {
                                "type": "button",
                                "action_id": "a",
                                "text": {"type": "plain_text", "text": "x" * 76},
                            }
                        ],
                    }
                ],
            },
            "invalid_blocks",
        ),
        (
            {
                "text": "t",
                "blocks": [
                    {
                        "type": "actions",
                        "elements": [
                            {
                                "type": "button",
                                "action_id": "a",
                                "value": "v" * 2001,
                                "text": {"type": "plain_text", "text": "x"},
                            }
                        ],
                    }
                ],
            },
            "invalid_blocks",
        ),
        ({"text": "t", "attachments": [{"text": "a"}] * 101}, "too_many_attachments"),
        ({}, "no_text"),
    ],
)
async def test_limits_are_refused_like_slack(
    sim: SlackSim, web: AsyncWebClient, content: dict[str, Any], error: str
) -> None:
    with pytest.raises(SlackApiError) as refused:
        await web.api_call("chat.postMessage", json={"channel": "C0GENERAL", **content})
    assert refused.value.response["error"] == error
    assert sim.workspace.messages["C0GENERAL"] == []


async def test_unknown_channel(web: AsyncWebClient) -> None:
    with pytest.raises(SlackApiError) as refused:
        await web.chat_postMessage(channel="C0NOWHERE", text="hi")
    assert refused.value.response["error"] == "channel_not_found"


async def test_a_stream_shows_its_appends_until_stopped(sim: SlackSim, web: AsyncWebClient) -> None:
    asked = await _said(sim)
    started = await web.chat_startStream(
        channel="C0GENERAL",
        thread_ts=asked,
        recipient_team_id="T0SIM",
        recipient_user_id="U0ALICE",
        markdown_text="Hello",
    )
    await web.chat_appendStream(channel="C0GENERAL", ts=started["ts"], markdown_text=", world")
    await web.chat_stopStream(
        channel="C0GENERAL", ts=started["ts"], markdown_text="!", blocks=[{"type": "divider"}]
    )
    [answer] = sim.bot_replies("C0GENERAL", asked)
    assert answer.shown == "Hello, world!"
    assert answer.blocks == [{"type": "divider"}]
    with pytest.raises(SlackApiError) as stopped:
        await web.chat_appendStream(channel="C0GENERAL", ts=started["ts"], markdown_text="more")
    assert stopped.value.response["error"] == "message_not_in_streaming_state"


async def test_a_stream_takes_markdown_chunks_as_slack_sdks_chat_stream_sends_them(
    sim: SlackSim, web: AsyncWebClient
) -> None:
    asked = await _said(sim)
    stream = await web.chat_stream(
        channel="C0GENERAL",
        thread_ts=asked,
        recipient_team_id="T0SIM",
        recipient_user_id="U0ALICE",
        buffer_size=4,
    )
    await stream.append(markdown_text="Hello")
    await stream.append(markdown_text=", world")
    await stream.stop(markdown_text="!")
    [answer] = sim.bot_replies("C0GENERAL", asked)
    assert answer.shown == "Hello, world!"
    streamed = [c for c in sim.calls if c.method.endswith("Stream")]
    assert any("chunks" in c.args and "markdown_text" not in c.args for c in streamed)


async def test_streams_need_recipients_in_channels_and_expire(
    sim: SlackSim, web: AsyncWebClient
) -> None:
    asked = await _said(sim)
    with pytest.raises(SlackApiError) as refused:
        await web.chat_startStream(channel="C0GENERAL", thread_ts=asked, markdown_text="x")
    assert refused.value.response["error"] == "missing_recipient_team_id"
    sim.expire_after_appends = 1
    started = await web.chat_startStream(
        channel="C0GENERAL", thread_ts=asked, recipient_team_id="T0SIM", recipient_user_id="U0ALICE"
    )
    await web.chat_appendStream(channel="C0GENERAL", ts=started["ts"], markdown_text="one")
    with pytest.raises(SlackApiError) as dropped:
        await web.chat_appendStream(channel="C0GENERAL", ts=started["ts"], markdown_text="two")
    assert dropped.value.response["error"] == "message_not_in_streaming_state"
    await web.chat_update(channel="C0GENERAL", ts=started["ts"], markdown_text="one two")
    assert sim.bot_replies("C0GENERAL", asked)[0].shown == "one two"


async def test_a_stream_refuses_more_than_12000_characters(
    sim: SlackSim, web: AsyncWebClient
) -> None:
    asked = await _said(sim)
    started = await web.chat_startStream(
        channel="C0GENERAL",
        thread_ts=asked,
        recipient_team_id="T0SIM",
        recipient_user_id="U0ALICE",
        markdown_text="x" * 8000,
    )
    with pytest.raises(SlackApiError) as refused:
        await web.chat_appendStream(channel="C0GENERAL", ts=started["ts"], markdown_text="y" * 4001)
    assert refused.value.response["error"] == "msg_too_long"
    assert len(sim.bot_replies("C0GENERAL", asked)[0].shown) == 8000


async def test_an_injected_429_carries_retry_after(sim: SlackSim, web: AsyncWebClient) -> None:
    sim.fail_next("chat.startStream", retry_after=7)
    with pytest.raises(SlackApiError) as limited:
        await web.chat_startStream(
            channel="C0GENERAL",
            thread_ts=await _said(sim),
            recipient_team_id="T0SIM",
            recipient_user_id="U0ALICE",
        )
    assert limited.value.response.status_code == 429
    assert limited.value.response.headers["Retry-After"] == "7"


async def test_form_encoded_calls_and_replies(sim: SlackSim, web: AsyncWebClient) -> None:
    asked = await _said(sim)
    await web.api_call(
        "chat.postMessage",
        data={
            "channel": "C0GENERAL",
            "thread_ts": asked,
            "text": "formed",
            "blocks": '[{"type": "divider"}]',
        },
    )
    replies = await web.conversations_replies(channel="C0GENERAL", ts=asked)
    assert [m["text"] for m in replies["messages"]] == ["<@U0BOT> question", "formed"]
    assert replies["messages"][1]["bot_id"] == "B0BOT"


async def test_status_and_ephemeral(sim: SlackSim, web: AsyncWebClient) -> None:
    """In an assistant thread (the app's DM) the status shows until the reply clears it."""
    asked = sim._said("DU0ALICE", "im", "question", user="U0ALICE", thread_ts=None).ts
    await web.assistant_threads_setStatus(
        channel_id="DU0ALICE", thread_ts=asked, status="is thinking…"
    )
    await web.chat_postMessage(channel="DU0ALICE", thread_ts=asked, text="answer")
    await web.chat_postEphemeral(channel="C0GENERAL", user="U0ALICE", text="thanks")
    assert sim.statuses("DU0ALICE", asked) == ["is thinking…", ""]
    assert [m.shown for m in sim.ephemerals("U0ALICE")] == ["thanks"]


async def test_every_connection_gets_its_own_envelopes() -> None:
    """Apps that subscribe to app_mention alone: each mention is one envelope."""
    seen: list[tuple[int, str]] = []
    handlers = []
    async with SlackSim(me=Identity(events=frozenset({"app_mention"}))) as sim:
        for worker in range(2):
            app = AsyncApp(client=AsyncWebClient(token=sim.bot_token, base_url=sim.base_url))

            app.event("app_mention")(_recorder(seen, worker))
            handler = AsyncSocketModeHandler(app, sim.app_token)
            await handler.connect_async()
            handlers.append(handler)
        try:
            await sim.wait_connections(2)
            first = await sim.mention("C0GENERAL", "one")
            second = await sim.mention("C0GENERAL", "two")
            both = await sim.mention("C0GENERAL", "three", to_all=True)
            for delivery in (first, second, both):
                await sim.acked(delivery)
            await sim.wait_for(lambda: len(seen) == 4)
        finally:
            for handler in handlers:
                await handler.close_async()
    assert sorted(seen) == sorted([(0, first.ts), (1, second.ts), (0, both.ts), (1, both.ts)])
    assert len({a.connection for a in sim.acks}) == 2


def _recorder(seen: list[tuple[int, str]], worker: int) -> Any:
    async def note(event: dict[str, Any]) -> None:
        seen.append((worker, event["ts"]))

    return note


async def _said(sim: SlackSim) -> str:
    said = sim._said("C0GENERAL", "channel", "<@U0BOT> question", user="U0ALICE", thread_ts=None)
    await asyncio.sleep(0)
    return said.ts
