"""Discord for the conformance suite: payloads checked by the simulator's validators (the
official OpenAPI spec and the documented limits), the answer read as Markdown, cards read by
the numbers on their author line; the wire is the answer sink on the simulated Discord, its
cards in a thread on the answer as in a server's text channel."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import discord
import pytest

from bot.i18n.wording import ENGLISH_LABELS
from bot.places import Place
from bot.render.ports import Payload
from integrations.discord.presenter import DiscordPresenter
from integrations.discord.sink import DiscordAnswerSink, answer_key
from tests.integrations.conformance.kit import Conformance, Inbound, Reply, Where, Wire
from tests.integrations.discord.harness import Harness, running_harness
from tests.integrations.discord.payloads import validate_discord_payload
from tests.integrations.discord.test_orphans import deferred
from tests.integrations.formatter.reading import read
from tests.sim.discord import DiscordSim, SimChannel, SimInteraction, SimMessage
from tests.sim.discord.schema import body_errors
from tests.sim.discord.validation import form_errors
from tests.sim.upstream import UpstreamSim

_LABEL = re.compile(r"\[([0-9, ]+)\]")


def problems(payload: Payload) -> list[str]:
    body = {**payload, "flags": 0}  # as a Create Message body; the edits' flags are the wire's
    errors = {**body_errors("POST", "/channels/{channel_id}/messages", body), **form_errors(body)}
    return [
        *validate_discord_payload(payload),
        *(f"{key}: {value}" for key, value in errors.items()),
    ]


def footnotes(answer: Sequence[Payload]) -> list[tuple[int, str | None]]:
    return read("discord", answer, [], ENGLISH_LABELS).footnotes


def cards(thread: Sequence[Payload]) -> dict[int, str | None]:
    """A document's card leads its author line with its numbers (``[1, 2] · Author``); one
    continued in the next embeds carries its link on the first only."""
    shown: dict[int, str | None] = {}
    before: tuple[str, str | None] = ("", None)
    for embed in (embed for payload in thread for embed in payload.get("embeds", [])):
        label = _LABEL.match(embed.get("author", {}).get("name", ""))
        if label is None:
            continue  # the also-consulted list
        url = embed.get("url") or (before[1] if before[0] == embed["title"] else None)
        before = (embed["title"], url)
        for number in label.group(1).split(", "):
            shown.setdefault(int(number), url)
    return shown


@dataclass
class _OnDiscord:
    sim: DiscordSim
    interaction: SimInteraction
    sink: DiscordAnswerSink

    def _messages(self) -> list[SimMessage]:
        answer = [m for m in self.sim.messages.values() if m.interaction is self.interaction]
        return answer + (self.sim.thread_messages(answer[0].id) if answer else [])

    def seen(self) -> list[str]:
        return [_text(message) for message in self._messages()]

    def pings(self) -> list[str]:
        return [ping for message in self._messages() for ping in message.pinged]

    def refusals(self) -> int:
        return sum(1 for request in self.sim.requests if request.status >= 400)

    def spoiled(self, payload: Payload, card: int) -> Payload:
        embeds: list[dict[str, Any]] = [dict(embed) for embed in payload["embeds"]]
        embeds[card]["url"] = "https://example.org/%zz"  # the spec's format: uri refuses it
        return {**payload, "embeds": embeds}


def _text(message: SimMessage) -> str:
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [embed.get("author", {}).get("name", ""), embed.get("footer", {}).get("text", "")]
        parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
    parts += [button.get("label", "") for button in message.buttons()]
    return "\n".join(part for part in parts if part)


@dataclass
class _People:
    """``/ask`` in the simulated guild: ``allowed`` and ``off`` are the channel allowlist's,
    ``outside`` another channel; votes are the answer's buttons."""

    harness: Harness
    places: dict[str, SimChannel]

    @property
    def upstream(self) -> UpstreamSim:
        return self.harness.upstream

    async def ask(self, text: str, *, where: Where = "allowed", twice: bool = False) -> Reply:
        sim, done = self.harness.sim, len(self.harness.service.outcomes)
        interaction = await sim.slash_command(
            "ask", {"question": text, "private": False}, channel_id=self.places[where].id
        )
        if twice:
            await sim.redeliver(interaction)
        if where == "allowed":
            await self.harness.answers(done + 1)
        await sim.until(lambda: interaction.original is not None)
        assert interaction.original is not None
        original = interaction.original
        followups = [
            m for m in sim.messages.values() if m.interaction is interaction and m is not original
        ]
        return Reply(said=[m.content for m in [original, *followups]], answer=original)

    async def vote(self, reply: Reply, value: Literal["up", "down"], *, asker: bool) -> None:
        assert isinstance(reply.answer, SimMessage)
        sim = self.harness.sim
        voter = sim.user if asker else sim.admin
        voters = len(await self.votes(reply)) + 1  # each press here is a new voter's
        await sim.click_button(reply.answer.id, f"citebot:feedback:{value}", user_id=voter.id)
        await self.harness.votes(answer_key(reply.answer.id), count=voters)

    async def votes(self, reply: Reply) -> dict[str, str]:
        assert isinstance(reply.answer, SimMessage)
        sim = self.harness.sim
        kept = await self.harness.service.state.feedback(answer_key(reply.answer.id))
        who = {str(sim.user.id): "asker", str(sim.admin.id): "someone else"}
        return {who[user]: value for user, value in kept.items()}


@asynccontextmanager
async def people_on_simulator(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> AsyncIterator[Inbound]:
    async with DiscordSim() as sim, UpstreamSim().running() as upstream:
        monkeypatch.setattr(discord.http.Route, "BASE", sim.base_url)
        places = {
            "allowed": sim.text,
            "off": sim.add_text_channel("quiet"),
            "outside": sim.add_text_channel("elsewhere"),
        }
        allowlist = f"{places['allowed'].id},{places['off'].id}"
        env = {"DISCORD_CHANNEL_ALLOWLIST": allowlist}
        async with running_harness(sim, upstream, env=env) as harness:
            off = Place("discord", str(sim.guild_id), str(places["off"].id))
            await harness.service.places.set(off, "enabled", "off", by="admin")
            yield _People(harness, places)


@asynccontextmanager
async def on_simulator(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Wire]:
    async with DiscordSim() as sim:
        monkeypatch.setattr(discord.http.Route, "BASE", sim.base_url)
        client = discord.Client(intents=discord.Intents.none())
        await client.login(sim.token)
        try:
            interaction, sink = await deferred(sim, client.http, can_thread=True)
            yield _OnDiscord(sim, interaction, sink)
        finally:
            await client.close()


PLATFORM = Conformance(
    name="discord",
    presenter=DiscordPresenter(),
    problems=problems,
    footnotes=footnotes,
    cards=cards,
    wire=on_simulator,
    inbound=people_on_simulator,
)
