"""The simulated Slack refuses what Slack's Block Kit models and docs refuse, and shows what a
person would see; slack_sdk's own client sends each call over loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from tests.sim.slack import SlackSim

CHANNEL, DM = "C0GENERAL", "DU0ALICE"
UNSUPPORTED = {
    "syntax highlighting": "Look:\n\n```python\nprint('grace')\n```\n",
    "horizontal line": "One.\n\n***\n\nTwo.\n",
    "table": "| Doc | Year |\n| --- | --- |\n| CCC | 1992 |\n",
    "task list": "- [ ] pray\n- [x] read\n",
}
SUPPORTED = {
    "plain code block": "Look:\n\n```\nprint('grace')\n```\n",
    "bold italic": "***all of this is important***\n",
    "list with a link": "- [Catechism](https://example.org/ccc)\n- two\n",
    "setext heading": "Grace\n---\n",
}


@pytest.fixture
async def sim() -> AsyncIterator[SlackSim]:
    async with SlackSim() as running:
        running.workspace.add_channel(CHANNEL, "channel")
        yield running


@pytest.fixture
def web(sim: SlackSim) -> AsyncWebClient:
    return AsyncWebClient(token=sim.bot_token, base_url=sim.base_url)


async def _post(web: AsyncWebClient, **content: Any) -> None:
    await web.api_call("chat.postMessage", json={"channel": CHANNEL, **content})


async def _refusal(web: AsyncWebClient, **content: Any) -> str:
    with pytest.raises(SlackApiError) as refused:
        await _post(web, **content)
    return str(refused.value.response["error"])


@pytest.mark.parametrize(
    "block",
    [
        {"type": "no_such_block", "text": "x"},
        {"type": "section"},
        {"type": "markdown", "text": "x" * 12001},
        {"type": "actions", "elements": [{"type": "button", "text": {"type": "plain_text"}}]},
    ],
    ids=["unknown type", "section without text", "markdown too long", "button without text"],
)
async def test_slack_sdks_block_models_refuse_a_malformed_block(
    sim: SlackSim, web: AsyncWebClient, block: dict[str, Any]
) -> None:
    assert await _refusal(web, text="fallback", blocks=[block]) == "invalid_blocks"
    assert sim.workspace.messages[CHANNEL] == []


@pytest.mark.parametrize("markdown", UNSUPPORTED.values(), ids=UNSUPPORTED.keys())
async def test_markdown_slack_does_not_support_is_refused(
    sim: SlackSim, web: AsyncWebClient, markdown: str
) -> None:
    assert await _refusal(web, markdown_text=markdown) == "invalid_blocks"
    blocks = [{"type": "markdown", "text": markdown}]
    assert await _refusal(web, text="fallback", blocks=blocks) == "invalid_blocks"
    assert sim.workspace.messages[CHANNEL] == []


@pytest.mark.parametrize("markdown", SUPPORTED.values(), ids=SUPPORTED.keys())
async def test_markdown_slack_documents_is_shown(
    sim: SlackSim, web: AsyncWebClient, markdown: str
) -> None:
    await _post(web, markdown_text=markdown)
    [message] = sim.workspace.messages[CHANNEL]
    assert message.shown == markdown


async def test_a_stream_is_judged_on_finished_lines_until_it_stops(
    sim: SlackSim, web: AsyncWebClient
) -> None:
    """A chunk may end in ``***`` that the next one turns into ``***bold***``; a rule that is
    still a rule when the stream stops is refused."""
    asked = sim._said(DM, "im", "question", user="U0ALICE", thread_ts=None).ts
    started = await web.chat_startStream(channel=DM, thread_ts=asked, markdown_text="Grace ***")
    await web.chat_appendStream(channel=DM, ts=started["ts"], markdown_text="is a gift***\n\n")
    await web.chat_appendStream(channel=DM, ts=started["ts"], markdown_text="***")
    with pytest.raises(SlackApiError) as refused:
        await web.chat_stopStream(channel=DM, ts=started["ts"])
    assert refused.value.response["error"] == "invalid_blocks"
    [answer] = sim.bot_replies(DM, asked)
    assert answer.shown == "Grace ***is a gift***\n\n***"


async def test_what_a_mrkdwn_text_object_makes_of_mentions_and_cut_links(
    sim: SlackSim, web: AsyncWebClient
) -> None:
    def section(text: str, **extra: Any) -> dict[str, Any]:
        return {"type": "section", "text": {"type": "mrkdwn", "text": text, **extra}}

    await _post(
        web,
        text="Sources: <https://example.org/ccc|Catech",
        blocks=[
            section("Tell @here about <https://example.org/ccc|the Catechism>"),
            section("Tell @channel too", verbatim=True),
            section("and <!everyone>", verbatim=True),
        ],
    )
    [message] = sim.workspace.messages[CHANNEL]
    assert message.unverbatim() == ["Tell @here about <https://example.org/ccc|the Catechism>"]
    assert message.pings() == ["<!everyone>", "@here"]
    assert message.broken_links() == ["<https://example.org/ccc|Catech"]


async def test_link_text_escapes_slack_does_not_document_are_reported(
    sim: SlackSim, web: AsyncWebClient
) -> None:
    await _post(web, markdown_text="Grace[\\[1\\]](https://example.org/1) is \\*free\\*.")
    await _post(web, markdown_text="Grace[¹](https://example.org/1) is \\*free\\*.")
    escaped, documented = sim.workspace.messages[CHANNEL]
    assert escaped.undocumented_markdown() == ["[\\[1\\]]("]
    assert documented.undocumented_markdown() == []
