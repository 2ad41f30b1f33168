"""Slack for the conformance suite: payloads checked by the simulator's rules (what Slack
refuses, Block Kit's limits) and citebot's promises, the answer read as Markdown, cards read by
the numbers leading their titles; the wire is the answer sink on the simulated Slack,
answering a mention in a channel."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest

from bot.i18n.wording import ENGLISH_LABELS
from bot.places import Place
from bot.render.ports import Payload
from bot.service import AnswerService
from integrations.slack.cards import FEEDBACK_ACTION
from integrations.slack.presenter import SlackPresenter
from integrations.slack.sink import SlackSink, vote_key
from integrations.slack.wire import make_web_client
from tests.integrations.conformance.kit import Conformance, Inbound, Reply, Where, Wire
from tests.integrations.formatter.reading import read
from tests.integrations.slack.conftest import World, serving, slack_settings
from tests.integrations.slack.payloads import validate_slack_payload
from tests.integrations.slack.test_sink import CHANNEL, sink_for
from tests.sim.slack import Message, SlackSim
from tests.sim.slack.limits import SECTION_TEXT_MAX, check_message
from tests.sim.upstream import UpstreamSim

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


PLACES: dict[Where, str] = {"allowed": "C0GENERAL", "off": "C0QUIET", "outside": "C0ELSEWHERE"}
"""The channel allowlist names the first two."""
VOTERS = {"U0ALICE": "asker", "U0BOB": "someone else"}


@dataclass
class _People:
    """Mentions in the simulated workspace's channels; votes are the answer's feedback
    buttons."""

    world: World
    service: AnswerService

    @property
    def upstream(self) -> UpstreamSim:
        return self.world.upstream

    async def ask(self, text: str, *, where: Where = "allowed", twice: bool = False) -> Reply:
        sim, channel = self.world.sim, PLACES[where]
        asked = await sim.mention(channel, text, user="U0ALICE")
        if twice:
            await sim.acked(await sim.redeliver(asked))
        if where == "allowed":
            await self.world.answered(channel, asked.ts)
        await sim.wait_for(lambda: sim.bot_replies(channel, asked.ts) and not self.world.busy())
        said = [m.shown for m in self.world.answer_of(channel, asked.ts)]
        buttons = [
            m.ts
            for m in sim.bot_replies(channel, asked.ts)
            if any(e.get("action_id") == FEEDBACK_ACTION for e in m.elements())
        ]
        return Reply(said=said, answer=_Answer(channel, buttons[0] if buttons else ""))

    async def vote(self, reply: Reply, value: Literal["up", "down"], *, asker: bool) -> None:
        """Pressed, until citebot answers the press (thanks, or the 👎's modal asking why):
        the vote is kept before either."""
        assert isinstance(reply.answer, _Answer)
        sim, user = self.world.sim, "U0ALICE" if asker else "U0BOB"
        before = len(sim.ephemerals(user)) + len(sim.modals(user))
        side = "positive" if value == "up" else "negative"
        pressed = await sim.click(
            FEEDBACK_ACTION,
            side,
            channel=reply.answer.channel,
            message_ts=reply.answer.ts,
            user=user,
        )
        await sim.acked(pressed)
        await sim.wait_for(lambda: len(sim.ephemerals(user)) + len(sim.modals(user)) > before)

    async def votes(self, reply: Reply) -> dict[str, str]:
        assert isinstance(reply.answer, _Answer)
        kept = await self.service.state.feedback(vote_key(reply.answer.channel, reply.answer.ts))
        return {VOTERS[user]: value for user, value in kept.items()}


@dataclass(frozen=True)
class _Answer:
    channel: str
    ts: str
    """The answer's message with the feedback buttons."""


@asynccontextmanager
async def people_on_simulator(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> AsyncIterator[Inbound]:
    async with SlackSim() as sim, UpstreamSim().running() as upstream:
        allowlist = f"{PLACES['allowed']},{PLACES['off']}"
        config = slack_settings(sim, upstream, SLACK_CHANNEL_ALLOWLIST=allowlist)
        async with serving(sim, upstream, config) as (world, service):
            off = Place("slack", sim.me.team_id, PLACES["off"])
            await service.places.set(off, "enabled", "off", by="admin")
            yield _People(world, service)


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
    inbound=people_on_simulator,
)
