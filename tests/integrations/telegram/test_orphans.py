"""Closing a Telegram answer whose worker died: the real sink writes part of an answer, then the
closer another worker would run finishes it from the record (the sink's whereabouts) alone. The
whole path, with a real SIGKILL, is in ``test_workers.py``; here each place an answer can be
left in is set up on purpose."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from bot.budgets import WriteBudget
from integrations.telegram.orphans import TelegramOrphans
from integrations.telegram.pace import pace_limits
from integrations.telegram.place import Chat, Place
from integrations.telegram.presenter import TelegramPresenter
from integrations.telegram.sink import TelegramSink
from integrations.telegram.thread import Abilities
from integrations.telegram.wire import TelegramApi
from tests.integrations.orphaned import close_left
from tests.integrations.telegram.world import QUICK
from tests.sim.telegram import SimChat, TelegramSim

PRESENTER = TelegramPresenter()
HALF = PRESENTER.answer_message("Hope is a <b>theological</b> virtue, and", feedback=False)


@pytest.fixture
async def api(tg: TelegramSim) -> AsyncIterator[TelegramApi]:
    session = AiohttpSession(api=TelegramAPIServer.from_base(tg.base_url))
    async with Bot(tg.token, session=session) as bot:
        yield TelegramApi(bot, budget=WriteBudget(pace_limits(QUICK)))


async def asked(tg: TelegramSim, *, group: bool) -> tuple[SimChat, int]:
    alice = tg.add_user("Alice", username="alice_smith")
    chat = tg.private_chat(alice)
    if group:
        chat = tg.add_group("Parish", owner=alice)
        await tg.add_bot_to(chat, by=alice)
    question = await tg.user_says(alice, chat, "/ask@citebot what is hope?")
    return chat, question.id


def sink(api: TelegramApi, chat: SimChat, question: int) -> TelegramSink:
    return TelegramSink(
        api=api,
        place=Place(Chat(chat.id, group=chat.kind != "private"), question=question),
        abilities=Abilities(),
        draft_id=32,
    )


async def close(api: TelegramApi, left: TelegramSink, language: str | None = None) -> None:
    """What another worker does with the dead worker's record."""
    hook = TelegramOrphans(api=api)
    await close_left(
        hook, PRESENTER, platform="telegram", where=left.whereabouts(), language=language
    )


async def test_a_draft_left_behind_becomes_a_message_with_the_note(
    tg: TelegramSim, api: TelegramApi
) -> None:
    chat, question = await asked(tg, group=False)
    left = sink(api, chat, question)
    await left.show([HALF], final=False)
    [draft] = tg.drafts_in(chat)
    await close(api, left, "pt_BR")

    [message] = tg.bot_messages(chat)
    assert draft.finished_by is message
    assert message.readable == (
        "Hope is a **theological** virtue, and\n\n_A resposta foi interrompida antes de terminar;"
        " o que você vê acima é o que chegou. Pergunte novamente para receber o restante._"
    )


async def test_a_message_left_half_written_gets_the_note_as_a_reply(
    tg: TelegramSim, api: TelegramApi
) -> None:
    chat, question = await asked(tg, group=True)
    left = sink(api, chat, question)
    await left.show([HALF], final=False)
    await close(api, left)

    half, note = tg.bot_messages(chat)
    assert half.readable == "Hope is a **theological** virtue, and"
    assert note.reply_to is half
    assert note.readable.startswith("_The answer was interrupted before it finished")


async def test_an_answer_that_showed_nothing_says_citebot_is_restarting(
    tg: TelegramSim, api: TelegramApi
) -> None:
    chat, question = await asked(tg, group=True)
    await close(api, sink(api, chat, question))
    [note] = tg.bot_messages(chat)
    assert note.readable == "citebot is restarting. Please ask again in a moment."
    assert note.reply_to is not None
    assert note.reply_to.id == question
