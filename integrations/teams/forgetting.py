"""Forgetting on Teams: ``forget-me``, and a team or a group chat that removes the bot.

``forget-me`` is everyone's, wherever it reaches the bot, and neither the allowlists nor a
place's ``enabled`` stand in its way: a person's right to be forgotten does not depend on where
they ask. It asks first, in the person's language: what will be deleted, that it cannot be
undone, and what it cannot delete (the messages already in Teams, which are Teams'), with one
button. The button carries the asker's Teams id, and a press by anyone else is refused: in a
channel everyone sees the card, and nobody can delete another's data. The press deletes
everything kept about the asker and says so in place of the card; a store that does not answer
says so and keeps the button for another try.

The bot uninstalled from a team or a group chat (``installationUpdate`` ``remove``, or a
``conversationUpdate`` whose ``membersRemoved`` names the bot) deletes everything kept about
that place, tried again while the store does not answer
(:meth:`~bot.adapter.Kit.forget_removed`). A person who removes the bot from their personal
chat asked nothing to be forgotten, and nothing is.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from microsoft_teams.api.activities import (
    ConversationUpdateActivity,
    MessageActivity,
    UninstalledActivity,
)
from microsoft_teams.cards import ActionSet, TextBlock

from bot.adapter import (
    FORGET_RETRIES,
    Admitted,
    Arrival,
    ForgetTooSoon,
    Kit,
    StateUnavailable,
)
from bot.i18n.wording import Wording
from bot.render.ports import Payload
from integrations.teams.cards import adaptive, attached, submit
from integrations.teams.chatting import Chat, card_message, plain
from integrations.teams.place import Conversation, arrival, conversation_of

__all__ = ["FORGET", "TEAMS", "Forgetting"]

log = logging.getLogger(__name__)

FORGET = "forget"
"""``value.citebot`` of the button that confirms forget-me; ``user`` is the asker's id."""
TEAMS = "Microsoft Teams"


def _asked(words: Wording, person: str, said: str = "") -> Payload:
    """The question, and its button."""
    texts = [said] if said else []
    texts += [words.forget_me_asks(), words.forget_me_leaves(TEAMS)]
    body = [TextBlock(text=text, wrap=True) for text in texts]
    button = submit(words.forget_me_button(), {"citebot": FORGET, "user": person})
    return card_message(attached(adaptive([*body, ActionSet(actions=[button])])))


class Forgetting:
    def __init__(self, *, kit: Kit, chat: Chat, retries: Sequence[float] = FORGET_RETRIES) -> None:
        self._kit = kit
        self._chat = chat
        self._retries = tuple(retries)

    async def command(self, activity: MessageActivity, where: Conversation) -> None:
        """``forget-me``: what it will do, and the button that does it."""

        async def act(admitted: Admitted) -> None:
            await self._chat.say(where, _asked(admitted.words, activity.from_.id))

        await self._kit.take(arrival(activity), act, gate="everyone")

    async def pressed(
        self, activity: MessageActivity, where: Conversation, value: dict[str, Any]
    ) -> None:
        """The button pressed: its asker forgotten, if they pressed it, and said so in its
        card's place."""

        async def act(admitted: Admitted) -> None:
            await self._forget(activity, where, value, admitted.words)

        await self._kit.take(arrival(activity), act, gate="everyone")

    async def _forget(
        self,
        activity: MessageActivity,
        where: Conversation,
        value: dict[str, Any],
        words: Wording,
    ) -> None:
        person = activity.from_.id
        if value.get("user") != person:
            await self._chat.say(where, words.not_your_button())
            return
        try:
            forgotten = await self._kit.forget_person(person)
        except StateUnavailable:
            await self._show(activity, where, _asked(words, person, words.could_not_forget()))
            return
        except ForgetTooSoon as soon:
            await self._show(activity, where, plain(words.forget_me_too_soon(soon.retry_after)))
            return
        log.info("forget-me: %d things kept about a person deleted", forgotten)
        done = f"{words.forgot_you()}\n\n{words.forget_me_leaves(TEAMS)}"
        await self._show(activity, where, plain(done))

    async def _show(self, activity: MessageActivity, where: Conversation, message: Payload) -> None:
        if activity.reply_to_id:
            await self._chat.replace(where, activity.reply_to_id, message)
        else:
            await self._chat.say(where, message)

    async def removed(self, activity: ConversationUpdateActivity | UninstalledActivity) -> None:
        """The bot removed from a team or a group chat: its data goes."""
        if isinstance(activity, ConversationUpdateActivity):
            bot = activity.recipient.id
            if not any(member.id == bot for member in activity.members_removed or ()):
                return
        where = conversation_of(activity)
        server = where.server
        if server is None:
            return

        async def act(_: Admitted) -> None:
            await self._kit.forget_removed(server, self._retries)

        gone = Arrival(keys=(f"activity:{where.id}:{activity.id}",), venue=where.venue())
        await self._kit.take(gone, act, gate="everyone")
