""" "Check with sources": a message action (the manifest's ``checkWithSources``, in every
message's "..." menu) that asks the sources about what a message says.

Teams asks the bot for the action's dialog (``composeExtension/fetchTask``, with the message
in ``messagePayload``, its body as HTML); the bot answers at once with a short message
(``task`` of type ``message``): that it is checking, or why it will not. The check itself runs
in the conversation: the message's words are quoted first (its author named as Teams shows
them, never mentioned), in the message's thread where it is in a channel, then asked upstream
as :meth:`~bot.i18n.wording.Wording.claim_question` in the asker's language, and the answer
follows there, its citations' popups with their quotes' verdicts (learn.microsoft.com/
microsoftteams/platform/messaging-extensions/how-to/action-commands/create-task-module).
"""

from __future__ import annotations

from typing import Any

from microsoft_teams.api.activities.invoke.message_extension import (
    MessageExtensionFetchTaskInvokeActivity,
)
from microsoft_teams.api.models import Message

from bot.adapter import Admitted, Kit
from bot.i18n.wording import catalogue_language
from bot.render.text import clip
from integrations.teams.answering import Answering
from integrations.teams.chatting import Chat
from integrations.teams.manifest import CHECK_COMMAND
from integrations.teams.place import Conversation, arrival, conversation_of
from integrations.teams.questions import plain_text

__all__ = ["ClaimCheck", "task_message"]

QUOTED = 1500
"""Characters of the claim quoted (the answer says the rest)."""
_BODY = 200_000
"""Characters of a message's HTML read for its words."""


def task_message(text: str) -> dict[str, Any]:
    """A message action's answer that shows ``text`` in a small dialog."""
    return {"task": {"type": "message", "value": clip(text, 500)}}


def _words(message: Message | None) -> str:
    body = message.body if message is not None else None
    return plain_text((body.content or "")[:_BODY]) if body is not None else ""


def _author(message: Message) -> str:
    sender = message.from_
    if sender is None:
        return ""
    who = sender.user or sender.application
    return (who.display_name or "") if who is not None else ""


class ClaimCheck:
    def __init__(self, *, kit: Kit, chat: Chat, answering: Answering) -> None:
        self._kit = kit
        self._chat = chat
        self._answering = answering

    async def fetched(self, activity: MessageExtensionFetchTaskInvokeActivity) -> dict[str, Any]:
        """The action chosen on a message: the dialog's answer now, the check in a task."""
        value = activity.value
        words = self._kit.wording(catalogue_language(activity.locale))
        said = f"citebot {words.thinking()}"
        if value.command_id != CHECK_COMMAND or value.message_payload is None:
            return task_message(said)
        message = value.message_payload
        claim = _words(message)
        where = conversation_of(activity).in_thread(message.reply_to_id or message.id)

        async def act(admitted: Admitted) -> None:
            nonlocal said
            if not claim:
                said = admitted.words.nothing_to_check()
                return
            self._kit.spawn(self._check(activity, where, message, claim, admitted))

        async def refuse(refusal: str) -> None:
            nonlocal said
            said = refusal

        await self._kit.take(arrival(activity), act, refuse=refuse)
        return task_message(said)

    async def _check(
        self,
        activity: MessageExtensionFetchTaskInvokeActivity,
        where: Conversation,
        message: Message,
        claim: str,
        admitted: Admitted,
    ) -> None:
        words = admitted.words
        lead = " · ".join(part for part in (words.check_with_sources(), _author(message)) if part)
        quoted = "\n".join(f"> {line}" for line in clip(claim, QUOTED).splitlines())
        await self._chat.say(where, f"🔎 {lead}\n{quoted}")
        await self._answering.ask(
            self._kit.claim_question(words, claim),
            where=where,
            person=activity.from_,
            admitted=admitted,
            locale=activity.locale,
        )
