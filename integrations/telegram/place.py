"""Where an answer goes in Telegram: a chat (as Telegram's pace counts it), its forum topic,
the question it answers."""

from __future__ import annotations

from dataclasses import dataclass

from bot.render.ports import Payload

__all__ = ["Chat", "Place", "answer_key"]


@dataclass(frozen=True, slots=True)
class Chat:
    """Where messages go, as the pace counts them: a group's count a minute too."""

    id: int
    group: bool


def answer_key(chat: Chat, message_id: int) -> str:
    """The key votes on an answer are kept under: its chat and its message with the buttons
    (a message id is only unique within its chat)."""
    return f"telegram:{chat.id}:{message_id}"


@dataclass(frozen=True, slots=True)
class Place:
    """Where an answer goes in Telegram."""

    chat: Chat
    topic: int | None = None
    """The forum topic (``message_thread_id``)."""
    question: int | None = None
    """The question's message: a group's answer replies to it."""

    def where(self, payload: Payload) -> Payload:
        """``payload`` sent here: to the chat, in the topic."""
        located = {**payload, "chat_id": self.chat.id}
        if self.topic is not None:
            located["message_thread_id"] = self.topic
        return located
