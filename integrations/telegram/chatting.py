"""What citebot says in a chat outside an answer (its settings, its report, a forget-me) and
how it answers a button press: one message in Telegram's HTML, replying to the message that
asked (in its forum topic), within the chat's pace."""

from __future__ import annotations

import logging
from typing import Any

from aiogram.exceptions import TelegramAPIError
from aiogram.types import CallbackQuery, Message, Update, User

from bot.adapter import Arrival, Heard, Venue
from bot.i18n.wording import catalogue_language
from bot.render.ports import Payload
from bot.render.text import clip
from integrations.telegram.limits import CALLBACK_TEXT
from integrations.telegram.place import Chat
from integrations.telegram.presenter import NO_PREVIEW
from integrations.telegram.wire import TelegramApi, said

__all__ = [
    "answer_press",
    "arrival",
    "chat_of",
    "fence",
    "keyboard",
    "reply",
    "show",
    "topic_of",
]

log = logging.getLogger(__name__)


def chat_of(message: Message) -> Chat:
    return Chat(message.chat.id, group=message.chat.type != "private")


def fence(chat: Chat) -> Venue:
    """Where a question is asked, as the allowlist sees it: a group, or a private chat (the
    person's own id)."""
    return Venue(server=str(chat.id), direct=not chat.group)


def arrival(update: Update, message: Message, user: User, heard: Heard = Heard.MENTION) -> Arrival:
    """An update as the kit takes it: claimed by its ``update_id``, fenced by its chat, in
    the person's Telegram language."""
    return Arrival(
        keys=(f"update:{update.update_id}",),
        venue=fence(chat_of(message)),
        heard=heard,
        language=catalogue_language(user.language_code),
    )


def topic_of(message: Message) -> int | None:
    """The forum topic ``message`` is in."""
    return message.message_thread_id if message.is_topic_message else None


def keyboard(rows: list[list[tuple[str, str]]]) -> dict[str, Any]:
    """Inline buttons, each ``(text, callback_data)``."""
    return {
        "inline_keyboard": [
            [{"text": text, "callback_data": data} for text, data in row] for row in rows
        ]
    }


async def reply(
    api: TelegramApi,
    message: Message,
    html: str,
    *,
    buttons: dict[str, Any] | None = None,
    to: int | None = None,
) -> int | None:
    """Say ``html`` in reply to ``message`` (a group's reply; a private chat's plain
    message), or to the message ``to`` of its chat; the id of the message said."""
    chat = chat_of(message)
    payload: Payload = {
        "method": "sendMessage",
        "chat_id": chat.id,
        "text": html,
        "parse_mode": "HTML",
        "link_preview_options": NO_PREVIEW,
    }
    topic = topic_of(message)
    if topic is not None:
        payload["message_thread_id"] = topic
    if chat.group:
        payload["reply_parameters"] = {
            "message_id": to or message.message_id,
            "allow_sending_without_reply": True,
        }
    if buttons is not None:
        payload["reply_markup"] = buttons
    written, message_id = await api.write(payload, chat=chat, skippable=False)
    return message_id if written else None


async def show(
    api: TelegramApi, message: Message, html: str, *, buttons: dict[str, Any] | None = None
) -> None:
    """Show ``html`` in citebot's own ``message`` instead of what it said (``buttons``, else
    none)."""
    chat = chat_of(message)
    payload: Payload = {
        "method": "editMessageText",
        "chat_id": chat.id,
        "message_id": message.message_id,
        "text": html,
        "parse_mode": "HTML",
        "link_preview_options": NO_PREVIEW,
        "reply_markup": buttons or {"inline_keyboard": []},
    }
    await api.write(payload, chat=chat, skippable=False)


async def answer_press(
    api: TelegramApi, query: CallbackQuery, text: str = "", alert: bool = False
) -> None:
    """Answer a button press (Telegram waits about 15 s for it), with a notification
    ``text`` (an ``alert`` the person closes)."""
    payload: Payload = {"method": "answerCallbackQuery", "callback_query_id": query.id}
    if text:
        payload.update(text=clip(text, CALLBACK_TEXT), show_alert=alert)
    try:
        await api.call(payload)
    except TelegramAPIError as error:  # too late: the press is still acted on
        log.info("could not answer a button press: %s", said(error, api.token))
