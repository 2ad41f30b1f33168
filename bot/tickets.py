"""What a button under an answer acts on once pressed ("Ask the sources", "Ask a person"): the
question it was under, kept in the shared store by the answer's key.

A platform's button carries only what it does (``callback_data`` holds 64 bytes, a Discord
``custom_id`` 100): the answer it is under is the message it is on, and the platform turns that
into the answer's key, the one its votes are kept under (``AnswerSink.vote_key``). The ticket
is kept as long as conversations are remembered, noted as the asker's and the place's, so that
a forget-me or the bot's removal deletes it with the rest.
"""

from __future__ import annotations

import json
import logging

from bot.answer import Question
from bot.state import State

__all__ = ["Tickets"]

log = logging.getLogger(__name__)


class Tickets:
    """The questions under answers whose buttons may still be pressed, in ``state``."""

    def __init__(self, state: State, *, ttl: float) -> None:
        self._state = state
        self._ttl = ttl

    @staticmethod
    def _key(platform: str, answer_key: str) -> str:
        return f"ticket:{platform}:{answer_key}"

    async def keep(self, answer_key: str, question: Question) -> None:
        """Keep ``question`` for the buttons under its answer, whose key is ``answer_key``."""
        key = self._key(question.platform, answer_key)
        body = {
            "text": question.text,
            "user_id": question.user_id,
            "channel_id": question.channel_id,
            "thread_id": question.thread_id,
            "server_id": question.server_id,
            "language": question.language,
            "locale": question.locale,
        }
        await self._state.cache(key, json.dumps(body, ensure_ascii=False), ttl=self._ttl)
        await self._state.note_belongings(
            question.platform,
            person=question.user_id,
            server=question.server_id,
            notes=[key],
            ttl=self._ttl,
        )

    async def question(self, platform: str, answer_key: str) -> Question | None:
        """The question under the answer ``answer_key``; None when none is kept (its time is
        up, it was forgotten, or the store does not answer)."""
        text = await self._state.cached(self._key(platform, answer_key))
        if text is None:
            return None
        try:
            body = json.loads(text)
            return Question(
                text=str(body["text"]),
                platform=platform,
                user_id=str(body["user_id"]),
                channel_id=str(body["channel_id"]),
                thread_id=body.get("thread_id"),
                server_id=body.get("server_id"),
                language=body.get("language"),
                locale=body.get("locale"),
            )
        except (ValueError, KeyError, TypeError):
            log.warning("a button's ticket could not be read (%s)", platform)
            return None

    async def claim(self, action: str, platform: str, answer_key: str) -> bool:
        """Whether this is the first press of ``action`` under the answer, across every worker
        (a second press, another worker's delivery, another person: False)."""
        return await self._state.first_time(f"{action}:{platform}:{answer_key}", ttl=self._ttl)
