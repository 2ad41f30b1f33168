"""Telegram updates in, answers out: a message or a button press becomes a
:class:`bot.answer.Question`, a :class:`bot.kit.Place` and a :class:`TelegramSink`, and the
platform kit does the rest.

Every update is claimed by its ``update_id`` before anything is done, so a reader handed over
between workers, or a webhook delivery Telegram repeats, answers nothing twice; the answer runs
as a task the kit drains on shutdown. Every way in passes the kit's one authorization check:
a group by its id, a private chat by the person's (a bot can be messaged by anyone, so a
private chat passes only an allowlist that names it). A conversation is a chain of replies:
each message citebot posts is noted with its conversation (:meth:`PlatformKit.join_thread`),
and a reply to one continues it, with the replied message itself as context where the
conversation was forgotten. Each person reads citebot's words in their Telegram language.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import replace

from aiogram.exceptions import TelegramAPIError
from aiogram.types import CallbackQuery, Message, Update, User

from bot.answer import Question
from bot.i18n.wording import catalogue_language
from bot.kit import Place as Fence
from bot.kit import PlatformKit
from bot.render.dialect import ZWSP
from bot.render.ports import Payload
from bot.render.text import clip
from bot.upstream.events import Turn
from integrations.telegram.cards import FEEDBACK, RELATED
from integrations.telegram.conversation import Asked, asked
from integrations.telegram.limits import CALLBACK_TEXT
from integrations.telegram.place import Chat, Place, answer_key
from integrations.telegram.sink import TelegramSink
from integrations.telegram.thread import Abilities
from integrations.telegram.wire import TelegramApi, said

__all__ = ["ALLOWED_UPDATES", "TelegramBot"]

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ("message", "callback_query")
"""What the bot asks Telegram for: messages (private chats, and what privacy mode lets through
in groups) and button presses."""


def _fence(chat: Chat) -> Fence:
    """Where a question is asked, as the allowlist sees it: a group, or a private chat (the
    person's own id)."""
    return Fence(server=str(chat.id), direct=not chat.group)


def _chat(message: Message) -> Chat:
    return Chat(message.chat.id, group=message.chat.type != "private")


class TelegramBot:
    """One bot's handlers; :meth:`handle` takes every update, however it came."""

    def __init__(
        self,
        *,
        api: TelegramApi,
        kit: PlatformKit,
        me: User,
        abilities: Abilities | None = None,
        edit_interval: float = 3.0,
    ) -> None:
        self.api = api
        self.kit = kit
        self.me = me
        self.abilities = abilities or Abilities()
        self.edit_interval = edit_interval

    async def handle(self, update: Update) -> None:
        """Claim an update meant for citebot and hand its answer to a task; fast, so that a
        reader or a webhook delivery is never held up by an answer."""
        if update.message is not None:
            wanted = asked(update.message, self.me)
            if wanted is not None and await self._claim(update):
                self.kit.spawn(self._answer(update.message, wanted))
        elif update.callback_query is not None:
            data = update.callback_query.data or ""
            if data.startswith((FEEDBACK, RELATED)) and await self._claim(update):
                await self._on_button(update.callback_query, data)

    async def _claim(self, update: Update) -> bool:
        return await self.kit.claim(f"update:{update.update_id}")

    # -- questions ------------------------------------------------------------------------------
    async def _answer(self, message: Message, wanted: Asked) -> None:
        user = message.from_user
        assert user is not None
        chat = _chat(message)
        topic = message.message_thread_id if message.is_topic_message else None
        replied = wanted.replied
        thread = await self._thread_of(chat, replied.message_id) if replied else None
        await self._ask(
            wanted,
            text=wanted.text,
            user=user,
            place=Place(chat, topic=topic, question=message.message_id),
            thread=thread or str(message.message_id),
            context=replied.text if replied is not None and not thread else None,
        )

    async def _ask(
        self,
        wanted: Asked,
        *,
        text: str,
        user: User,
        place: Place,
        thread: str,
        context: str | None = None,
    ) -> None:
        """Answer ``text`` asked by ``user`` at ``place``, in conversation ``thread``
        (``context``: the bot's message a reply answers, where its conversation was
        forgotten)."""
        chat = place.chat
        language = catalogue_language(user.language_code)

        async def posted(message_id: int) -> None:
            await self.kit.join_thread(f"{chat.id}:{message_id}", thread)

        sink = TelegramSink(
            api=self.api,
            place=place,
            abilities=self.abilities,
            draft_id=(secrets.randbelow(2**26) + 1) * 16,
            on_posted=posted,
            edit_interval=self.edit_interval,
        )
        refusal = await self.kit.refusal(_fence(chat), language)
        if refusal is not None or wanted.kind == "help":
            words = await self.kit.words(_fence(chat), language)
            await self.kit.refuse(sink, refusal or words.usage_help())
            return
        question = Question(
            text=text,
            platform=self.kit.name,
            user_id=str(user.id),
            channel_id=str(chat.id),
            thread_id=thread,
            server_id=str(chat.id),
            language=language,
            locale=user.language_code,
        )
        if context and not await self.kit.remembered(question):
            question = replace(question, history=(Turn("assistant", context),))
        sink.start()
        try:
            await self.kit.ask(question, sink)
        finally:
            await sink.close()

    async def _thread_of(self, chat: Chat, message_id: int) -> str | None:
        return await self.kit.thread_of(f"{chat.id}:{message_id}")

    # -- buttons --------------------------------------------------------------------------------
    async def _on_button(self, query: CallbackQuery, data: str) -> None:
        """Answer the press first (Telegram waits about 15 s for it), then act on it where its
        message is."""
        message = query.message
        if not isinstance(message, Message):  # too old for Telegram to show it
            await self._answer_press(query)
            return
        chat = _chat(message)
        language = catalogue_language(query.from_user.language_code)
        refusal = await self.kit.refusal(_fence(chat), language)
        if refusal is not None:
            await self._answer_press(query, refusal, alert=True)
        elif data.startswith(FEEDBACK):
            words = await self.kit.words(_fence(chat), language)
            await self._answer_press(query, words.feedback_thanks())
            await self.kit.vote(
                answer_key=answer_key(chat, message.message_id),
                user_id=str(query.from_user.id),
                value=data.removeprefix(FEEDBACK),
            )
        else:
            await self._answer_press(query)
            label = _label(message, data)
            if label:
                self.kit.spawn(self._related(query.from_user, message, label))

    async def _related(self, user: User, message: Message, text: str) -> None:
        """A related question pressed: asked in the conversation of the message it is under,
        which the answer replies to."""
        chat = _chat(message)
        topic = message.message_thread_id if message.is_topic_message else None
        thread = await self._thread_of(chat, message.message_id) or str(message.message_id)
        await self._ask(
            Asked("question", text),
            text=text,
            user=user,
            place=Place(chat, topic=topic, question=message.message_id),
            thread=thread,
        )

    async def _answer_press(
        self, query: CallbackQuery, text: str = "", alert: bool = False
    ) -> None:
        payload: Payload = {"method": "answerCallbackQuery", "callback_query_id": query.id}
        if text:
            payload.update(text=clip(text, CALLBACK_TEXT), show_alert=alert)
        try:
            await self.api.call(payload)
        except TelegramAPIError as error:  # too late: the press is still acted on
            log.info("could not answer a button press: %s", said(error, self.api.token))


def _label(message: Message, data: str) -> str:
    """The question a related-question button shows (and so asks)."""
    markup = message.reply_markup
    for row in markup.inline_keyboard if markup is not None else ():
        for button in row:
            if button.callback_data == data:
                return button.text.replace(ZWSP, "").strip()
    return ""
