"""👍/👎 under an answer, and why a 👎: the press is thanked and kept once per person; a 👎
shows the four reasons in place of the buttons (the message's keyboard edited, so the
answer does not move), and the reason chosen is kept with the 👎
(:meth:`~bot.kit.Kit.vote`) before the 👍/👎 come back. "Something else" is kept as the
reason alone: Telegram has no form to write in, and reading a person's next message as a
comment would take a group's chatter for one."""

from __future__ import annotations

from typing import Any

from aiogram.types import CallbackQuery, Message

from bot.adapter import REASONS, Kit, Reason
from bot.i18n.wording import Wording
from integrations.telegram.cards import FEEDBACK, feedback_keyboard
from integrations.telegram.chatting import answer_press, chat_of
from integrations.telegram.place import answer_key
from integrations.telegram.wire import TelegramApi

__all__ = ["REASON", "Feedback", "reasons_keyboard"]

REASON = "fr:"
"""``callback_data`` prefix of a 👎's reason (one of :data:`REASONS` follows)."""


def reasons_keyboard(words: Wording) -> dict[str, Any]:
    """👍/👎, then a button for each reason a 👎 may have."""
    labels = words.reason_labels.reasons
    rows = feedback_keyboard()["inline_keyboard"]
    rows += [[{"text": labels[reason], "callback_data": f"{REASON}{reason}"}] for reason in REASONS]
    return {"inline_keyboard": rows}


class Feedback:
    def __init__(self, *, api: TelegramApi, kit: Kit) -> None:
        self._api = api
        self._kit = kit

    async def pressed(self, query: CallbackQuery, message: Message, words: Wording) -> None:
        """A 👍, a 👎 or a 👎's reason pressed (let through already): kept as the vote of
        whoever pressed it."""
        chat = chat_of(message)
        data = query.data or ""
        reason = _reason(data)
        if data.startswith(REASON) and reason is None:  # not one of ours
            await answer_press(self._api, query)
            return
        value = "down" if reason is not None else data.removeprefix(FEEDBACK)
        asking = reason is None and value == "down"
        if asking:
            thanks = words.reason_labels.title
        else:
            thanks = words.reason_thanks() if reason else words.feedback_thanks()
        await answer_press(self._api, query, thanks)
        await self._kit.vote(
            answer_key=answer_key(chat, message.message_id),
            user_id=str(query.from_user.id),
            value=value,
            reason=reason,
        )
        if asking != _showing_reasons(message):
            markup = reasons_keyboard(words) if asking else feedback_keyboard()
            await self._api.call(
                {
                    "method": "editMessageReplyMarkup",
                    "chat_id": chat.id,
                    "message_id": message.message_id,
                    "reply_markup": markup,
                },
                chat=chat,
            )


def _showing_reasons(message: Message) -> bool:
    markup = message.reply_markup
    return any(
        (button.callback_data or "").startswith(REASON)
        for row in (markup.inline_keyboard if markup is not None else ())
        for button in row
    )


def _reason(data: str) -> Reason | None:
    given = data.removeprefix(REASON)
    if not data.startswith(REASON):
        return None
    return next((reason for reason in REASONS if reason == given), None)
