"""Telegram's message pace: a 429 with ``parameters.retry_after`` that aiogram raises as
``TelegramRetryAfter``, injected or earned by sending too fast, and gone once the client waited
the seconds it was told."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramRetryAfter

from tests.sim.telegram import RateLimits, SimChat, TelegramSim


async def _chat(tg: TelegramSim) -> SimChat:
    alice = tg.add_user("Alice")
    chat = tg.private_chat(alice)
    await tg.user_says(alice, chat, "hi")
    return chat


async def test_an_injected_429_carries_retry_after_and_aiogram_raises_it(
    tg: TelegramSim, bot: Bot
) -> None:
    chat = await _chat(tg)
    tg.rate_limit_next("sendMessage", retry_after=3)
    with pytest.raises(TelegramRetryAfter) as limited:
        await bot.send_message(chat.id, "x")
    assert limited.value.retry_after == 3
    assert tg.requests[-1].reply == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 3",
        "parameters": {"retry_after": 3},
    }
    await bot.send_message(chat.id, "x")
    assert [m.readable for m in tg.bot_messages(chat)] == ["x"]
    assert tg.take_violations() == [], "a 429 is Telegram's doing, not the client's"


async def test_one_message_a_second_in_a_chat_until_the_client_waits() -> None:
    async with TelegramSim(rate_limits=RateLimits()) as tg:
        chat = await _chat(tg)
        status, _ = await _send(tg, chat, "first")
        assert status == 200
        status, reply = await _send(tg, chat, "second")
        assert (status, reply["parameters"]) == (429, {"retry_after": 1})
        await _send(tg, chat, "edit", method="editMessageText", message_id=2)
        assert tg.requests[-1].status == 429, "an edit counts like a send"
        tg.advance(reply["parameters"]["retry_after"])
        assert (await _send(tg, chat, "second"))[0] == 200
        assert [m.readable for m in tg.bot_messages(chat)] == ["first", "second"]


async def test_twenty_messages_a_minute_in_a_group() -> None:
    async with TelegramSim(rate_limits=RateLimits()) as tg:
        alice = tg.add_user("Alice")
        group = tg.add_group("Parish", owner=alice)
        await tg.add_bot_to(group, by=alice)
        for _ in range(20):
            assert (await _send(tg, group, "x"))[0] == 200
            tg.advance(1)
        status, reply = await _send(tg, group, "one too many")
        assert status == 429
        assert reply["parameters"]["retry_after"] == 40, "the first of the twenty was 40 s ago"
        tg.advance(40)
        assert (await _send(tg, group, "now"))[0] == 200


async def test_drafts_and_chat_actions_are_not_paced() -> None:
    async with TelegramSim(rate_limits=RateLimits()) as tg:
        chat = await _chat(tg)
        for text in ("a", "ab", "abc"):
            assert (await _send(tg, chat, text, method="sendMessageDraft", draft_id=1))[0] == 200
        assert (await _send(tg, chat, "abc"))[0] == 200
        assert (await _send(tg, chat, "", method="sendChatAction", action="typing"))[0] == 200


async def _send(
    tg: TelegramSim, chat: SimChat, text: str, *, method: str = "sendMessage", **extra: object
) -> tuple[int, dict[str, Any]]:
    body: dict[str, object] = {"chat_id": chat.id, **extra}
    if method != "sendChatAction":
        body["text"] = text
    async with aiohttp.ClientSession() as session:
        url = f"{tg.base_url}/bot{tg.token}/{method}"
        async with session.post(url, json=body) as reply:
            answer: dict[str, Any] = await reply.json()
            return reply.status, answer
