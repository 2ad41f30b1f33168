"""Which Telegram messages are questions for citebot, and what they ask.

In a private chat every message is a question (``/start`` and ``/help`` ask how to ask). In a
group only what is meant for the bot: ``/ask`` (``/ask@bot``; alone, in reply to someone's
message, it asks that message), a mention of the bot, a reply to one of its messages. With
privacy mode on, the default, Telegram delivers a group's ``/ask@bot`` and replies to the bot's
messages, but not a plain ``@bot`` mention (nor a bare ``/ask`` unless the bot spoke last):
mentions are answered when they arrive (the bot is a group admin, or privacy mode is off). A
reply continues the conversation of the message it answers; in a forum topic every message
"replies" to the topic's first message, which is not one. The kit decides the rest from the
group's settings, as on every platform (:class:`~bot.adapter.Heard`): a bare reply to the bot
is a follow-up (:attr:`Asked.follow_up`, where ``follow_ups_without_mention`` is on), and any
new message naming nobody is a question where ``auto_answer`` is on (:func:`for_everyone`).
Entity offsets are UTF-16 units (:func:`utf16_cut`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from aiogram.types import Message, MessageEntity, User

from bot.adapter import Heard

__all__ = [
    "Asked",
    "asked",
    "checked_message",
    "command_of",
    "for_everyone",
    "replied_bot_message",
    "utf16_cut",
]

ASK = "ask"
HELP = frozenset({"start", "help"})


@dataclass(frozen=True, slots=True)
class Asked:
    """What a message asks of citebot."""

    kind: Literal["question", "help"]
    text: str = ""
    replied: Message | None = None
    """The bot's message it replies to: its conversation continues."""
    follow_up: bool = False
    """Only a reply to the bot's message (no command, no mention): in a group, answered where
    ``follow_ups_without_mention`` is on."""
    everyone: bool = False
    """A group's message naming nobody (:func:`for_everyone`): answered where ``auto_answer``
    is on."""

    @property
    def heard(self) -> Heard:
        """How it reached citebot, for the kit to decide whether it is answered."""
        if self.follow_up:
            return Heard.REPLY
        return Heard.POST if self.everyone else Heard.MENTION


def utf16_cut(text: str, offset: int, length: int) -> tuple[str, str, str]:
    """``text`` before, inside and after an entity given in UTF-16 units."""
    units = text.encode("utf-16-le")
    start, end = offset * 2, (offset + length) * 2
    return (
        units[:start].decode("utf-16-le"),
        units[start:end].decode("utf-16-le"),
        units[end:].decode("utf-16-le"),
    )


def _command(message: Message, text: str) -> tuple[str, str | None, str] | None:
    """The command the message starts with: its name, the bot it names, the text after it."""
    first = next(
        (e for e in message.entities or () if e.type == "bot_command" and e.offset == 0), None
    )
    if first is None:
        return None
    _, command, rest = utf16_cut(text, 0, first.length)
    name, _, target = command[1:].partition("@")
    return name.lower(), target or None, rest.strip()


def _mentions_bot(entity: MessageEntity, text: str, me: User) -> bool:
    if entity.type == "text_mention":
        return entity.user is not None and entity.user.id == me.id
    if entity.type != "mention" or not me.username:
        return False
    return utf16_cut(text, entity.offset, entity.length)[1][1:].lower() == me.username.lower()


def _without_mentions(message: Message, text: str, me: User) -> tuple[str, bool]:
    """The text with every mention of the bot taken out, and whether there was one."""
    found = [e for e in message.entities or () if _mentions_bot(e, text, me)]
    for entity in sorted(found, key=lambda e: e.offset, reverse=True):
        before, _, after = utf16_cut(text, entity.offset, entity.length)
        text = before.rstrip() + " " + after.lstrip()
    return " ".join(text.split(" ")).strip(), bool(found)


def replied_bot_message(message: Message, me: User) -> Message | None:
    """The bot's message this one replies to (not a forum topic's first message)."""
    replied = message.reply_to_message
    if replied is None or replied.from_user is None or replied.from_user.id != me.id:
        return None
    if message.is_topic_message and replied.message_id == message.message_thread_id:
        return None
    return replied


def asked(message: Message, me: User) -> Asked | None:
    """What ``message`` asks of the bot ``me``; None when it is not meant for it."""
    text = message.text
    if text is None or message.from_user is None or message.from_user.is_bot:
        return None
    private = message.chat.type == "private"
    replied = replied_bot_message(message, me)
    command = _command(message, text)
    if command is not None:
        name, target, rest = command
        if target is not None and target.lower() != (me.username or "").lower():
            return None  # another bot's command
        if name == ASK:
            other = message.reply_to_message
            if not rest and replied is None and other is not None and other.text:
                rest = other.text.strip()  # /ask in reply to someone's message asks it
            return Asked("question", rest, replied)
        if name in HELP or private:
            return Asked("help")
        return None
    if private:
        return Asked("question", text.strip(), replied)
    question, mentioned = _without_mentions(message, text, me)
    if mentioned or replied is not None:
        return Asked("question", question, replied, follow_up=not mentioned)
    return None


def command_of(message: Message, me: User) -> tuple[str, str] | None:
    """The command ``message`` gives the bot ``me``, and the text after it; None when it
    gives none (or names another bot)."""
    if message.text is None or message.from_user is None or message.from_user.is_bot:
        return None
    command = _command(message, message.text)
    if command is None:
        return None
    name, target, rest = command
    if target is not None and target.lower() != (me.username or "").lower():
        return None
    return name, rest


def _replied_other(message: Message) -> Message | None:
    """The message ``message`` replies to (not a forum topic's first message)."""
    replied = message.reply_to_message
    if replied is None:
        return None
    if message.is_topic_message and replied.message_id == message.message_thread_id:
        return None
    return replied


def checked_message(message: Message) -> Message | None:
    """The message a ``/check`` replies to: the one whose words are checked."""
    return _replied_other(message)


def for_everyone(message: Message, me: User) -> Asked | None:
    """A group's message as ``auto_answer`` answers it: a person's new text, not a command,
    not a reply to someone else, mentioning nobody (the bot's own mention and replies are
    :func:`asked`'s); None when it is not one."""
    text = message.text
    if text is None or message.from_user is None or message.from_user.is_bot:
        return None
    if _command(message, text) is not None or _replied_other(message) is not None:
        return None
    if any(e.type in ("mention", "text_mention") for e in message.entities or ()):
        return None
    return Asked("question", text.strip(), everyone=True)
