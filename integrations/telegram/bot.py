"""Telegram updates in, answers out: a message or a button press becomes a
:class:`bot.answer.Question`, a :class:`bot.kit.Venue` and a :class:`TelegramSink`, and the
platform kit does the rest.

Every update is claimed by its ``update_id`` before anything is done, so a reader handed over
between workers, or a webhook delivery Telegram repeats, answers nothing twice; the answer runs
as a task the kit drains on shutdown. Every question passes the kit's one authorization check:
a group by its id, a private chat by the person's (a bot can be messaged by anyone, so a
private chat passes only an allowlist that names it). A conversation is a chain of replies:
each message citebot posts is noted with its conversation (:meth:`PlatformKit.join_thread`),
and a reply to one continues it, with the replied message itself as context where the
conversation was forgotten. In a group, a bare reply to citebot is answered where
``follow_ups_without_mention`` is on, and every new message where ``auto_answer`` is.
``/check`` in reply to a message asks the sources about it; ``/settings`` and ``/report`` are
the group's admins' (:mod:`.admin`, :mod:`.report`), ``/forget_me`` everyone's
(:mod:`.forgetting`); "Ask the sources" and "Ask a person" are the asker's
(:mod:`.buttons`). Each person reads citebot's words in their Telegram language.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any

from aiogram.types import CallbackQuery, Message, Update, User

from bot.answer import Question
from bot.i18n.conversation_words import REASONS, VOTES
from bot.i18n.wording import catalogue_language
from bot.kit import PlatformKit
from bot.ops.report import PERIODS
from bot.render.dialect import ZWSP
from bot.upstream.events import Turn
from integrations.telegram.admin import SettingsAdmin
from integrations.telegram.buttons import AnswerButtons
from integrations.telegram.cards import ACTION, FEEDBACK, RELATED, RELATED_BUTTONS
from integrations.telegram.chatting import answer_press, chat_of, fence, topic_of
from integrations.telegram.check import ClaimCheck
from integrations.telegram.conversation import Asked, asked, command_of, for_everyone
from integrations.telegram.feedback import REASON, Feedback
from integrations.telegram.forgetting import FORGET, Forgetting
from integrations.telegram.place import Chat, Place
from integrations.telegram.report import GroupReport
from integrations.telegram.report_view import PERIOD
from integrations.telegram.settings_view import SETTING, pressed_setting
from integrations.telegram.sink import TelegramSink
from integrations.telegram.thread import Abilities
from integrations.telegram.wire import TelegramApi

__all__ = ["ALLOWED_UPDATES", "TelegramBot", "made_here"]

ALLOWED_UPDATES = ("message", "callback_query", "my_chat_member")
"""What the bot asks Telegram for: messages (private chats, and what privacy mode lets through
in groups), button presses, and changes of the bot's own membership (removed from a group)."""

Command = Callable[[Message, str], Coroutine[Any, Any, None]]
Press = Callable[[CallbackQuery, Message], Coroutine[Any, Any, None]]


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
        settings = SettingsAdmin(api=api, kit=kit)
        report = GroupReport(api=api, kit=kit)
        self.forgetting = Forgetting(api=api, kit=kit)
        checks = ClaimCheck(api=api, kit=kit, ask=self._ask_starting)
        self.feedback = Feedback(api=api, kit=kit)
        self.buttons = AnswerButtons(api=api, kit=kit, ask_again=self._from_the_sources)
        self._commands: dict[str, Command] = {
            "settings": settings.command,
            "report": report.command,
            "forget_me": self.forgetting.command,
            "check": checks.command,
        }
        self._presses: dict[str, Press] = {
            SETTING: settings.pressed,
            PERIOD: report.pressed,
            FORGET: self.forgetting.pressed,
        }

    async def handle(self, update: Update) -> None:
        """Claim an update meant for citebot and hand what it asks (an answer, a command, a
        press) to a task; fast, so that a reader or a webhook delivery is never held up by
        one chat (a press's edit waiting out its chat's 429 included)."""
        if update.message is not None:
            await self._on_message(update, update.message)
        elif update.callback_query is not None:
            query = update.callback_query
            data = query.data or ""
            if not made_here(data):  # forged, or another bot's: answered, nothing else
                self.kit.spawn(answer_press(self.api, query))
            elif await self._claim(update):
                self.kit.spawn(self._on_button(query, data))
        elif update.my_chat_member is not None and await self._claim(update):
            self.forgetting.member_changed(update.my_chat_member)

    async def _on_message(self, update: Update, message: Message) -> None:
        command = command_of(message, self.me)
        if command is not None and command[0] in self._commands:
            name, rest = command
            if await self._claim(update):
                self.kit.spawn(self._commands[name](message, rest))
            return
        wanted = await self._wanted(message)
        if wanted is not None and await self._claim(update):
            self.kit.spawn(self._answer(message, wanted))

    async def _wanted(self, message: Message) -> Asked | None:
        """What ``message`` asks, as the group's settings say: a bare reply to citebot where
        ``follow_ups_without_mention`` (or ``auto_answer``) is on, any new message where
        ``auto_answer`` is."""
        wanted = asked(message, self.me)
        if message.chat.type == "private" or (wanted is not None and not wanted.follow_up):
            return wanted
        everyone = for_everyone(message, self.me) if wanted is None else None
        if wanted is None and everyone is None:
            return None
        settings = await self.kit.settings_at(fence(chat_of(message)))
        if wanted is not None:
            return wanted if settings.follow_ups_without_mention or settings.auto_answer else None
        return everyone if settings.auto_answer else None

    async def _claim(self, update: Update) -> bool:
        return await self.kit.claim(f"update:{update.update_id}")

    # -- questions ------------------------------------------------------------------------------
    async def _answer(self, message: Message, wanted: Asked) -> None:
        user = message.from_user
        assert user is not None
        chat = chat_of(message)
        replied = wanted.replied
        thread = await self._thread_of(chat, replied.message_id) if replied else None
        await self._ask(
            wanted,
            text=wanted.text,
            user=user,
            place=Place(chat, topic=topic_of(message), question=message.message_id),
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
        own_answers: bool = True,
    ) -> None:
        """Answer ``text`` asked by ``user`` at ``place``, in conversation ``thread``
        (``context``: the bot's message a reply answers, where its conversation was
        forgotten; ``own_answers`` False: from the sources, "Ask the sources" pressed)."""
        chat = place.chat
        language = catalogue_language(user.language_code)

        async def posted(message_id: int) -> None:
            await self.kit.join_thread(
                f"{chat.id}:{message_id}", thread, person=str(user.id), server=str(chat.id)
            )

        sink = TelegramSink(
            api=self.api,
            place=place,
            abilities=self.abilities,
            draft_id=(secrets.randbelow(2**26) + 1) * 16,
            on_posted=posted,
            edit_interval=self.edit_interval,
        )
        refusal = await self.kit.refusal(fence(chat), language)
        if refusal is not None or wanted.kind == "help":
            words = await self.kit.words(fence(chat), language)
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
            own_answers=own_answers,
        )
        if context and not await self.kit.remembered(question):
            question = replace(question, history=(Turn("assistant", context),))
        sink.start()
        try:
            await self.kit.ask(question, sink)
        finally:
            await sink.close()

    async def _ask_starting(self, text: str, user: User, place: Place) -> None:
        """Ask ``text`` in a conversation that starts at ``place.question``."""
        await self._ask(
            Asked("question", text), text=text, user=user, place=place, thread=str(place.question)
        )

    async def _thread_of(self, chat: Chat, message_id: int) -> str | None:
        return await self.kit.thread_of(f"{chat.id}:{message_id}")

    # -- buttons --------------------------------------------------------------------------------
    async def _on_button(self, query: CallbackQuery, data: str) -> None:
        """Answer the press first (Telegram waits about 15 s for it), then act on it where its
        message is. A setting's, a report's and a forget-me's buttons are admitted by their
        own rules; an answer's pass the kit's check of the place."""
        message = query.message
        if not isinstance(message, Message):  # too old for Telegram to show it
            await answer_press(self.api, query)
            return
        for prefix, press in self._presses.items():
            if data.startswith(prefix):
                await press(query, message)
                return
        chat = chat_of(message)
        language = catalogue_language(query.from_user.language_code)
        refusal = await self.kit.refusal(fence(chat), language)
        if refusal is not None:
            await answer_press(self.api, query, refusal, alert=True)
        elif data.startswith((FEEDBACK, REASON)):
            await self.feedback.pressed(query, message, data)
        elif data.startswith(ACTION):
            await self.buttons.pressed(query, message, data)
        else:
            await answer_press(self.api, query)
            label = _label(message, data)
            if label:
                self.kit.spawn(self._related(query.from_user, message, label))

    async def _related(
        self, user: User, message: Message, text: str, *, own_answers: bool = True
    ) -> None:
        """A related question pressed: asked in the conversation of the message it is under,
        which the answer replies to."""
        chat = chat_of(message)
        thread = await self._thread_of(chat, message.message_id) or str(message.message_id)
        await self._ask(
            Asked("question", text),
            text=text,
            user=user,
            place=Place(chat, topic=topic_of(message), question=message.message_id),
            thread=thread,
            own_answers=own_answers,
        )

    async def _from_the_sources(self, text: str, user: User, message: Message) -> None:
        """ "Ask the sources" pressed under an own answer: its question, of the sources."""
        await self._related(user, message, text, own_answers=False)


_MADE: dict[str, Callable[[str], bool]] = {
    FEEDBACK: lambda value: value in VOTES,
    REASON: lambda value: value in REASONS,
    RELATED: lambda value: value in {str(index) for index in range(RELATED_BUTTONS)},
    SETTING: lambda value: pressed_setting(SETTING + value) is not None,
    PERIOD: lambda value: value in PERIODS,
    FORGET: lambda value: re.fullmatch("[0-9]{1,20}", value) is not None,
    ACTION: lambda value: value in ("ask_sources", "ask_person"),
}
"""Each button citebot makes, by its ``callback_data`` prefix: whether what follows is a value
it writes there."""


def made_here(data: str) -> bool:
    """Whether ``data`` is a button's ``callback_data`` citebot itself makes: the Bot API
    passes on whatever a client sends as a press, so anything else is no press of citebot's
    and is neither acted on nor counted."""
    return any(
        data.startswith(prefix) and made(data[len(prefix) :]) for prefix, made in _MADE.items()
    )


def _label(message: Message, data: str) -> str:
    """The question a related-question button shows (and so asks)."""
    markup = message.reply_markup
    for row in markup.inline_keyboard if markup is not None else ():
        for button in row:
            if button.callback_data == data:
                return button.text.replace(ZWSP, "").strip()
    return ""
