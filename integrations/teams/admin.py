"""``settings``: a Teams place's settings and own answers, shown and changed in the place by
its admins (:mod:`.admins`: a team's owners, a group chat's members).

``@citebot settings`` in a channel shows that channel's settings (``settings team``: the
team's, which its channels follow unless they set their own); in a group chat, the chat's.
The card (:mod:`.admin_view`) is changed through its fields and Save, its own answers through
Add and Remove; each press is admitted afresh, as Teams says the person is now, and every
change goes through the kit (:meth:`~bot.adapter.Kit.change_setting`): a value refused is
said in one line naming it and what it takes, a store that does not answer is said, and
nothing changes. The card is then shown again in its place with what was done above it.
Anyone else is told only admins may, and nothing changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Literal

from microsoft_teams.api.activities import MessageActivity

from bot.adapter import (
    Act,
    Admins,
    Admitted,
    Kit,
    Refusal,
    SettingChange,
    StateUnavailable,
    Venue,
    made_or_refused,
    own_answer_said,
    value_as_said,
)
from bot.i18n.wording import Wording
from integrations.teams.admin_view import (
    ANSWER_FIELD,
    QUESTION_FIELD,
    Page,
    own_values,
    settings_card,
    submitted,
)
from integrations.teams.admins import Admins as TeamsAdmins
from integrations.teams.chatting import Chat, card_message
from integrations.teams.place import Conversation, arrival

__all__ = ["AdminCommand", "SettingsAdmin"]

log = logging.getLogger(__name__)

READ_SECONDS = 1.0
"""The longest the card waits for the history and the own answers: the rest is shown without
them."""
Scope = Literal["server", "channel"]


class AdminCommand:
    """A command of a place's admins (``settings``, ``report``): each command and each press
    admitted afresh, through the kit's admins' gate."""

    duty: Literal["settings", "report"] = "settings"

    def __init__(self, *, kit: Kit, chat: Chat, admins: TeamsAdmins) -> None:
        self._kit = kit
        self._chat = chat
        self._admins = admins

    async def _admit(self, activity: MessageActivity, where: Conversation, act: Act) -> None:
        """``act`` if the person administers ``where``'s place (a place the allowlists let
        in); else they are told why, in their words."""
        person = activity.from_
        gate = Admins(
            is_admin=lambda: self._admins.is_admin(where, person.id, person.aad_object_id),
            duty=self.duty,
        )

        async def refuse(words: str) -> None:
            await self._chat.say(where, words)

        await self._kit.take(arrival(activity), act, gate=gate, refuse=refuse)


def _venue(where: Conversation, scope: object) -> Venue:
    """The place a card shows: the channel's (``channel``), else its team's or the chat's."""
    if scope == "channel" and where.kind == "channel":
        return Venue(server=where.server, channel=where.id)
    return Venue(server=where.server)


class SettingsAdmin(AdminCommand):
    duty = "settings"

    async def command(self, activity: MessageActivity, where: Conversation, rest: str) -> None:
        """``settings`` (``settings team``: the team's, from a channel): the card."""
        scope: Scope = (
            "channel" if where.kind == "channel" and rest.strip().lower() != "team" else "server"
        )

        async def act(admitted: Admitted) -> None:
            page = await self._page(where, scope, ())
            await self._chat.say(where, card_message(settings_card(page, admitted.words)))

        await self._admit(activity, where, act)

    async def saved(
        self, activity: MessageActivity, where: Conversation, value: dict[str, Any]
    ) -> None:
        """Save pressed: every changed field changed, the card shown again in its place."""
        scope = value.get("scope")

        async def act(admitted: Admitted) -> None:
            words = admitted.words
            venue = _venue(where, scope)
            own = own_values(await self._kit.settings_at(venue), channel=venue.channel)
            notices = [
                await self._change(venue, key, new, activity.from_.id, words)
                for key, new in submitted(value, own)
            ]
            await self._again(activity, where, scope, notices or [words.nothing_changed()], words)

        await self._admit(activity, where, act)

    async def answers(
        self, activity: MessageActivity, where: Conversation, value: dict[str, Any]
    ) -> None:
        """An own answer added (its fields filled) or removed (its Remove pressed)."""
        scope = value.get("scope")

        async def act(admitted: Admitted) -> None:
            words = admitted.words
            venue = _venue(where, scope)
            person = activity.from_
            removed = value.get("remove")
            if isinstance(removed, str):
                gone = self._kit.remove_own_answer(venue, removed, by=person.id)
                said = await own_answer_said(gone, words, removed=True)
            else:
                kept = self._kit.add_own_answer(
                    venue,
                    str(value.get(QUESTION_FIELD) or ""),
                    str(value.get(ANSWER_FIELD) or ""),
                    by=person.id,
                    name=person.name or person.id,
                    language=words.language,
                )
                said = await own_answer_said(kept, words)
            await self._again(activity, where, scope, [said], words)

        await self._admit(activity, where, act)

    async def _again(
        self,
        activity: MessageActivity,
        where: Conversation,
        scope: object,
        notices: list[str],
        words: Wording,
    ) -> None:
        """The card shown again where it was pressed, with what was done above it."""
        page = await self._page(where, "channel" if scope == "channel" else "server", notices)
        card = card_message(settings_card(page, words))
        if activity.reply_to_id:
            await self._chat.replace(where, activity.reply_to_id, card)
        else:
            await self._chat.say(where, card)

    async def _change(
        self, venue: Venue, key: str, value: str | None, person: str, words: Wording
    ) -> str:
        """Change ``key`` at ``venue``; what to say of it."""
        made = await made_or_refused(self._kit.change_setting(venue, key, value, by=person), words)
        if isinstance(made, Refusal):
            return made.said
        if made is None:
            return words.nothing_changed()
        log.info("Teams place %s: %s changed by %s", venue.server, key, person)
        now = value_as_said(key, getattr(await self._kit.settings_at(venue), key), words)
        label = f"{words.setting_label(key)} ({key})"
        return words.setting_saved(label, now) if value else words.setting_cleared(label, now)

    async def _page(self, where: Conversation, scope: Scope, notices: Sequence[str]) -> Page:
        venue = _venue(where, scope)
        settings = await self._kit.settings_at(venue)
        changes: list[SettingChange] = []
        answers = None
        try:
            async with asyncio.timeout(READ_SECONDS):
                changes = await self._kit.setting_history(venue)
                answers = await self._kit.own_answers(venue)
        except (StateUnavailable, TimeoutError):
            log.info("the settings card is drawn without its history or own answers")
        return Page(
            scope=scope,
            settings=settings,
            own=own_values(settings, channel=venue.channel),
            answers=answers,
            changes=changes,
            notices=tuple(notices),
        )
