"""Telegram for the conformance suite: payloads checked by the simulator's rules (``api.json``,
the HTML and rich messages as Telegram parses them) and citebot's promises, the answer read as
Telegram shows its HTML, cards read by the numbers leading their titles; the wire is the answer
sink on the simulated Telegram, answering ``/ask`` in a group where people named like the
mention words (@everyone, @channel) would be notified by a live mention."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from bot.budgets import WriteBudget
from bot.i18n.wording import ENGLISH_LABELS
from bot.render.ports import Payload
from integrations.telegram.cards import FEEDBACK, SEPARATOR, parts_of
from integrations.telegram.pace import pace_limits
from integrations.telegram.place import Chat, Place, answer_key
from integrations.telegram.presenter import TelegramPresenter
from integrations.telegram.sink import TelegramSink
from integrations.telegram.thread import Abilities
from integrations.telegram.wire import TelegramApi
from tests.integrations.conformance.kit import Conformance, Inbound, Reply, Where, Wire
from tests.integrations.telegram.payloads import validate_telegram_payload
from tests.integrations.telegram.reading import card_heads, read_telegram
from tests.integrations.telegram.world import QUICK, World, telegram_world
from tests.places import at
from tests.sim.telegram import SimChat, SimMessage, SimUser, TelegramSim
from tests.sim.upstream import UpstreamSim


def footnotes(answer: Sequence[Payload]) -> list[tuple[int, str | None]]:
    return read_telegram(answer, [], ENGLISH_LABELS).footnotes


def cards(thread: Sequence[Payload]) -> dict[int, str | None]:
    """A card's part leads with its numbers, then its title linked to the source."""
    shown: dict[int, str | None] = {}
    for numbers, url in card_heads(thread):
        for number in numbers:
            shown.setdefault(number, url)
    return shown


@dataclass
class _OnTelegram:
    tg: TelegramSim
    group: SimChat
    sink: TelegramSink

    def seen(self) -> list[str]:
        return [
            "\n".join([m.readable, *(label for label, _ in m.buttons)])
            for m in self.tg.bot_messages(self.group)
        ]

    def pings(self) -> list[str]:
        return self.tg.pinged()

    def refusals(self) -> int:
        return sum(1 for request in self.tg.requests if request.status >= 400)

    def spoiled(self, payload: Payload, card: int) -> Payload:
        """Part ``card`` made longer than any Telegram message, in every form."""
        parts = parts_of(payload)
        parts[card] = "<p>" + "x" * 40_000 + "</p>"
        rich = {**payload["rich_message"], "html": SEPARATOR.join(parts)}
        return {**payload, "rich_message": rich}


@asynccontextmanager
async def on_simulator(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Wire]:
    async with TelegramSim() as tg:
        owner = tg.add_user("Owner", username="owner_of_it")
        for name in ("everyone", "channel"):
            tg.add_user(name, username=name)
        group = tg.add_group("Parish", owner=owner)
        await tg.add_bot_to(group, by=owner)
        asked = await tg.user_says(owner, group, "/ask@citebot why?")
        session = AiohttpSession(api=TelegramAPIServer.from_base(tg.base_url))
        async with Bot(tg.token, session=session) as bot:
            sink = TelegramSink(
                api=TelegramApi(bot, budget=WriteBudget(pace_limits(QUICK))),
                place=Place(Chat(group.id, group=True), question=asked.id),
                abilities=Abilities(),
                draft_id=16,
            )
            yield _OnTelegram(tg, group, sink)


@dataclass
class _People:
    """``/ask@citebot`` in simulated groups: ``allowed`` and ``off`` are the chat allowlist's,
    ``outside`` another group; votes are the answer's 👍/👎."""

    world: World
    places: dict[Where, SimChat]
    asker: SimUser
    someone: SimUser

    @property
    def upstream(self) -> UpstreamSim:
        return self.world.upstream

    async def ask(self, text: str, *, where: Where = "allowed", twice: bool = False) -> Reply:
        tg = self.world.tg
        asked = await tg.user_says(self.asker, self.places[where], f"/ask@citebot {text}")
        if twice:
            [update] = [
                u for u in tg.updates.pushed if u.get("message", {}).get("message_id") == asked.id
            ]
            tg.updates.again(update)
        if where == "allowed":
            await self.world.answered()
        await self.world.idle()
        replies = self.world.answer_to(asked)
        voted = [m for m in replies if m.keyboard]
        return Reply(said=[m.readable for m in replies], answer=voted[-1] if voted else None)

    async def vote(self, reply: Reply, value: Literal["up", "down"], *, asker: bool) -> None:
        assert isinstance(reply.answer, SimMessage)
        voter = self.asker if asker else self.someone
        pressed = await self.world.tg.click(voter, reply.answer, f"{FEEDBACK}{value}")
        await self.world.tg.until(lambda: pressed.answer is not None)
        await self.world.idle()  # the vote is kept once the press is answered

    async def votes(self, reply: Reply) -> dict[str, str]:
        assert isinstance(reply.answer, SimMessage)
        chat = Chat(reply.answer.chat.id, group=True)
        kept = await self.world.service.state.feedback(answer_key(chat, reply.answer.id))
        who = {str(self.asker.id): "asker", str(self.someone.id): "someone else"}
        return {who[user]: value for user, value in kept.items()}


@asynccontextmanager
async def people_on_simulator(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> AsyncIterator[Inbound]:
    async with TelegramSim(webhook_retry=0.05) as tg:
        owner = tg.add_user("Owner", username="owner_of_it")
        asker = tg.add_user("Alice", username="alice_1", language_code="en")
        someone = tg.add_user("Bob", username="bob_2", language_code="en")
        titles: dict[Where, str] = {"allowed": "Parish", "off": "Quiet", "outside": "Elsewhere"}
        places: dict[Where, SimChat] = {}
        for where, title in titles.items():
            places[where] = tg.add_group(title, owner=owner, members=(asker, someone))
            await tg.add_bot_to(places[where], by=owner)
        allowlist = f"{places['allowed'].id},{places['off'].id}"
        async with telegram_world({"TELEGRAM_CHAT_ALLOWLIST": allowlist}, tg=tg) as world:
            off = at(f"telegram:{places['off'].id}")
            await world.service.places.set(off, "enabled", "off", by="admin")
            await world.idle()  # the bot's joining read
            yield _People(world, places, asker, someone)


PLATFORM = Conformance(
    name="telegram",
    presenter=TelegramPresenter(),
    problems=validate_telegram_payload,
    footnotes=footnotes,
    cards=cards,
    wire=on_simulator,
    inbound=people_on_simulator,
)
