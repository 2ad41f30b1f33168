"""Closing a Telegram answer whose worker died: its hook for the core's closer (:mod:`bot.orphans`).

What the person last saw stays, and a note says what happened: a draft (a private chat's
answer still being written) lapses thirty seconds after its last renewal, so its text is sent
as a message with the "interrupted" note under it; an answer already in messages gets the note
as a reply to its last one; an answer that showed nothing gets "citebot is restarting", in
reply to the question. Nothing is edited: the record may be a second old, and an edit could
hide text the person already read.
"""

from __future__ import annotations

import logging

from bot.adapter import Note, Whereabouts
from bot.render.ports import Payload
from integrations.telegram.limits import TEXT
from integrations.telegram.markdown import visible
from integrations.telegram.place import Chat
from integrations.telegram.wire import TelegramApi

__all__ = ["TelegramOrphans"]

log = logging.getLogger(__name__)


class TelegramOrphans:
    """The :class:`~bot.orphans.OrphanHook` of one bot's answers."""

    def __init__(self, *, api: TelegramApi) -> None:
        self._api = api

    async def close(self, where: Whereabouts, note: Note) -> None:
        chat = Chat(int(where.conversation), group=where.group)
        target = where.messages[-1] if where.messages else where.question
        if not note.shown:
            await self._send(chat, where, note.restarting, target)
            return
        if where.draft:
            text = f"{where.draft}\n\n{note.ending['text']}"
            if len(visible(text)) <= TEXT:
                await self._send(chat, where, {**note.ending, "text": text}, target)
                return
            await self._send(chat, where, {**note.ending, "text": where.draft}, target)
        await self._send(chat, where, note.ending, target)

    async def _send(
        self, chat: Chat, where: Whereabouts, payload: Payload, reply_to: str | None
    ) -> None:
        message: Payload = {**payload, "chat_id": chat.id}
        if where.thread is not None:
            message["message_thread_id"] = int(where.thread)
        if reply_to is not None:
            message["reply_parameters"] = {
                "message_id": int(reply_to),
                "allow_sending_without_reply": True,
            }
        await self._api.call(message, chat=chat)
