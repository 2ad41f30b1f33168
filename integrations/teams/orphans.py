"""Closing a Teams answer whose worker died: its hook for the core's closer (:mod:`bot.orphans`).

What the person last saw stays, and a note says what happened, in the answer's conversation
(in its thread, in a channel): "interrupted" where they saw some of it, "restarting" where they
saw nothing. A personal chat's stream the dead worker left open is not written to again (Teams
ends it after its two minutes, keeping what streamed); nothing is edited. The record names the
conversation's Teams region (its ``serviceUrl``) as what reaches it (``via``).
"""

from __future__ import annotations

from bot.adapter import Note, Whereabouts
from integrations.teams.chatting import Chat
from integrations.teams.place import Conversation, Kind

__all__ = ["TeamsOrphans"]


class TeamsOrphans:
    """The :class:`~bot.orphans.OrphanHook` of one bot's answers."""

    def __init__(self, chat: Chat) -> None:
        self._chat = chat

    async def close(self, where: Whereabouts, note: Note) -> None:
        if where.via is None:
            return  # a record without its region: nowhere to write
        kind: Kind = "channel" if where.thread else "groupChat" if where.group else "personal"
        conversation = Conversation(
            service_url=where.via, id=where.conversation, kind=kind, thread=where.thread
        )
        await self._chat.say(conversation, note.notice)
