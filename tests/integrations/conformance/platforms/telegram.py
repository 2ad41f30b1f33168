"""Telegram for the conformance suite: payloads checked by the simulator's rules (``api.json``,
the HTML and rich messages as Telegram parses them) and citebot's promises, the answer read as
Telegram shows its HTML, cards read by the numbers leading their titles; the wire is the answer
sink on the simulated Telegram, answering ``/ask`` in a group where people named like the
mention words (@everyone, @channel) would be notified by a live mention."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from bot.budgets import WriteBudget
from bot.i18n.wording import ENGLISH_LABELS
from bot.render.ports import Payload
from integrations.telegram.cards import SEPARATOR, parts_of
from integrations.telegram.pace import pace_limits
from integrations.telegram.place import Chat, Place
from integrations.telegram.presenter import TelegramPresenter
from integrations.telegram.sink import TelegramSink
from integrations.telegram.thread import Abilities
from integrations.telegram.wire import TelegramApi
from tests.integrations.conformance.kit import Conformance, Wire
from tests.integrations.telegram.payloads import validate_telegram_payload
from tests.integrations.telegram.reading import card_heads, read_telegram
from tests.integrations.telegram.world import QUICK
from tests.sim.telegram import SimChat, TelegramSim


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


PLATFORM = Conformance(
    name="telegram",
    presenter=TelegramPresenter(),
    problems=validate_telegram_payload,
    footnotes=footnotes,
    cards=cards,
    wire=on_simulator,
)
