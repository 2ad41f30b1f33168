"""The simulated Telegram refuses what Telegram refuses, in Telegram's words, and what breaks
``api.json`` where Telegram would let it pass; each refusal is a violation the test that sent it
would fail on. Requests go raw (JSON, form, multipart), since aiogram's models keep most of
these from being sent at all."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from tests.integrations.telegram.conftest import Raw
from tests.sim.telegram import SimChat, TelegramSim
from tests.sim.telegram.model import NEWER_THAN_SPEC
from tests.sim.telegram.spec import method as spec_method
from tests.sim.telegram.validate import check_object

BEGINNING = "entity beginning at UTF-16 offset"
IN_A_SYMBOL = "entity begins in a middle of a UTF-16 symbol at byte offset"


async def _dm(tg: TelegramSim) -> SimChat:
    alice = tg.add_user("Alice", username="alice")
    chat = tg.private_chat(alice)
    await tg.user_says(alice, chat, "hello")
    return chat


async def _refused(raw: Raw, tg: TelegramSim, method: str, body: dict[str, Any]) -> str:
    """Sends ``body`` as JSON; asserts a 400 and a recorded violation; returns the description."""
    status, reply = await raw(method, json=body)
    assert (status, reply["ok"], reply["error_code"]) == (400, False, 400), reply
    assert tg.take_violations(), "a refused request must be a violation"
    description: str = reply["description"]
    assert description.startswith("Bad Request: ")
    return description.removeprefix("Bad Request: ")


async def test_a_good_message_is_accepted_as_json_as_a_form_and_as_multipart(
    tg: TelegramSim, raw: Raw
) -> None:
    chat = await _dm(tg)
    markup = {"inline_keyboard": [[{"text": "👍", "callback_data": "fb:up"}]]}
    status, _ = await raw(
        "sendMessage", json={"chat_id": chat.id, "text": "a", "reply_markup": markup}
    )
    assert status == 200
    form = {"chat_id": str(chat.id), "text": "b", "reply_markup": json.dumps(markup)}
    status, _ = await raw("sendMessage", data=form)
    assert status == 200
    multipart = aiohttp.FormData()
    for key, value in {**form, "text": "c", "disable_notification": "true"}.items():
        multipart.add_field(key, value)
    multipart.add_field("unused_file", b"bytes", filename="x.txt")
    status, reply = await raw("sendMessage", data=multipart)
    assert status == 200, reply
    assert [m.readable for m in tg.bot_messages(chat)] == ["a", "b", "c"]
    assert [r.encoding for r in tg.requests_to("sendMessage")] == ["json", "form", "multipart"]
    assert all(m.buttons == [("👍", "fb:up")] for m in tg.bot_messages(chat))


async def test_an_unknown_method_is_not_found(tg: TelegramSim, raw: Raw) -> None:
    status, reply = await raw("sendMesage", json={"chat_id": 1, "text": "x"})
    assert (status, reply["description"]) == (404, "Not Found: method not found")
    assert [v.method for v in tg.take_violations()] == ["sendMesage"]


async def test_method_names_are_case_insensitive_as_telegrams(tg: TelegramSim, raw: Raw) -> None:
    status, reply = await raw("GETME", json={})
    assert status == 200
    assert reply["result"]["username"] == "citebot"
    assert tg.requests[-1].method == "getMe"


async def test_a_wrong_token_is_unauthorized(tg: TelegramSim) -> None:
    async with aiohttp.ClientSession() as session:
        url = f"{tg.base_url}/bot1:wrong/getMe"
        async with session.post(url) as reply:
            assert reply.status == 401
            assert await reply.json() == {
                "ok": False,
                "error_code": 401,
                "description": "Unauthorized",
            }


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ({"reply_to_message_id": 1}, "unknown parameter 'reply_to_message_id'"),
        ({"disable_web_page_preview": True}, "unknown parameter 'disable_web_page_preview'"),
        ({"disable_notification": "yes please"}, "'yes please' is not Boolean"),
        ({"link_preview_options": {"is_disabled": True, "nope": 1}}, "unknown field 'nope'"),
        (
            {"reply_parameters": {"message_id": "1"}},
            "reply_parameters.message_id: expected Integer",
        ),
        ({"reply_parameters": {}}, "reply_parameters.message_id: required field"),
        (
            {"reply_markup": {"inline_keyboard": [{"text": "x"}]}},
            "expected Array of InlineKeyboardButton",
        ),
        ({"message_thread_id": 1.5}, "message_thread_id: expected Integer, got Float"),
    ],
)
async def test_what_the_spec_does_not_allow_is_refused(
    tg: TelegramSim, raw: Raw, extra: dict[str, Any], problem: str
) -> None:
    chat = await _dm(tg)
    description = await _refused(raw, tg, "sendMessage", {"chat_id": chat.id, "text": "x", **extra})
    assert problem in description


async def test_required_parameters_missing_are_refused_as_telegram_words_it(
    tg: TelegramSim, raw: Raw
) -> None:
    chat = await _dm(tg)
    assert await _refused(raw, tg, "sendMessage", {"text": "x"}) == "chat_id is empty"
    assert await _refused(raw, tg, "sendMessage", {"chat_id": chat.id}) == "message text is empty"
    description = await _refused(raw, tg, "answerCallbackQuery", {"text": "x"})
    assert description == "answerCallbackQuery.callback_query_id: required parameter is missing"


async def test_callback_data_is_1_to_64_bytes(tg: TelegramSim, raw: Raw) -> None:
    chat = await _dm(tg)
    fits = {"text": "é", "callback_data": "é" * 32}  # 64 bytes, 32 characters
    status, _ = await raw(
        "sendMessage",
        json={"chat_id": chat.id, "text": "x", "reply_markup": {"inline_keyboard": [[fits]]}},
    )
    assert status == 200
    over = {"text": "é", "callback_data": "é" * 32 + "a"}
    body = {"chat_id": chat.id, "text": "x", "reply_markup": {"inline_keyboard": [[over]]}}
    assert await _refused(raw, tg, "sendMessage", body) == "BUTTON_DATA_INVALID"


async def test_values_the_descriptions_enumerate_are_checked(tg: TelegramSim, raw: Raw) -> None:
    chat = await _dm(tg)
    body = {"chat_id": chat.id, "action": "thinking"}
    assert await _refused(raw, tg, "sendChatAction", body) == "wrong parameter action in request"
    entity = {"type": "sparkle", "offset": 0, "length": 1}
    body = {"chat_id": chat.id, "text": "x", "entities": [entity]}
    description = await _refused(raw, tg, "sendMessage", body)
    assert description == "can't parse MessageEntity: Unsupported type specified"
    button = {"text": "x", "callback_data": "x", "style": "purple"}
    body = {"chat_id": chat.id, "text": "x", "reply_markup": {"inline_keyboard": [[button]]}}
    assert "'purple' is not one of danger, success, primary" in await _refused(
        raw, tg, "sendMessage", body
    )


async def test_the_documented_ranges_are_checked(tg: TelegramSim, raw: Raw) -> None:
    assert "getUpdates.limit: must be 1-100" in await _refused(
        raw, tg, "getUpdates", {"limit": 101}
    )
    commands = [{"command": "a" * 33, "description": "Ask"}]
    description = await _refused(raw, tg, "setMyCommands", {"commands": commands})
    assert "commands[0].command: must be 1-32 characters" in description
    hook = {"url": "https://example.org/hook", "secret_token": "not allowed!"}
    assert (
        await _refused(raw, tg, "setWebhook", hook) == "secret token contains unallowed characters"
    )
    hook["secret_token"] = "s" * 257
    assert await _refused(raw, tg, "setWebhook", hook) == "secret token is too long"


@pytest.mark.parametrize(
    ("text", "mode", "error"),
    [
        ("<b>bold", "HTML", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<p>para</p>", "HTML", 'Unsupported start tag "p" at byte offset 0'),
        ("<b>x</i>", "HTML", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("x</b>", "HTML", "Unexpected end tag at byte offset 1"),
        (
            '<span class="x">s</span>',
            "HTML",
            'Tag "span" must have class "tg-spoiler" at byte offset 0',
        ),
        (
            "Version 1.0",
            "MarkdownV2",
            "Character '.' is reserved and must be escaped with the preceding '\\'",
        ),
        ("🏟 🏟_abacaba", "MarkdownV2", "Can't find end of Italic entity at byte offset 9"),
        ("🏟 🏟_abac * asd ", "MarkdownV2", "Can't find end of Bold entity at byte offset 15"),
        ("[a](https://example.org", "MarkdownV2", "Can't find end of a URL at byte offset 4"),
        ("*open", "Markdown", "Can't find end of the entity starting at byte offset 0"),
    ],
)
async def test_markup_is_parsed_as_telegram_parses_it(
    tg: TelegramSim, raw: Raw, text: str, mode: str, error: str
) -> None:
    chat = await _dm(tg)
    description = await _refused(
        raw, tg, "sendMessage", {"chat_id": chat.id, "text": text, "parse_mode": mode}
    )
    assert description == f"can't parse entities: {error}"


async def test_parsed_markup_shows_as_its_entities(tg: TelegramSim, raw: Raw) -> None:
    chat = await _dm(tg)
    html = 'a &lt; b &amp; <b>c</b> <a href="https://example.org">d</a> <a href="localhost">e</a>'
    await raw("sendMessage", json={"chat_id": chat.id, "text": html, "parse_mode": "html"})
    v2 = "*bold* _it_ __under__ ~strike~ ||spoiler|| `code` [link](https://example.org/a\\)b) 1\\.0"
    await raw("sendMessage", json={"chat_id": chat.id, "text": v2, "parse_mode": "MarkdownV2"})
    first, second = tg.bot_messages(chat)
    assert first.readable == "a < b & **c** [d](https://example.org/) e"
    assert second.readable == (
        "**bold** _it_ __under__ ~~strike~~ ||spoiler|| `code` [link](https://example.org/a)b) 1.0"
    )


async def test_an_unknown_parse_mode_is_refused(tg: TelegramSim, raw: Raw) -> None:
    chat = await _dm(tg)
    body = {"chat_id": chat.id, "text": "x", "parse_mode": "Markdown3"}
    assert await _refused(raw, tg, "sendMessage", body) == "unsupported parse_mode"


@pytest.mark.parametrize(
    ("text", "span", "error"),
    [
        ("x", (0, 2), f"{BEGINNING} 0 ends after the end of the text at UTF-16 offset 2"),
        ("abc", (5, 1), "entity begins after the end of the text at UTF-16 offset 5"),
        ("😀x", (1, 2), f"{IN_A_SYMBOL} 0"),
        ("x😀", (0, 2), f"{BEGINNING} 0 ends in a middle of a UTF-16 symbol at byte offset 1"),
    ],
)
async def test_entities_are_checked_in_utf16_units(
    tg: TelegramSim, raw: Raw, text: str, span: tuple[int, int], error: str
) -> None:
    chat = await _dm(tg)
    entity = {"type": "bold", "offset": span[0], "length": span[1]}
    body = {"chat_id": chat.id, "text": text, "entities": [entity]}
    assert await _refused(raw, tg, "sendMessage", body) == error


async def test_entities_in_utf16_units_that_fit_are_kept(tg: TelegramSim, raw: Raw) -> None:
    chat = await _dm(tg)
    body = {
        "chat_id": chat.id,
        "text": "😀 grace",
        "entities": [{"type": "bold", "offset": 3, "length": 5}],
    }
    status, _ = await raw("sendMessage", json=body)
    assert status == 200
    assert tg.bot_messages(chat)[0].readable == "😀 **grace**"


async def test_the_length_limit_counts_characters_after_parsing(tg: TelegramSim, raw: Raw) -> None:
    chat = await _dm(tg)
    emoji = {"chat_id": chat.id, "text": "😀" * 4096}  # 8,192 UTF-16 units: Telegram takes it
    assert (await raw("sendMessage", json=emoji))[0] == 200
    tags = {"chat_id": chat.id, "text": "<b>" + "x" * 4096 + "</b>", "parse_mode": "HTML"}
    assert (await raw("sendMessage", json=tags))[0] == 200
    assert (
        await _refused(raw, tg, "sendMessage", {**emoji, "text": "😀" * 4097})
        == "message is too long"
    )


async def test_empty_and_blank_texts_are_refused(tg: TelegramSim, raw: Raw) -> None:
    chat = await _dm(tg)
    assert (
        await _refused(raw, tg, "sendMessage", {"chat_id": chat.id, "text": ""})
        == "message text is empty"
    )
    assert (
        await _refused(raw, tg, "sendMessage", {"chat_id": chat.id, "text": " \n "})
        == "text must be non-empty"
    )
    body = {"chat_id": chat.id, "text": "<b> </b>", "parse_mode": "HTML"}
    assert await _refused(raw, tg, "sendMessage", body) == "text must be non-empty"


async def test_drafts_are_for_private_chats_with_a_non_zero_id(tg: TelegramSim, raw: Raw) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("Parish", owner=alice)
    await tg.add_bot_to(group, by=alice)
    status, reply = await raw(
        "sendMessageDraft", json={"chat_id": group.id, "draft_id": 1, "text": "x"}
    )
    assert (status, reply["description"]) == (400, "Bad Request: TEXTDRAFT_PEER_INVALID")
    chat = await _dm(tg)
    assert (
        await _refused(raw, tg, "sendMessageDraft", {"chat_id": chat.id, "draft_id": 0})
        == "draft_id must be non-zero"
    )


@pytest.mark.parametrize(
    ("rich", "error"),
    [
        ({"html": "<div>x</div>"}, 'unsupported tag "div"'),
        ({"html": "x &copy;"}, "unsupported entity &copy;"),
        ({"html": "<p>x</p>", "markdown": "x"}, "exactly one of html or markdown must be used"),
        ({"html": "<p>" + "x" * 32769 + "</p>"}, "more than 32768 characters"),
        ({"html": "<p>x</p>" * 501}, "more than 500 blocks"),
        (
            {"html": "<blockquote>" * 17 + "x" + "</blockquote>" * 17},
            "nested deeper than 16 levels",
        ),
    ],
)
async def test_rich_messages_keep_to_the_documented_formatting(
    tg: TelegramSim, raw: Raw, rich: dict[str, str], error: str
) -> None:
    chat = await _dm(tg)
    description = await _refused(
        raw, tg, "sendRichMessage", {"chat_id": chat.id, "rich_message": rich}
    )
    assert description == f"can't parse rich message: {error}"


async def test_rich_messages_are_checked_by_the_same_type_validator(
    tg: TelegramSim, raw: Raw
) -> None:
    chat = await _dm(tg)
    body = {"chat_id": chat.id, "rich_message": {"html": "<p>x</p>", "is_rtl": "no"}}
    assert "rich_message.is_rtl: expected Boolean, got String" in await _refused(
        raw, tg, "sendRichMessage", body
    )
    body = {"chat_id": chat.id, "rich_message": {"html": "<p>x</p>", "blocks": []}}
    assert "unknown field 'blocks' of InputRichMessage" in await _refused(
        raw, tg, "sendRichMessage", body
    )


def test_every_method_the_simulator_models_is_in_the_spec(tg: TelegramSim) -> None:
    assert [name for name in tg.handlers if spec_method(name) is None] == []


async def test_every_answer_and_update_the_simulator_sends_is_in_the_spec(
    tg: TelegramSim, raw: Raw
) -> None:
    chat = await _dm(tg)
    alice = tg.users[chat.id]
    group = tg.add_group("Parish", owner=alice, forum=True)
    await tg.add_bot_to(group, by=alice, admin=True)
    topic = await tg.open_topic(group, "Questions", by=alice)
    markup = {"inline_keyboard": [[{"text": "👍", "callback_data": "fb:up"}]]}
    await raw(
        "sendMessage",
        json={"chat_id": chat.id, "text": "<b>x</b>", "parse_mode": "HTML", "reply_markup": markup},
    )
    await raw("sendMessage", json={"chat_id": group.id, "text": "y", "message_thread_id": topic})
    await raw("sendRichMessage", json={"chat_id": chat.id, "rich_message": {"html": "<p>r</p>"}})
    await tg.click(alice, tg.bot_messages(chat)[0], "fb:up")
    await tg.user_says(alice, group, "/ask@citebot why?", thread=topic)
    for name, params in [
        ("getMe", {}),
        ("getChat", {"chat_id": group.id}),
        ("getChatMember", {"chat_id": group.id, "user_id": alice.id}),
        ("getChatAdministrators", {"chat_id": group.id}),
        ("getWebhookInfo", {}),
    ]:
        await raw(name, json=params)
    status, updates = await raw("getUpdates", json={})
    assert status == 200
    returned = {
        "sendMessage": "Message", "sendRichMessage": "Message", "getMe": "User",
        "getChat": "ChatFullInfo", "getChatMember": "ChatMember", "getWebhookInfo": "WebhookInfo",
        "getChatAdministrators": "Array of ChatMember",
    }  # fmt: skip
    problems = [
        (r.method, p)
        for r in tg.requests
        if r.method in returned
        for p in check_object(r.reply["result"], returned[r.method])
    ]
    problems += [
        (str(u["update_id"]), p) for u in updates["result"] for p in check_object(u, "Update")
    ]
    newer = [
        f"unknown field {name!r} of {kind}"
        for kind, names in NEWER_THAN_SPEC.items()
        for name in names
    ]
    assert [(where, p) for where, p in problems if not any(p.endswith(n) for n in newer)] == []
    assert {next(k for k in u if k != "update_id") for u in updates["result"]} == {
        "message", "my_chat_member", "callback_query",
    }  # fmt: skip
