"""Which Teams messages ask citebot something, and what they ask.

In a personal chat every message is for citebot. In a channel or a group chat Teams delivers a
message that mentions the bot (``<at>citebot</at>`` in its text, a ``mention`` entity naming
the bot's account), and, where the team's or chat's owner granted the app the
resource-specific permission to read them, the others too: a reply in a channel thread citebot
answers in is a follow-up (:attr:`~bot.adapter.Heard.REPLY`), any other message naming nobody
a new post (:attr:`~bot.adapter.Heard.POST`); the kit decides from the place's settings whether
either is answered. The bot's mention is taken out of the question; another person's keeps
their name, as the message reads. A message whose first word is one of the bot's commands
(the manifest's ``help``, ``settings``, ``report``, ``forget-me``) is that command, the rest
its arguments. A press of a card's button arrives as a message with a ``value`` (citebot's
own buttons put ``citebot`` in it) and is the buttons' to read (:mod:`.app`).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any, Literal

from microsoft_teams.api.activities import MessageActivity
from microsoft_teams.api.activities.utils import StripMentionsTextOptions, strip_mentions_text
from microsoft_teams.api.models import MentionEntity

from bot.adapter import Heard
from integrations.teams.manifest import COMMANDS
from integrations.teams.place import Conversation

__all__ = ["Asked", "asked", "plain_text", "pressed"]

_TAG = re.compile(r"<[^>]{0,2000}>")
_BREAK = re.compile(r"<br\s*/?>|</p>|</div>", re.IGNORECASE)
_SPACES = re.compile(r"[ \t\u00a0]+")


@dataclass(frozen=True, slots=True)
class Asked:
    """What a message asks of citebot."""

    kind: Literal["question", "command"]
    text: str
    """The question, or the command's arguments."""
    heard: Heard
    command: str = ""


def plain_text(text: str) -> str:
    """A message's words as a person reads them: Teams may send a message's text as HTML
    (``<p>``, entities), which is not part of what they wrote."""
    broken = _BREAK.sub("\n", text)
    lines = [
        _SPACES.sub(" ", html.unescape(_TAG.sub("", line))).strip() for line in broken.split("\n")
    ]
    return "\n".join(line for line in lines if line).strip()


def pressed(activity: MessageActivity) -> dict[str, Any] | None:
    """The ``value`` of one of citebot's own buttons pressed (``citebot`` in it); None for
    any other message."""
    value = activity.value
    if isinstance(value, dict) and isinstance(value.get("citebot"), str):
        return value
    return None


def asked(activity: MessageActivity, conversation: Conversation) -> Asked | None:
    """What ``activity`` asks of the bot; None when it is not meant for it (another bot's,
    the bot's own, a message naming someone else, or nothing written)."""
    sender, bot = activity.from_, activity.recipient
    if sender.id == bot.id or sender.type == "bot" or sender.id.startswith("28:"):
        return None
    mentioned = conversation.direct or activity.is_recipient_mentioned()
    others = [
        entity
        for entity in activity.entities or ()
        if isinstance(entity, MentionEntity) and entity.mentioned.id != bot.id
    ]
    if not mentioned and others:
        return None  # a message to someone else
    # the bot's mention goes; another person's keeps their name (plain_text drops the tags)
    text = plain_text(
        strip_mentions_text(activity, StripMentionsTextOptions(account_id=bot.id)) or ""
    )
    if not text:
        return None
    first, _, rest = text.partition(" ")
    if mentioned and first.lower() in COMMANDS:
        return Asked("command", rest.strip(), Heard.MENTION, command=first.lower())
    if conversation.direct:
        return Asked("question", text, Heard.DIRECT)
    if mentioned:
        return Asked("question", text, Heard.MENTION)
    reply = conversation.thread is not None and conversation.thread != activity.id
    return Asked("question", text, Heard.REPLY if reply else Heard.POST)
