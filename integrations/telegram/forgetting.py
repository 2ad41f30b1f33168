"""Forgetting on Telegram: ``/forget_me``, and a group that removes the bot.

``/forget_me`` is everyone's, in any chat where it reaches the bot, and neither the allowlist
nor a group's ``enabled`` stand in its way: a person's right to be forgotten does not depend on
where they ask. It asks first, in the person's language: what will be deleted, that it cannot
be undone, and what it cannot delete (the messages already on Telegram, which are Telegram's),
with one button. The button carries the asker's id (``fm:ID``), and a press by anyone else
is refused: in a group everyone sees the message, and nobody can delete another's data. The
press deletes everything kept about the asker (their answers' records, votes, conversations'
memory and the notes of which messages belong to them, daily counts, and their private chat
with the bot, a place whose id is theirs) and says so in place of the question; a store that
does not answer says so and keeps the button for another try (each step deletes all it is
asked or nothing, and a second try finishes what a first left).

The bot removed from a group (a ``my_chat_member`` update whose new status is ``left`` or
``kicked``) deletes everything kept about that group, tried again while the store does not
answer (:meth:`~bot.kit.Kit.forget_removed`). A person who blocks the bot in a private
chat asked nothing to be forgotten, and nothing is.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from aiogram.types import CallbackQuery, ChatMemberUpdated, Message, Update

from bot.adapter import (
    FORGET_RETRIES,
    Admitted,
    Arrival,
    ForgetTooSoon,
    Kit,
    StateUnavailable,
    Venue,
)
from bot.i18n.wording import Wording
from integrations.telegram.chatting import answer_press, arrival, keyboard, reply, show
from integrations.telegram.markdown import TelegramHTML
from integrations.telegram.wire import TelegramApi

__all__ = ["FORGET", "Forgetting"]

log = logging.getLogger(__name__)

FORGET = "fm:"
"""``callback_data`` prefix of the button that confirms forget-me; the asker's id follows."""
TELEGRAM = "Telegram"
GONE = frozenset({"left", "kicked"})
"""``ChatMember.status`` of a bot no longer in a group."""
_HTML = TelegramHTML()


def _asked(words: Wording) -> str:
    return _HTML.escape(
        f"{words.forget_me_asks()}\n\n{words.forget_me_leaves(TELEGRAM)}", line_start=True
    )


class Forgetting:
    def __init__(
        self, *, api: TelegramApi, kit: Kit, retries: Sequence[float] = FORGET_RETRIES
    ) -> None:
        self._api = api
        self._kit = kit
        self._retries = tuple(retries)

    async def command(self, update: Update, message: Message, rest: str) -> None:
        """``/forget_me``: what it will do, and the button that does it."""
        user = message.from_user
        assert user is not None

        async def act(admitted: Admitted) -> None:
            words = admitted.words
            button = keyboard([[(words.forget_me_button(), f"{FORGET}{user.id}")]])
            await reply(self._api, message, _asked(words), buttons=button)

        await self._kit.take(arrival(update, message, user), act, gate="everyone")

    async def pressed(self, update: Update, query: CallbackQuery, message: Message) -> None:
        """The button pressed: forget its asker, if they pressed it, and say so in its
        message."""

        async def act(admitted: Admitted) -> None:
            await self._forget(query, message, admitted.words)

        await self._kit.take(arrival(update, message, query.from_user), act, gate="everyone")

    async def _forget(self, query: CallbackQuery, message: Message, words: Wording) -> None:
        user = query.from_user
        if (query.data or "").removeprefix(FORGET) != str(user.id):
            await answer_press(self._api, query, words.not_your_button(), alert=True)
            return
        await answer_press(self._api, query)
        try:
            # A private chat's place is the person's own (its id is theirs): its counts go too.
            forgotten = await self._kit.forget_person(str(user.id))
            forgotten += await self._kit.forget_place(str(user.id))
        except StateUnavailable:
            said = _HTML.escape(words.could_not_forget(), line_start=True)
            button = keyboard([[(words.forget_me_button(), f"{FORGET}{user.id}")]])
            await show(self._api, message, f"{said}\n\n{_asked(words)}", buttons=button)
            return
        except ForgetTooSoon as soon:
            said = words.forget_me_too_soon(soon.retry_after)
            await show(self._api, message, _HTML.escape(said, line_start=True))
            return
        log.info("forget-me: %d things kept about a person deleted", forgotten)
        done = f"{words.forgot_you()}\n\n{words.forget_me_leaves(TELEGRAM)}"
        await show(self._api, message, _HTML.escape(done, line_start=True))

    async def member_changed(self, update: Update, change: ChatMemberUpdated) -> None:
        """The bot's own membership changed: removed from a group, its data goes."""
        chat = change.chat
        if chat.type not in ("group", "supergroup") or change.new_chat_member.status not in GONE:
            return

        async def act(_: Admitted) -> None:
            await self._kit.forget_removed(str(chat.id), self._retries)

        removed = Arrival(keys=(f"update:{update.update_id}",), venue=Venue(server=str(chat.id)))
        await self._kit.take(removed, act, gate="everyone")
