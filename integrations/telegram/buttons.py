"""The buttons under an answer that a group's admins set up: "Ask the sources" under an own
answer, "Ask a person" where ``handoff`` is ``admins``.

The kit decides (:mod:`bot.kit_community`): only the asker's press acts, once. Here a press
becomes the answer's key (the message the button is on), and the kit's decision is shown: the
question asked again of the sources, in the answer's conversation, or the one message that
names the group's administrators, each by a text mention (which notifies them, whatever their
username), in reply to the answer; the asker is named in plain text (no one else is notified).
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from aiogram.exceptions import TelegramAPIError
from aiogram.types import CallbackQuery, Message, User

from bot.adapter import Admitted, Handoff, Kit
from integrations.telegram.cards import ACTION
from integrations.telegram.chatting import answer_press, chat_of, reply
from integrations.telegram.markdown import TelegramHTML
from integrations.telegram.place import Chat, answer_key
from integrations.telegram.wire import TelegramApi, said

__all__ = ["AnswerButtons", "handoff_html", "question_link"]

log = logging.getLogger(__name__)

_HTML = TelegramHTML()
MOST_MENTIONED = 20
"""Administrators one "Ask a person" names: a big group's whole staff would bury the message."""

AskAgain = Callable[[str, User, Message, Admitted], Coroutine[Any, Any, None]]
"""Ask a question again of the sources, as ``user``, in the conversation of ``message``."""


def question_link(chat: Chat, message_id: int) -> str | None:
    """A link to a message of a supergroup (``t.me/c/…``); None elsewhere (a basic group's
    messages have no link)."""
    text = str(chat.id)
    if not text.startswith("-100"):
        return None
    return f"https://t.me/c/{text.removeprefix('-100')}/{message_id}"


def handoff_html(handoff: Handoff, admins: list[User], asker: str, link: str | None) -> str:
    """The one message "Ask a person" posts: each administrator a text mention, the asker
    named, the link to the answer."""
    words = handoff.words
    mentions = ", ".join(
        f'<a href="tg://user?id={admin.id}">{html.escape(admin.full_name)}</a>'
        for admin in admins[:MOST_MENTIONED]
    )
    said = _HTML.escape(words.handoff_request("\x00", "\x01"), line_start=True)
    text = said.replace("\x00", mentions).replace("\x01", _HTML.escape(asker, line_start=False))
    if link is None:
        return text
    label = _HTML.escape(words.handoff_question(), line_start=False)
    return f'{text}\n<a href="{html.escape(link)}">{label}</a>'


class AnswerButtons:
    def __init__(self, *, api: TelegramApi, kit: Kit, ask_again: AskAgain) -> None:
        self._api = api
        self._kit = kit
        self._ask_again = ask_again

    async def pressed(
        self, query: CallbackQuery, message: Message, data: str, admitted: Admitted
    ) -> None:
        """A button of :data:`~integrations.telegram.cards.ACTION` (claimed, and the place let
        through, already)."""
        chat = chat_of(message)
        key = answer_key(chat, message.message_id)
        person, language = str(query.from_user.id), admitted.language
        if data == f"{ACTION}ask_sources":
            asked = await self._kit.sources_asked(answer_key=key, user_id=person, language=language)
            if isinstance(asked, str):
                await answer_press(self._api, query, asked, alert=True)
                return
            await answer_press(self._api, query)
            await self._ask_again(asked.text, query.from_user, message, admitted)
        elif data == f"{ACTION}ask_person":
            handed = await self._kit.person_asked(answer_key=key, user_id=person, language=language)
            if isinstance(handed, str):
                await answer_press(self._api, query, handed, alert=True)
                return
            await answer_press(self._api, query, self._kit.wording(language).handoff_done())
            await self._post(handed, query.from_user, message)
        else:
            await answer_press(self._api, query)

    async def _post(self, handoff: Handoff, asker: User, message: Message) -> None:
        chat = chat_of(message)
        try:
            members = await self._api.call({"method": "getChatAdministrators", "chat_id": chat.id})
        except TelegramAPIError as error:
            log.warning("Telegram: no administrators to ask (%s)", said(error, self._api.token))
            return
        admins = [member.user for member in members if not member.user.is_bot]
        link = question_link(chat, message.message_id)
        await reply(self._api, message, handoff_html(handoff, admins, asker.full_name, link))
