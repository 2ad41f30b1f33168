"""The real aiogram Bot runs against the simulator: what it sends lands where a person sees it,
and Telegram's refusals come back as aiogram's exceptions."""

from __future__ import annotations

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputRichMessage,
    LinkPreviewOptions,
    ReplyParameters,
)

from tests.sim.telegram import SimChat, SimUser, TelegramSim

NOT_MODIFIED = (
    "Telegram server says - Bad Request: message is not modified: specified new message content"
    " and reply markup are exactly the same as a current content and reply markup of the message"
)


def _keyboard(*buttons: tuple[str, str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=text, callback_data=data) for text, data in buttons]
        ]
    )


async def _asked(tg: TelegramSim, text: str = "What is grace?") -> tuple[SimUser, SimChat]:
    alice = tg.add_user("Alice", username="alice_smith", language_code="pt-br")
    chat = tg.private_chat(alice)
    await tg.user_says(alice, chat, text)
    return alice, chat


async def test_get_me_is_the_bot_in_privacy_mode(tg: TelegramSim, bot: Bot) -> None:
    me = await bot.get_me()
    assert (me.id, me.username, me.is_bot) == (tg.bot.id, "citebot", True)
    assert me.can_read_all_group_messages is False


async def test_an_answer_replies_with_its_formatting_keyboard_and_preview(
    tg: TelegramSim, bot: Bot
) -> None:
    _, chat = await _asked(tg)
    question = tg.chat_messages(chat)[0]
    sent = await bot.send_message(
        chat.id,
        'Grace is a <b>gift</b><a href="https://example.org/ccc">¹</a>.',
        parse_mode="HTML",
        reply_parameters=ReplyParameters(message_id=question.id),
        link_preview_options=LinkPreviewOptions(is_disabled=True),
        reply_markup=_keyboard(("👍", "fb:up"), ("👎", "fb:down")),
    )
    assert sent.reply_to_message is not None
    assert sent.reply_to_message.message_id == question.id
    [answer] = tg.bot_messages(chat)
    assert answer.readable == "Grace is a **gift**[¹](https://example.org/ccc)."
    assert answer.reply_to is question
    assert answer.buttons == [("👍", "fb:up"), ("👎", "fb:down")]
    assert answer.link_preview == {"is_disabled": True}


async def test_a_reply_to_a_missing_message_is_refused_unless_allowed(
    tg: TelegramSim, bot: Bot
) -> None:
    _, chat = await _asked(tg)
    with pytest.raises(TelegramBadRequest, match="message to be replied not found"):
        await bot.send_message(chat.id, "x", reply_parameters=ReplyParameters(message_id=99))
    await bot.send_message(
        chat.id,
        "y",
        reply_parameters=ReplyParameters(message_id=99, allow_sending_without_reply=True),
    )
    assert [(m.readable, m.reply_to) for m in tg.bot_messages(chat)] == [("y", None)]


async def test_the_bot_cannot_start_a_conversation(tg: TelegramSim, bot: Bot) -> None:
    bob = tg.add_user("Bob")
    with pytest.raises(TelegramForbiddenError, match="bot can't initiate conversation with a user"):
        await bot.send_message(tg.private_chat(bob).id, "hello")
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message(-42, "hello")


async def test_edits_show_the_latest_text_and_an_identical_edit_is_not_modified(
    tg: TelegramSim, bot: Bot
) -> None:
    _, chat = await _asked(tg)
    sent = await bot.send_message(chat.id, "Grace", reply_markup=_keyboard(("👍", "fb:up")))
    await bot.edit_message_text(
        "Grace is a gift",
        chat_id=chat.id,
        message_id=sent.message_id,
        reply_markup=_keyboard(("👍", "fb:up")),
    )
    with pytest.raises(TelegramBadRequest) as same:
        await bot.edit_message_text(
            "Grace is a gift",
            chat_id=chat.id,
            message_id=sent.message_id,
            reply_markup=_keyboard(("👍", "fb:up")),
        )
    assert str(same.value) == NOT_MODIFIED
    await bot.edit_message_text("Grace is a gift.", chat_id=chat.id, message_id=sent.message_id)
    [answer] = tg.bot_messages(chat)
    assert (answer.readable, answer.edits) == ("Grace is a gift.", ["Grace", "Grace is a gift"])
    assert answer.buttons == [], "an edit without reply_markup takes the keyboard away"
    await bot.edit_message_reply_markup(
        chat_id=chat.id, message_id=sent.message_id, reply_markup=_keyboard(("More", "rq:1"))
    )
    assert answer.buttons == [("More", "rq:1")]
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("x", chat_id=chat.id, message_id=999)
    with pytest.raises(TelegramBadRequest, match="message can't be edited"):
        await bot.edit_message_text("x", chat_id=chat.id, message_id=tg.chat_messages(chat)[0].id)


async def test_a_deleted_message_is_gone(tg: TelegramSim, bot: Bot) -> None:
    _, chat = await _asked(tg)
    sent = await bot.send_message(chat.id, "oops")
    assert await bot.delete_message(chat.id, sent.message_id)
    assert tg.bot_messages(chat) == []
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(chat.id, sent.message_id)


async def test_typing_shows_until_the_bot_answers(tg: TelegramSim, bot: Bot) -> None:
    _, chat = await _asked(tg)
    await bot.send_chat_action(chat.id, "typing")
    assert tg.typing_in(chat) == "typing"
    await bot.send_message(chat.id, "Here")
    assert tg.typing_in(chat) is None
    await bot.send_chat_action(chat.id, "typing")
    tg.advance(5)
    assert tg.typing_in(chat) is None, "a chat action lasts 5 seconds"


async def test_a_draft_streams_and_the_message_that_follows_replaces_it(
    tg: TelegramSim, bot: Bot
) -> None:
    _, chat = await _asked(tg)
    await bot.send_message_draft(chat.id, draft_id=7, text="")
    await bot.send_message_draft(chat.id, draft_id=7, text="Grace is")
    await bot.send_message_draft(
        chat.id, draft_id=7, text="Grace is a <i>gift</i>", parse_mode="HTML"
    )
    [draft] = tg.drafts_in(chat)
    assert draft.history == ["", "Grace is", "Grace is a _gift_"]
    sent = await bot.send_message(chat.id, "Grace is a <i>gift</i>.", parse_mode="HTML")
    assert draft.finished_by is not None
    assert draft.finished_by.id == sent.message_id
    assert not tg.draft_vanished(draft)


async def test_a_draft_no_message_follows_vanishes_after_30_seconds(
    tg: TelegramSim, bot: Bot
) -> None:
    _, chat = await _asked(tg)
    await bot.send_message_draft(chat.id, draft_id=3, text="Half an answer")
    [draft] = tg.drafts_in(chat)
    tg.advance(29)
    assert not tg.draft_vanished(draft)
    tg.advance(1)
    assert tg.draft_vanished(draft)
    await bot.send_message(chat.id, "Later")
    assert draft.finished_by is None, "a message after the draft ran out does not finish it"


async def test_rich_messages_and_rich_drafts_show_their_blocks(tg: TelegramSim, bot: Bot) -> None:
    _, chat = await _asked(tg)
    rich = InputRichMessage(
        html=(
            '<p>Grace is a gift<sup><a href="#n1">1</a></sup>.</p>'
            "<blockquote>By grace you have been saved.<cite>Ephesians 2:8</cite></blockquote>"
            "<details><summary>Sources</summary><p>The Catechism, 1996</p></details>"
        )
    )
    await bot.send_rich_message_draft(
        chat.id, draft_id=9, rich_message=InputRichMessage(markdown="Grace is **a**")
    )
    sent = await bot.send_rich_message(chat.id, rich_message=rich)
    assert sent.rich_message is not None
    [answer] = tg.bot_messages(chat)
    assert answer.readable == (
        "Grace is a gift[1](#n1).\n> By grace you have been saved. — Ephesians 2:8\n▸ Sources\n"
        "The Catechism, 1996"
    )
    assert tg.drafts_in(chat)[0].history == ["Grace is a"]
    assert tg.drafts_in(chat)[0].finished_by is answer


async def test_a_button_press_is_answered_once_and_only_in_time(tg: TelegramSim, bot: Bot) -> None:
    alice, chat = await _asked(tg)
    sent = await bot.send_message(chat.id, "Answer", reply_markup=_keyboard(("👍", "fb:up")))
    [answer] = tg.bot_messages(chat)
    assert sent.message_id == answer.id
    press = await tg.click(alice, answer, "fb:up")
    assert await bot.answer_callback_query(press.id, text="Thanks!")
    assert (press.answered, press.answer) == (True, {"text": "Thanks!"})
    with pytest.raises(TelegramBadRequest, match="query is too old and response timeout expired"):
        await bot.answer_callback_query(press.id)
    late = await tg.click(alice, answer, "fb:up")
    tg.advance(15.1)
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query(late.id)
    with pytest.raises(AssertionError, match="no button"):
        await tg.click(alice, answer, "fb:sideways")


async def test_commands_are_kept_per_scope(tg: TelegramSim, bot: Bot) -> None:
    ask = [BotCommand(command="ask", description="Ask a question with sources")]
    await bot.set_my_commands(ask, scope=BotCommandScopeAllGroupChats())
    assert await bot.get_my_commands() == []
    assert [c.command for c in await bot.get_my_commands(scope=BotCommandScopeAllGroupChats())] == [
        "ask"
    ]


async def test_a_group_its_members_and_admins(tg: TelegramSim, bot: Bot) -> None:
    alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
    group = tg.add_group("Parish", owner=alice, members=(bob,))
    with pytest.raises(TelegramForbiddenError, match="bot is not a member of the supergroup chat"):
        await bot.send_message(group.id, "hello")
    await tg.add_bot_to(group, by=alice, admin=True)
    info = await bot.get_chat(group.id)
    assert (info.type, info.title) == ("supergroup", "Parish")
    assert (await bot.get_chat_member(group.id, bob.id)).status == "member"
    admins = await bot.get_chat_administrators(group.id)
    assert sorted(a.status for a in admins) == ["administrator", "creator"]
    outsider = tg.add_user("Carol")
    assert (await bot.get_chat_member(group.id, outsider.id)).status == "left"


async def test_a_forum_topic_keeps_its_thread(tg: TelegramSim, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    forum = tg.add_group("Study", owner=alice, forum=True)
    await tg.add_bot_to(forum, by=alice)
    topic = await tg.open_topic(forum, "Sacraments", by=alice)
    question = await tg.user_says(alice, forum, "/ask@citebot what is grace?", thread=topic)
    sent = await bot.send_message(
        forum.id,
        "Grace is a gift.",
        message_thread_id=topic,
        reply_parameters=ReplyParameters(message_id=question.id),
    )
    assert (sent.message_thread_id, sent.is_topic_message) == (topic, True)
    assert [m.readable for m in tg.bot_messages(forum, thread=topic)] == ["Grace is a gift."]
    with pytest.raises(TelegramBadRequest, match="message thread not found"):
        await bot.send_message(forum.id, "x", message_thread_id=topic + 100)


async def test_mention_words_that_would_notify_someone_are_seen(tg: TelegramSim, bot: Bot) -> None:
    alice, chat = await _asked(tg)
    await bot.send_message(chat.id, "Ask @alice_smith, or @nobody_here")
    await bot.send_message(chat.id, "Ask @\u2060alice_smith")
    assert tg.pinged() == ["@alice_smith"]
    assert alice.username == "alice_smith"
