"""Telegram updates in, answers out: a message or a button press becomes an
:class:`~bot.adapter.Arrival` the kit takes through its steps, then a
:class:`~bot.adapter.Question` and a :class:`TelegramSink`.

Every update is claimed by its ``update_id``, so a reader handed over between workers, or a
webhook delivery Telegram repeats, answers nothing twice; each update's steps run as a task the
kit drains on shutdown. Every question passes the kit's fence: a group by its id, a private
chat by the person's (a bot can be messaged by anyone, so a private chat passes only an
allowlist that names it). A conversation is a chain of replies: each message citebot posts is
noted with its conversation (:meth:`~bot.adapter.Kit.join_thread`), and a reply to one
continues it, with the replied message itself as context where the conversation was
forgotten. In a group, a bare reply to citebot is a follow-up and a message naming nobody a new
post (:mod:`.questions`), answered as the group's settings say. ``/check`` in reply to a
message asks the sources about it; ``/settings`` and ``/report`` are the group's admins'
(:mod:`.admin`, :mod:`.report`), ``/forget_me`` everyone's (:mod:`.forgetting`); "Ask the
sources" and "Ask a person" are the asker's (:mod:`.buttons`). A press of a button citebot did
not make (forged, or another bot's) is answered and nothing else. Each person reads citebot's
words in their Telegram language.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any

from aiogram.types import CallbackQuery, Message, Update, User

from bot.adapter import PERIODS, REASONS, VOTES, Admitted, Heard, Kit, Question, Turn
from bot.render.dialect import ZWSP
from integrations.telegram.admin import SettingsAdmin
from integrations.telegram.admin_view import SETTING, pressed_setting
from integrations.telegram.buttons import AnswerButtons
from integrations.telegram.cards import ACTION, FEEDBACK, RELATED, RELATED_BUTTONS
from integrations.telegram.chatting import answer_press, arrival, chat_of, topic_of
from integrations.telegram.check import ClaimCheck
from integrations.telegram.feedback import REASON, Feedback
from integrations.telegram.forgetting import FORGET, Forgetting
from integrations.telegram.place import Chat, Place
from integrations.telegram.questions import Asked, asked, command_of, for_everyone
from integrations.telegram.report import GroupReport
from integrations.telegram.report_view import PERIOD
from integrations.telegram.sink import TelegramSink
from integrations.telegram.thread import Abilities
from integrations.telegram.wire import TelegramApi

__all__ = ["ALLOWED_UPDATES", "TelegramBot", "made_here"]

ALLOWED_UPDATES = ("message", "callback_query", "my_chat_member")
"""What the bot asks Telegram for: messages (private chats, and what privacy mode lets through
in groups), button presses, and changes of the bot's own membership (removed from a group)."""

Command = Callable[[Update, Message, str], Coroutine[Any, Any, None]]
Press = Callable[[Update, CallbackQuery, Message], Coroutine[Any, Any, None]]


class TelegramBot:
    """One bot's handlers; :meth:`handle` takes every update, however it came."""

    def __init__(
        self,
        *,
        api: TelegramApi,
        kit: Kit,
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
        """Hand an update meant for citebot to a task that takes it through the kit's steps;
        fast, so that a reader or a webhook delivery is never held up by an answer."""
        if update.message is not None:
            self._on_message(update, update.message)
        elif update.callback_query is not None:
            query = update.callback_query
            if made_here(query.data or ""):
                self.kit.spawn(self._on_button(update, query))
            else:  # forged, or another bot's: answered, nothing else
                self.kit.spawn(answer_press(self.api, query))
        elif update.my_chat_member is not None:
            self.kit.spawn(self.forgetting.member_changed(update, update.my_chat_member))

    def _on_message(self, update: Update, message: Message) -> None:
        command = command_of(message, self.me)
        if command is not None and command[0] in self._commands:
            name, rest = command
            self.kit.spawn(self._commands[name](update, message, rest))
            return
        wanted = asked(message, self.me)
        if wanted is None and message.chat.type != "private":
            wanted = for_everyone(message, self.me)
        if wanted is not None:
            self.kit.spawn(self._take(update, message, wanted))

    async def _take(self, update: Update, message: Message, wanted: Asked) -> None:
        """A message that asks something, through the kit's steps: where it may not be
        answered, a refusal in reply (to a message that named citebot)."""
        user = message.from_user
        assert user is not None
        sink = self._sink(chat_of(message), message, user, thread="")

        async def refuse(words: str) -> None:
            await self.kit.refuse(sink, words)

        async def answer(admitted: Admitted) -> None:
            if wanted.kind == "help":
                await refuse(admitted.words.usage_help())
            else:
                await self._answer(message, wanted, admitted)

        heard = Heard.DIRECT if message.chat.type == "private" else wanted.heard
        await self.kit.take(arrival(update, message, user, heard), answer, refuse=refuse)

    # -- questions ------------------------------------------------------------------------------
    async def _answer(self, message: Message, wanted: Asked, admitted: Admitted) -> None:
        user = message.from_user
        assert user is not None
        chat = chat_of(message)
        replied = wanted.replied
        thread = await self._thread_of(chat, replied.message_id) if replied else None
        await self._ask(
            text=wanted.text,
            user=user,
            place=Place(chat, topic=topic_of(message), question=message.message_id),
            thread=thread or str(message.message_id),
            admitted=admitted,
            context=replied.text if replied is not None and not thread else None,
        )

    def _sink(self, chat: Chat, message: Message, user: User, *, thread: str) -> TelegramSink:
        """Where the answer to ``message`` goes: in reply to it, each message citebot posts
        noted with the conversation ``thread`` (none: a refusal starts none)."""
        place = Place(chat, topic=topic_of(message), question=message.message_id)
        return self._sink_at(place, user, thread=thread)

    def _sink_at(self, place: Place, user: User, *, thread: str) -> TelegramSink:
        chat = place.chat

        async def posted(message_id: int) -> None:
            if thread:
                await self.kit.join_thread(
                    f"{chat.id}:{message_id}", thread, person=str(user.id), server=str(chat.id)
                )

        return TelegramSink(
            api=self.api,
            place=place,
            abilities=self.abilities,
            draft_id=(secrets.randbelow(2**26) + 1) * 16,
            on_posted=posted,
            edit_interval=self.edit_interval,
        )

    async def _ask(
        self,
        *,
        text: str,
        user: User,
        place: Place,
        thread: str,
        admitted: Admitted,
        context: str | None = None,
        own_answers: bool = True,
    ) -> None:
        """Answer ``text`` asked by ``user`` at ``place``, in conversation ``thread``
        (``context``: the bot's message a reply answers, where its conversation was
        forgotten; ``own_answers`` False: from the sources, "Ask the sources" pressed)."""
        chat = place.chat
        sink = self._sink_at(place, user, thread=thread)
        question = Question(
            text=text,
            platform=self.kit.name,
            user_id=str(user.id),
            channel_id=str(chat.id),
            thread_id=thread,
            server_id=str(chat.id),
            direct=not chat.group,
            language=admitted.language,
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

    async def _ask_starting(self, text: str, user: User, place: Place, admitted: Admitted) -> None:
        """Ask ``text`` in a conversation that starts at ``place.question``."""
        await self._ask(
            text=text, user=user, place=place, thread=str(place.question), admitted=admitted
        )

    async def _thread_of(self, chat: Chat, message_id: int) -> str | None:
        return await self.kit.thread_of(f"{chat.id}:{message_id}")

    # -- buttons --------------------------------------------------------------------------------
    async def _on_button(self, update: Update, query: CallbackQuery) -> None:
        """Answer the press first (Telegram waits about 15 s for it), then act on it where its
        message is. A setting's, a report's and a forget-me's buttons are admitted by their
        own gates; an answer's pass the kit's fence of the place."""
        data = query.data or ""
        message = query.message
        if not isinstance(message, Message):  # too old for Telegram to show it
            await answer_press(self.api, query)
            return
        for prefix, press in self._presses.items():
            if data.startswith(prefix):
                await press(update, query, message)
                return

        async def refuse(words: str) -> None:
            await answer_press(self.api, query, words, alert=True)

        async def act(admitted: Admitted) -> None:
            if data.startswith((FEEDBACK, REASON)):
                await self.feedback.pressed(query, message, admitted.words)
                return
            if data.startswith(ACTION):
                await self.buttons.pressed(query, message, data, admitted)
                return
            await answer_press(self.api, query)
            label = _label(message, data)
            if label:
                await self._related(query.from_user, message, label, admitted)

        await self.kit.take(arrival(update, message, query.from_user), act, refuse=refuse)

    async def _related(
        self,
        user: User,
        message: Message,
        text: str,
        admitted: Admitted,
        *,
        own_answers: bool = True,
    ) -> None:
        """A related question pressed: asked in the conversation of the message it is under,
        which the answer replies to."""
        chat = chat_of(message)
        thread = await self._thread_of(chat, message.message_id) or str(message.message_id)
        await self._ask(
            text=text,
            user=user,
            place=Place(chat, topic=topic_of(message), question=message.message_id),
            thread=thread,
            admitted=admitted,
            own_answers=own_answers,
        )

    async def _from_the_sources(
        self, text: str, user: User, message: Message, admitted: Admitted
    ) -> None:
        """ "Ask the sources" pressed under an own answer: its question, of the sources."""
        await self._related(user, message, text, admitted, own_answers=False)


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
