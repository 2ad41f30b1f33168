"""Slack for the conformance suite: payloads checked by the simulator's rules (what Slack
refuses, Block Kit's limits) and citebot's promises, the answer read as Markdown, cards read by
the numbers leading their titles; the wire is the answer sink on the simulated Slack,
answering a mention in a channel."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from bot.i18n.wording import ENGLISH_LABELS
from bot.render.ports import Payload
from integrations.slack.presenter import SlackPresenter
from integrations.slack.sink import SlackSink
from integrations.slack.web import make_web_client
from tests.integrations.conformance.kit import Conformance, Wire
from tests.integrations.formatter.reading import read
from tests.integrations.slack.payloads import validate_slack_payload
from tests.integrations.slack.test_sink import CHANNEL, sink_for
from tests.sim.slack import Message, SlackSim
from tests.sim.slack.limits import SECTION_TEXT_MAX, check_message

_TITLE = re.compile(r"\*([0-9, ]+)\.\* \*(?:<([^|>]+)\|)?")


def problems(payload: Payload) -> list[str]:
    refused = check_message(payload)
    return [*validate_slack_payload(payload), *([": ".join(refused)] if refused else [])]


def footnotes(answer: Sequence[Payload]) -> list[tuple[int, str | None]]:
    return read("slack", answer, [], ENGLISH_LABELS).footnotes


def cards(thread: Sequence[Payload]) -> dict[int, str | None]:
    """A card's first section is ``*1, 2.* *<url|Title>*`` (the title unlinked where no link
    fits)."""
    shown: dict[int, str | None] = {}
    for block in (block for payload in thread for block in payload.get("blocks", [])):
        title = _TITLE.match(block["text"]["text"]) if block["type"] == "section" else None
        if title is not None:
            for number in title.group(1).split(", "):
                shown.setdefault(int(number), title.group(2))
    return shown


@dataclass
class _OnSlack:
    sim: SlackSim
    asked: str
    sink: SlackSink

    def _messages(self) -> list[Message]:
        return self.sim.bot_replies(CHANNEL, self.asked)

    def seen(self) -> list[str]:
        return [m.block_text() if m.blocks else m.shown for m in self._messages()]

    def pings(self) -> list[str]:
        return [ping for message in self._messages() for ping in message.pings()]

    def refusals(self) -> int:
        return sum(1 for call in self.sim.calls if not call.ok)

    def spoiled(self, payload: Payload, card: int) -> Payload:
        blocks: list[dict[str, Any]] = list(payload["blocks"])
        where = [i for i, block in enumerate(blocks) if block["type"] == "section"][card]
        text = {**blocks[where]["text"], "text": "x" * (SECTION_TEXT_MAX + 1)}
        blocks[where] = {**blocks[where], "text": text}
        return {**payload, "blocks": blocks}


@asynccontextmanager
async def on_simulator(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Wire]:
    async with SlackSim() as sim:
        web = make_web_client(token=sim.bot_token, base_url=sim.base_url)
        asked = sim._said(CHANNEL, "channel", "<@U0BOT> why?", user="U0ALICE", thread_ts=None)
        yield _OnSlack(sim, asked.ts, sink_for(web, asked.ts))


PLATFORM = Conformance(
    name="slack",
    presenter=SlackPresenter(),
    problems=problems,
    footnotes=footnotes,
    cards=cards,
    wire=on_simulator,
)
