"""Closing a Telegram answer whose worker died (:mod:`bot.inflight`).

What the person last saw stays, and a note says what happened: a draft (a private chat's
answer still being written) lapses thirty seconds after its last renewal, so its text is sent
as a message with the "interrupted" note under it; an answer already in messages gets the note
as a reply to its last one; an answer that showed nothing gets "citebot is restarting", in
reply to the question. Nothing is edited: the record may be a second old, and an edit could
hide text the person already read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from bot.adapter import AnswerFormatter, Orphan
from bot.i18n.wording import Wording
from bot.render.ports import Payload, Presenter
from integrations.telegram.limits import TEXT
from integrations.telegram.markdown import visible
from integrations.telegram.place import Chat
from integrations.telegram.wire import TelegramApi

__all__ = ["TelegramOrphans"]

log = logging.getLogger(__name__)


class TelegramOrphans:
    """A :data:`bot.inflight.Closer` for one bot's answers."""

    def __init__(
        self,
        *,
        api: TelegramApi,
        presenter: Presenter,
        wording_for: Callable[[str | None], Wording],
    ) -> None:
        self._api = api
        self._presenter = presenter
        self._wording_for = wording_for

    async def __call__(self, orphan: Orphan) -> None:
        place = orphan.place
        chat = Chat(int(place["chat"]), group=bool(place.get("group")))
        wording = self._wording_for(orphan.language)
        messages = [int(m) for m in place.get("messages") or ()]
        draft = place.get("draft")
        target = messages[-1] if messages else place.get("question")
        if not messages and not draft:
            await self._send(chat, place, self._presenter.notice(wording.restarting()), target)
            return
        (note,) = AnswerFormatter(self._presenter).interrupt(wording.interrupted())
        if draft:
            text = f"{draft}\n\n{note['text']}"
            if len(visible(text)) <= TEXT:
                await self._send(chat, place, {**note, "text": text}, target)
                return
            await self._send(chat, place, {**note, "text": draft}, target)
        await self._send(chat, place, note, target)

    async def _send(
        self, chat: Chat, place: Mapping[str, Any], payload: Payload, reply_to: object
    ) -> None:
        message: Payload = {**payload, "chat_id": chat.id}
        if place.get("topic") is not None:
            message["message_thread_id"] = place["topic"]
        if reply_to is not None:
            message["reply_parameters"] = {
                "message_id": int(str(reply_to)),
                "allow_sending_without_reply": True,
            }
        await self._api.call(message, chat=chat)
