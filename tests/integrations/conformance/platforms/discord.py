"""Discord for the conformance suite: payloads checked by the simulator's validators (the
official OpenAPI spec and the documented limits), the answer read as Markdown, cards read by
the numbers on their author line; the wire is the answer sink on the simulated Discord, its
cards in a thread on the answer as in a server's text channel."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import discord
import pytest

from bot.i18n.wording import ENGLISH_LABELS
from bot.render.ports import Payload
from integrations.discord.presenter import DiscordPresenter
from integrations.discord.sink import DiscordAnswerSink
from tests.integrations.conformance.kit import Conformance, Wire
from tests.integrations.discord.payloads import validate_discord_payload
from tests.integrations.discord.test_orphans import deferred
from tests.integrations.formatter.reading import read
from tests.sim.discord import DiscordSim, SimInteraction, SimMessage
from tests.sim.discord.schema import body_errors
from tests.sim.discord.validation import form_errors

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
)
