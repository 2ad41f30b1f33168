"""What citebot says in a Teams conversation outside an answer (its settings, its report, a
forget-me, help, a refusal): a line of plain text or an Adaptive Card, in the conversation and
thread it was asked in, within the conversation's pace, and a card replaced in place once a
button on it was pressed."""

from __future__ import annotations

import logging

from bot.render.ports import Payload
from bot.render.text import clip
from integrations.teams.limits import TEXT
from integrations.teams.place import Conversation
from integrations.teams.sink import Pace, deliver
from integrations.teams.wire import TeamsRefused, TeamsWire, TooLarge

__all__ = ["Chat", "card_message", "plain"]

log = logging.getLogger(__name__)


def plain(text: str) -> Payload:
    """A message of plain text (Teams shows it as written: no Markdown, no mention)."""
    return {"type": "message", "text": clip(text, TEXT), "textFormat": "plain"}


def card_message(card: Payload, text: str = "") -> Payload:
    """A message holding one Adaptive Card (``text``: a line above it)."""
    message: Payload = {"type": "message", "attachments": [card]}
    if text:
        message |= {"text": clip(text, TEXT), "textFormat": "plain"}
    return message


class Chat:
    """Says things in Teams' conversations, through the one wire and the shared pace."""

    def __init__(self, *, wire: TeamsWire, pace: Pace) -> None:
        self.wire = wire
        self.pace = pace

    async def say(self, where: Conversation, message: Payload | str) -> str | None:
        """Send ``message`` (a plain line, if text) where ``where`` is; its id, or None when
        Teams took no form of it."""
        payload = plain(message) if isinstance(message, str) else message
        return await deliver(self.wire, self.pace, where, payload)

    async def replace(self, where: Conversation, message_id: str, message: Payload) -> bool:
        """Show ``message`` in place of citebot's own ``message_id`` (a card whose button was
        pressed); whether Teams took it (else it is said anew)."""
        await self.pace(where.id, True)
        try:
            await self.wire.update(where.service_url, where.address, message_id, message)
            return True
        except (TeamsRefused, TooLarge) as refused:
            log.warning("Teams refused to replace a card: %s", refused)
        return await self.say(where, message) is not None
