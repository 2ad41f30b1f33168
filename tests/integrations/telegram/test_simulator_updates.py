"""Updates reach the bot as Telegram delivers them: aiogram's Dispatcher long-polls them, a
second reader is a 409, a webhook gets them signed with its secret and retried until it takes
them, and privacy mode decides which group messages arrive at all."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramConflictError
from aiogram.types import CallbackQuery, ChatMemberUpdated, Message
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

from tests.sim.telegram import SimChat, SimUser, TelegramSim


async def _group(
    tg: TelegramSim, *, admin: bool = False, forum: bool = False
) -> tuple[SimUser, SimChat]:
    alice = tg.add_user("Alice")
    group = tg.add_group("Parish", owner=alice, forum=forum)
    await tg.add_bot_to(group, by=alice, admin=admin)
    return alice, group


async def test_the_dispatcher_long_polls_messages_and_button_presses(
    tg: TelegramSim, bot: Bot
) -> None:
    seen: list[str] = []
    dispatcher = Dispatcher()

    @dispatcher.message()
    async def on_message(message: Message) -> None:
        seen.append(f"message: {message.text}")
        await message.answer(f"You asked: {message.text}")

    @dispatcher.callback_query()
    async def on_press(press: CallbackQuery) -> None:
        seen.append(f"press: {press.data}")
        await press.answer("Thanks")

    alice = tg.add_user("Alice")
    chat = tg.private_chat(alice)
    polling = asyncio.create_task(
        dispatcher.start_polling(
            bot, handle_signals=False, close_bot_session=False, polling_timeout=1
        )
    )
    try:
        await tg.user_says(alice, chat, "What is grace?")
        await tg.until(lambda: len(tg.bot_messages(chat)) == 1)
        [answer] = tg.bot_messages(chat)
        answer.keyboard = [[{"text": "👍", "callback_data": "fb:up"}]]
        press = await tg.click(alice, answer, "fb:up")
        await tg.until(lambda: press.answered)
    finally:
        await dispatcher.stop_polling()
        await polling
    assert seen == ["message: What is grace?", "press: fb:up"]
    assert answer.readable == "You asked: What is grace?"
    assert sorted(tg.requests_to("getUpdates")[0].params["allowed_updates"]) == [
        "callback_query",
        "message",
    ]


async def test_offset_confirms_and_allowed_updates_filter(tg: TelegramSim, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    chat = tg.private_chat(alice)
    await tg.user_says(alice, chat, "one")
    await tg.user_says(alice, chat, "two")
    first, second = await bot.get_updates()
    assert [u.message.text for u in (first, second) if u.message] == ["one", "two"]
    assert [u.update_id for u in await bot.get_updates(offset=second.update_id)] == [
        second.update_id
    ]
    assert (
        await bot.get_updates(offset=second.update_id + 1, allowed_updates=["callback_query"]) == []
    )
    await tg.user_says(alice, chat, "three")
    assert await bot.get_updates(offset=second.update_id + 1) == [], "allowed_updates is kept"
    assert [u.update_id for u in await bot.get_updates(limit=1, allowed_updates=[])] == []


async def test_a_second_reader_ends_the_first_with_a_conflict(tg: TelegramSim, bot: Bot) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=5))
    await tg.until(lambda: tg.updates.long_polling)
    second = asyncio.create_task(bot.get_updates(timeout=1))
    with pytest.raises(TelegramConflictError) as conflict:
        await first
    assert (
        "terminated by other getUpdates request; make sure that only one bot instance is running"
        in str(conflict.value)
    )
    assert await second == []


@pytest.fixture
async def webhook_app(bot: Bot) -> AsyncIterator[tuple[str, list[Message], list[int]]]:
    """An aiohttp app with aiogram's webhook handler, answering 500 while ``failures`` lasts."""
    dispatcher = Dispatcher()
    received: list[Message] = []
    failures: list[int] = [0]

    @dispatcher.message()
    async def keep(message: Message) -> None:
        received.append(message)

    @web.middleware
    async def flaky(request: web.Request, handler: Any) -> web.StreamResponse:
        if failures[0] > 0:
            failures[0] -= 1
            raise web.HTTPInternalServerError()
        response: web.StreamResponse = await handler(request)
        return response

    app = web.Application(middlewares=[flaky])
    SimpleRequestHandler(dispatcher, bot, secret_token="s3cret-token").register(app, path="/hook")
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    yield f"http://127.0.0.1:{runner.addresses[0][1]}/hook", received, failures
    await runner.cleanup()


async def test_a_webhook_gets_updates_with_its_secret_and_retries_failures(
    tg: TelegramSim, bot: Bot, webhook_app: tuple[str, list[Message], list[int]]
) -> None:
    url, received, failures = webhook_app
    failures[0] = 2
    assert await bot.set_webhook(url, secret_token="s3cret-token")
    with pytest.raises(
        TelegramConflictError, match="can't use getUpdates method while webhook is active"
    ):
        await bot.get_updates()
    alice = tg.add_user("Alice")
    await tg.user_says(alice, tg.private_chat(alice), "hello")
    hook = tg.updates.webhook
    assert hook is not None
    # The bot holds the message before Telegram has read its reply: wait for the reply too.
    await tg.until(lambda: len(received) == 1 and all(d["status"] for d in hook.deliveries))
    assert received[0].text == "hello"
    assert [d["status"] for d in hook.deliveries] == [500, 500, 200]
    assert all(
        d["headers"]["X-Telegram-Bot-Api-Secret-Token"] == "s3cret-token" for d in hook.deliveries
    )
    info = await bot.get_webhook_info()
    assert (info.url, info.pending_update_count) == (url, 0)
    assert info.last_error_message == "Wrong response from the webhook: 500 Internal Server Error"
    assert await bot.delete_webhook()
    assert await bot.get_updates() == []


async def test_a_webhooks_answer_can_be_a_method_telegram_runs(tg: TelegramSim) -> None:
    async def hook(request: web.Request) -> web.Response:
        update = await request.json()
        chat_id = update["message"]["chat"]["id"]
        return web.json_response(
            {"method": "sendMessage", "chat_id": chat_id, "text": "Hi from the hook"}
        )

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        await tg.updates.set_webhook({"url": f"http://127.0.0.1:{runner.addresses[0][1]}/hook"})
        alice = tg.add_user("Alice")
        chat = tg.private_chat(alice)
        await tg.user_says(alice, chat, "hello")
        await tg.until(lambda: len(tg.bot_messages(chat)) == 1)
    finally:
        await runner.cleanup()
    assert [m.readable for m in tg.bot_messages(chat)] == ["Hi from the hook"]
    assert tg.requests_to("sendMessage")[0].encoding == "webhook-reply"


async def test_privacy_mode_lets_commands_and_replies_to_the_bot_through(
    tg: TelegramSim, bot: Bot
) -> None:
    alice, group = await _group(tg)
    answer = await bot.send_message(group.id, "I answer /ask")
    bot_message = tg.bot_messages(group)[0]
    assert bot_message.id == answer.message_id
    said = {
        "chatter": await tg.user_says(alice, group, "just chatting"),
        "mention": await tg.user_says(alice, group, "@citebot what is grace?"),
        "command": await tg.user_says(alice, group, "/ask what is grace?"),
        "command to us": await tg.user_says(alice, group, "/ask@citebot what is grace?"),
        "command to another": await tg.user_says(alice, group, "/ask@otherbot what is grace?"),
        "reply to us": await tg.user_says(alice, group, "and why?", reply_to=bot_message),
        "reply to alice": await tg.user_says(
            alice, group, "me too", reply_to=tg.chat_messages(group)[2]
        ),
    }
    assert {k: m.delivered for k, m in said.items()} == {
        "chatter": False,
        "mention": False,
        "command": True,
        "command to us": True,
        "command to another": False,
        "reply to us": True,
        "reply to alice": False,
    }
    updates = await bot.get_updates(allowed_updates=["message"])
    texts = [u.message.text for u in updates if u.message and u.message.text]
    assert texts == ["/ask what is grace?", "/ask@citebot what is grace?", "and why?"]


async def test_a_bare_command_goes_to_the_last_bot_that_spoke(tg: TelegramSim, bot: Bot) -> None:
    alice, group = await _group(tg)
    other = tg.add_other_bot("otherbot")
    tg.add_member(group, other)
    assert not (await tg.user_says(alice, group, "/ask now?")).delivered
    await bot.send_message(group.id, "Here")
    assert (await tg.user_says(alice, group, "/ask now?")).delivered


async def test_an_admin_bot_or_one_without_privacy_gets_every_message(tg: TelegramSim) -> None:
    alice, admin_group = await _group(tg, admin=True)
    assert (await tg.user_says(alice, admin_group, "just chatting")).delivered
    tg.privacy_mode = False
    open_group = tg.add_group("Open", owner=alice)
    await tg.add_bot_to(open_group, by=alice)
    assert (await tg.user_says(alice, open_group, "just chatting")).delivered


async def test_in_a_topic_the_bot_opened_every_message_answers_it(tg: TelegramSim) -> None:
    alice, forum = await _group(tg, forum=True)
    theirs = await tg.open_topic(forum, "Alice's", by=alice)
    in_theirs = await tg.user_says(alice, forum, "hello", thread=theirs)
    assert in_theirs.reply_to is not None
    assert in_theirs.reply_to.service == {
        "forum_topic_created": {"name": "Alice's", "icon_color": 7322096}
    }
    assert not in_theirs.delivered
    asked = await tg.user_says(alice, forum, "/ask@citebot why?", thread=theirs)
    assert asked.delivered
    assert asked.payload()["message_thread_id"] == theirs


async def test_the_bot_hears_when_it_is_added_and_removed(tg: TelegramSim, bot: Bot) -> None:
    alice, group = await _group(tg)
    await tg.remove_bot_from(group, by=alice)
    updates = await bot.get_updates(allowed_updates=["my_chat_member", "message"])
    changes = [u.my_chat_member for u in updates if u.my_chat_member]
    assert all(isinstance(c, ChatMemberUpdated) for c in changes)
    assert [(c.old_chat_member.status, c.new_chat_member.status) for c in changes] == [
        ("left", "member"),
        ("member", "left"),
    ]
    joined = [u.message for u in updates if u.message]
    assert [[m.id for m in message.new_chat_members or []] for message in joined] == [[tg.bot.id]]
