"""The simulated assistant.threads methods answer as Slack's 2026 documentation says (the
method pages, the changelog of 2026-03-05 and the agent messaging migration guide);
slack_sdk's own client sends each call."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from tests.sim.slack import Identity, SlackSim
from tests.sim.slack.webapi import BOT_SCOPES

CHANNEL, DM = "C0GENERAL", "DU0ALICE"


@pytest.fixture
async def sim() -> AsyncIterator[SlackSim]:
    async with SlackSim() as running:
        yield running


def _web(sim: SlackSim) -> AsyncWebClient:
    return AsyncWebClient(token=sim.bot_token, base_url=sim.base_url)


async def test_the_status_shows_in_a_channel_thread_as_in_the_dm(sim: SlackSim) -> None:
    """Since 2026-03-05 setStatus "allows channel-based apps to use AI loading states in
    channels"; status is still required, an unknown thread still refused."""
    web = _web(sim)
    in_dm = sim._said(DM, "im", "question", user="U0ALICE", thread_ts=None).ts
    in_channel = sim._said(CHANNEL, "channel", "<@U0BOT> question", user="U0ALICE", thread_ts=None)
    with pytest.raises(SlackApiError) as missing:
        await web.api_call(
            "assistant.threads.setStatus", json={"channel_id": DM, "thread_ts": in_dm}
        )
    assert missing.value.response["error"] == "invalid_arguments"
    with pytest.raises(SlackApiError) as unknown:
        await web.assistant_threads_setStatus(
            channel_id=CHANNEL, thread_ts="1.000001", status="is thinking…"
        )
    assert unknown.value.response["error"] == "invalid_thread_ts"
    await web.assistant_threads_setStatus(
        channel_id=CHANNEL,
        thread_ts=in_channel.ts,
        status="is thinking…",
        loading_messages=["Reading the sources…", "Checking the quotes…"],
    )
    await web.assistant_threads_setStatus(channel_id=DM, thread_ts=in_dm, status="is thinking…")
    await web.assistant_threads_setStatus(channel_id=DM, thread_ts=in_dm, status="")
    assert sim.statuses(DM, in_dm) == ["is thinking…", ""]
    assert sim.statuses(CHANNEL, in_channel.ts) == ["is thinking…"]
    assert sim.loading_messages(CHANNEL, in_channel.ts) == [
        "Reading the sources…",
        "Checking the quotes…",
    ]


async def test_the_status_takes_at_most_ten_loading_messages_and_chat_write(
    sim: SlackSim,
) -> None:
    web = _web(sim)
    ts = sim._said(CHANNEL, "channel", "question", user="U0ALICE", thread_ts=None).ts
    with pytest.raises(SlackApiError) as eleven:
        await web.assistant_threads_setStatus(
            channel_id=CHANNEL, thread_ts=ts, status="…", loading_messages=["x"] * 11
        )
    assert eleven.value.response["error"] == "invalid_arguments"
    async with SlackSim(me=Identity(scopes=BOT_SCOPES - {"chat:write", "assistant:write"})) as bare:
        ts = bare._said(CHANNEL, "channel", "question", user="U0ALICE", thread_ts=None).ts
        with pytest.raises(SlackApiError) as scopeless:
            await _web(bare).assistant_threads_setStatus(
                channel_id=CHANNEL, thread_ts=ts, status="…"
            )
    assert scopeless.value.response["error"] == "missing_scope"


async def test_suggested_prompts_with_a_thread_silently_fail_in_an_agent_app(
    sim: SlackSim,
) -> None:
    """The method page: "Including [thread_ts] in a call for an agent app will cause the call
    to silently fail"; without it the prompts go under the DM's latest message."""
    web = _web(sim)
    latest = sim._said(DM, "im", "hello", user="U0ALICE", thread_ts=None).ts
    prompts = [{"title": "Pray", "message": "How should I pray?"}]
    answered = await web.assistant_threads_setSuggestedPrompts(
        channel_id=DM, thread_ts=latest, prompts=prompts
    )
    assert answered["ok"] is True
    assert sim.prompts(DM) is None
    await web.assistant_threads_setSuggestedPrompts(channel_id=DM, prompts=prompts, title="Ask")
    shown = sim.prompts(DM)
    assert shown is not None
    assert (shown.under, shown.title, shown.prompts) == (
        latest,
        "Ask",
        (("Pray", "How should I pray?"),),
    )
    with pytest.raises(SlackApiError) as five:
        await web.assistant_threads_setSuggestedPrompts(channel_id=DM, prompts=prompts * 5)
    assert five.value.response["error"] == "invalid_arguments"
    with pytest.raises(SlackApiError) as untitled:
        await web.assistant_threads_setSuggestedPrompts(
            channel_id=DM, prompts=[{"message": "How?"}]
        )
    assert untitled.value.response["error"] == "invalid_arguments"


async def test_a_title_names_a_thread_of_the_apps_dm(sim: SlackSim) -> None:
    web = _web(sim)
    in_dm = sim._said(DM, "im", "What is grace?", user="U0ALICE", thread_ts=None).ts
    in_channel = sim._said(CHANNEL, "channel", "question", user="U0ALICE", thread_ts=None).ts
    await web.assistant_threads_setTitle(channel_id=DM, thread_ts=in_dm, title="What is grace?")
    with pytest.raises(SlackApiError) as elsewhere:
        await web.assistant_threads_setTitle(channel_id=CHANNEL, thread_ts=in_channel, title="x")
    assert elsewhere.value.response["error"] == "invalid_thread_ts"
    assert sim.title(DM, in_dm) == "What is grace?"
