"""One answer's flow in Teams: where it goes (the conversation, a channel's thread), its sink,
its :class:`~bot.adapter.Question` and the conversation it continues.

A personal chat and a group chat are each one conversation (Teams gives them no threads), so a
question there continues what was asked before in them, as long as conversations are
remembered; a channel's thread is its own conversation, and citebot notes each thread it
answers in (:meth:`~bot.adapter.Kit.join_thread`), so that a reply there naming nobody is a
follow-up where the place's ``follow_ups_without_mention`` is on (:mod:`.questions`). The
asker's language for the upstream is their Teams ``locale``.
"""

from __future__ import annotations

from microsoft_teams.api.models import Account

from bot.adapter import Admitted, Kit, Question
from integrations.teams.chatting import Chat
from integrations.teams.limits import STREAM_INTERVAL
from integrations.teams.place import Conversation
from integrations.teams.sink import TeamsSink

__all__ = ["Answering", "thread_key"]


def thread_key(where: Conversation) -> str:
    """The note that says citebot answers in ``where``'s channel thread."""
    return f"{where.id}:{where.thread}"


class Answering:
    """Asks the kit, and shows the answer where it was asked."""

    def __init__(self, *, kit: Kit, chat: Chat, stream_interval: float = STREAM_INTERVAL) -> None:
        self._kit = kit
        self._chat = chat
        self._stream_interval = stream_interval

    def sink(self, where: Conversation, person: Account, informative: str = "") -> TeamsSink:
        """Where an answer to ``person`` in ``where`` goes (a channel's thread noted as one
        citebot answers in once it posts there)."""
        noted = False

        async def posted(message_id: str) -> None:
            nonlocal noted
            if where.kind == "channel" and where.thread and not noted:
                noted = True
                await self._kit.join_thread(
                    thread_key(where), where.thread, person=person.id, server=where.server
                )

        return TeamsSink(
            wire=self._chat.wire,
            where=where,
            informative=informative,
            pace=self._chat.pace,
            stream_interval=self._stream_interval,
            on_posted=posted,
        )

    async def refuse(self, where: Conversation, person: Account, words: str) -> None:
        """Say ``words`` where an answer would have gone."""
        sink = self.sink(where, person)
        try:
            await self._kit.refuse(sink, words)
        finally:
            await sink.close()

    async def ask(
        self,
        text: str,
        *,
        where: Conversation,
        person: Account,
        admitted: Admitted,
        locale: str | None,
        own_answers: bool = True,
    ) -> None:
        """Answer ``text`` asked by ``person`` in ``where`` (``own_answers`` False: of the
        sources, "Ask the sources" pressed)."""
        words = admitted.words
        sink = self.sink(where, person, informative=f"citebot {words.thinking()}")
        question = Question(
            text=text,
            platform=self._kit.name,
            user_id=person.id,
            channel_id=where.id,
            thread_id=where.thread if where.kind == "channel" and where.thread else where.id,
            server_id=where.server,
            direct=where.direct,
            language=admitted.language,
            locale=locale,
            own_answers=own_answers,
        )
        await sink.start()
        try:
            await self._kit.ask(question, sink)
        finally:
            await sink.close()

    async def answers_in(self, where: Conversation) -> bool:
        """Whether citebot answers in ``where``'s channel thread (a reply there naming nobody
        may be a follow-up)."""
        return where.thread is not None and await self._kit.thread_of(thread_key(where)) is not None
