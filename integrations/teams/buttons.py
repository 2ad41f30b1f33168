"""The buttons under an answer that a place's admins set up: "Ask the sources" under an own
answer, "Ask a person" where ``handoff`` is ``admins`` (a team's owners, a group chat's
members).

The kit decides (:meth:`~bot.adapter.Kit.sources_asked`, :meth:`~bot.adapter.Kit.person_asked`):
only the asker's press acts, once. Here a press becomes the answer's key (the message the
button is on), and the kit's decision is shown: the question asked again of the sources, in
the answer's thread, or the one message that mentions the place's admins, each by Teams' own
mention (``<at>`` in the text and a ``mention`` entity naming them, the one deliberate
mention citebot makes: exactly them, nobody else), the asker named in plain text, in the
answer's thread.
"""

from __future__ import annotations

from typing import Any

from microsoft_teams.api.activities import MessageActivity
from microsoft_teams.api.models import TeamsChannelAccount

from bot.adapter import Admitted, Handoff, Kit
from bot.render.ports import Payload
from bot.render.text import clip
from integrations.teams.admins import Admins
from integrations.teams.answering import Answering
from integrations.teams.chatting import Chat
from integrations.teams.limits import TEXT
from integrations.teams.markdown import TeamsMarkdown
from integrations.teams.place import Conversation, answer_key

__all__ = ["AnswerButtons", "handoff_message"]

_MARKDOWN = TeamsMarkdown()
NAME = 100
"""Characters of a person's name in the message."""


def handoff_message(handoff: Handoff, admins: list[TeamsChannelAccount], asker: str) -> Payload:
    """The one message "Ask a person" posts: each admin mentioned, the asker named."""
    words = handoff.words
    tags = [
        f"<at>{_MARKDOWN.escape(clip(a.name or a.id, NAME), line_start=False)}</at>" for a in admins
    ]
    said = _MARKDOWN.escape(words.handoff_request("\x00", "\x01"), line_start=True)
    text = said.replace("\x00", ", ".join(tags)).replace(
        "\x01", _MARKDOWN.escape(clip(asker, NAME), line_start=False)
    )
    entities = [
        {"type": "mention", "text": tag, "mentioned": {"id": admin.id, "name": admin.name}}
        for tag, admin in zip(tags, admins, strict=True)
    ]
    return {
        "type": "message",
        "text": clip(text, TEXT),
        "textFormat": "markdown",
        "entities": entities,
    }


class AnswerButtons:
    def __init__(self, *, kit: Kit, chat: Chat, admins: Admins, answering: Answering) -> None:
        self._kit = kit
        self._chat = chat
        self._admins = admins
        self._answering = answering

    async def pressed(
        self,
        activity: MessageActivity,
        where: Conversation,
        value: dict[str, Any],
        admitted: Admitted,
    ) -> None:
        """A button under an answer (claimed, and the place let through, already)."""
        message = activity.reply_to_id
        if not message:
            return
        key = answer_key(where, message)
        person, language = activity.from_, admitted.language
        action = value.get("action")
        if action == "ask_sources":
            asked = await self._kit.sources_asked(
                answer_key=key, user_id=person.id, language=language
            )
            if isinstance(asked, str):
                await self._chat.say(where, asked)
                return
            await self._answering.ask(
                asked.text,
                where=where,
                person=person,
                admitted=admitted,
                locale=activity.locale,
                own_answers=False,
            )
        elif action == "ask_person":
            handed = await self._kit.person_asked(
                answer_key=key, user_id=person.id, language=language
            )
            if isinstance(handed, str):
                await self._chat.say(where, handed)
                return
            admins = await self._admins.people(where, besides=person.id)
            await self._chat.say(where, handoff_message(handed, admins, person.name or person.id))
