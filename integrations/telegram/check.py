"""``/check``: in reply to any message, asks the sources about what it says.

The checked message's words are quoted first, in reply to it (its author named as Telegram
shows them, never pinged: a name is not a mention, and every ``@`` in the words is broken),
then asked upstream as :meth:`~bot.i18n.wording.Wording.claim_question` in the asker's
language; the answer, its footnotes and its cards (with their quotes' verdicts) follow in
reply to the quote, which starts the conversation. ``/check`` not in reply to a message says
how it is used; where citebot may not answer, it says so.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from aiogram.types import Message, Update, User

from bot.adapter import Admitted, Kit, Say
from bot.render.text import clip
from integrations.telegram.chatting import arrival, chat_of, reply, topic_of
from integrations.telegram.markdown import TelegramHTML
from integrations.telegram.place import Place
from integrations.telegram.questions import checked_message
from integrations.telegram.wire import TelegramApi
from integrations.telegram.words import check_how_to

__all__ = ["ClaimCheck"]

QUOTED = 1500
"""Characters of the claim quoted (the answer says the rest)."""
_HTML = TelegramHTML()


Ask = Callable[[str, User, Place, Admitted], Coroutine[Any, Any, None]]
"""Ask a question (its text, its asker, where its answer goes: the conversation starts at
``Place.question``), let through already."""


class ClaimCheck:
    def __init__(self, *, api: TelegramApi, kit: Kit, ask: Ask) -> None:
        self._api = api
        self._kit = kit
        self._ask = ask

    async def command(self, update: Update, message: Message, rest: str) -> None:
        user = message.from_user
        assert user is not None

        async def refuse(said: str) -> None:
            await reply(self._api, message, _HTML.escape(said, line_start=True))

        async def act(admitted: Admitted) -> None:
            await self._check(message, user, admitted, refuse)

        await self._kit.take(arrival(update, message, user), act, refuse=refuse)

    async def _check(self, message: Message, user: User, admitted: Admitted, refuse: Say) -> None:
        words = admitted.words
        target = checked_message(message)
        claim = "" if target is None else (target.text or target.caption or "").strip()
        if target is None or not claim:
            await refuse(check_how_to(words) if target is None else words.nothing_to_check())
            return
        chat = chat_of(message)
        quote = await reply(
            self._api,
            message,
            _quoted(claim, _author(target), words.check_with_sources()),
            to=target.message_id,
        )
        question = self._kit.claim_question(words, claim)
        asked_at = quote or message.message_id
        place = Place(chat, topic=topic_of(message), question=asked_at)
        await self._ask(question, user, place, admitted)


def _author(message: Message) -> str:
    """Who wrote ``message``, as Telegram shows them: a person's name, a channel's title."""
    if message.sender_chat is not None:
        return message.sender_chat.title or ""
    person = message.from_user
    if person is None:
        return ""
    return " ".join(part for part in (person.first_name, person.last_name) if part)


def _quoted(claim: str, author: str, heading: str) -> str:
    """What is checked and whose words, then the words in a quotation."""
    lead = " · ".join(_HTML.escape(part, line_start=False) for part in (heading, author) if part)
    words = _HTML.escape(clip(claim, QUOTED), line_start=False)
    return f"🔎 <b>{lead}</b>\n<blockquote>{words}</blockquote>"
