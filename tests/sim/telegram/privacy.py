"""Which group messages reach a bot: privacy mode, as Telegram documents it today.

core.telegram.org/bots/features#privacy-mode: "By default, all bots added to groups run in
Privacy Mode and only see relevant messages and commands: Commands explicitly meant for them
(e.g., /command@this_bot). General commands (e.g. /start) if the bot was the last bot to send a
message to the group. Inline messages sent via the bot. Replies to any messages implicitly or
explicitly meant for this bot. All bots will also receive, regardless of privacy mode: All
service messages. All messages from private chats. [...] Privacy mode is enabled by default for
all bots, except bots that were added to a group as admins (bot admins always receive all
messages)." and the Bot FAQ: bot admins and bots with privacy mode disabled "will receive all
messages except messages sent by other bots".

A plain ``@bot`` mention is not on the list, and bots that tried found it does not arrive
(archestra-ai/archestra#6562, 2026: "plain @botname mentions never reach the bot";
HKUDS/nanobot#449; python-telegram-bot#4473): the simulator does not deliver it either. A bare
``/command`` counts when the message starts with it (and, before any bot has spoken, when no
other bot is in the group). Replies count when they answer one of the
bot's messages; in a forum topic every message answers the topic's first message, so a topic the
bot opened delivers everything said in it.
"""

from __future__ import annotations

from tests.sim.telegram.model import SimChat, SimMessage, SimUser

__all__ = ["reaches_bot"]


def _command(message: SimMessage) -> tuple[str, str | None] | None:
    """The command the message starts with, and the bot it names, if any."""
    first = next(
        (e for e in message.entities if e["type"] == "bot_command" and e["offset"] == 0), None
    )
    if first is None:
        return None
    word = message.text[: first["length"]]
    name, _, target = word.partition("@")
    return name, target or None


def reaches_bot(message: SimMessage, bot: SimUser, chat: SimChat) -> bool:
    if chat.kind == "private":
        return True
    member = chat.members.get(bot.id)
    if member is None:
        return False
    if message.service:
        return True
    if message.sender.is_bot:
        return False
    if member.status == "administrator" or not member.privacy:
        return True
    command = _command(message)
    if command is not None:
        _, target = command
        if target is not None:
            return target.lower() == (bot.username or "").lower()
        if chat.last_bot_sender is None:
            return not any(m.user.is_bot and m.user is not bot for m in chat.members.values())
        return chat.last_bot_sender == bot.id
    return message.reply_to is not None and message.reply_to.sender is bot
