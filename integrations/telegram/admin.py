"""``/settings``: a group's settings, shown and changed in the group by its administrators.

``/settings`` lists the settings in effect and where each comes from, with a button for each
switch and each language; ``/settings set KEY VALUE`` and ``/settings unset KEY`` change any
setting (a number, the disclaimer), ``/settings history`` lists who changed what, and
``/settings answers`` the group's own answers (:mod:`.answers_view`). Every command
and every press is admitted afresh (:mod:`.admins`), and changes go through the kit
(:meth:`~bot.kit.Kit.change_setting`): a value refused is said in one line naming it
and what it takes, a store that does not answer is said, and nothing changes.
"""

from __future__ import annotations

import logging

from aiogram.types import CallbackQuery, Message, Update, User

from bot.adapter import KEYS, Admitted, Refusal, StateUnavailable, made_or_refused
from bot.i18n.wording import Wording
from integrations.telegram.admin_view import (
    TELEGRAM_KEYS,
    history_text,
    pressed_setting,
    settings_buttons,
    settings_text,
    shown,
)
from integrations.telegram.admins import AdminCommand
from integrations.telegram.answers_view import own_answers_command
from integrations.telegram.chatting import answer_press, chat_of, fence, reply, show
from integrations.telegram.markdown import TelegramHTML, visible
from integrations.telegram.words import settings_how_to

__all__ = ["SettingsAdmin"]

log = logging.getLogger(__name__)

_HTML = TelegramHTML()


class SettingsAdmin(AdminCommand):
    duty = "settings"

    async def command(self, update: Update, message: Message, rest: str) -> None:
        """``/settings [set KEY VALUE | unset KEY | history]``."""
        user = message.from_user
        assert user is not None

        async def act(admitted: Admitted) -> None:
            await self._command(message, user, admitted.words, rest)

        await self._admit(update, message, user, act, lambda words: self._say(message, words))

    async def _command(self, message: Message, user: User, words: Wording, rest: str) -> None:
        verb, _, arguments = rest.partition(" ")
        verb = verb.lower()
        if verb == "set" and arguments.strip():
            key, _, value = arguments.strip().partition(" ")
            said = await self._change(message, user, words, key, value)
        elif verb == "unset" and arguments.strip():
            said = await self._change(message, user, words, arguments.strip(), None)
        elif verb == "history":
            said = await self._history(message, words)
        elif verb == "answers":
            where = fence(chat_of(message))
            said = await own_answers_command(self._kit, where, user, words, arguments)
        elif not verb:
            await self._listing(message, words)
            return
        else:
            said = _HTML.escape(settings_how_to(words), line_start=True)
        await reply(self._api, message, said)

    async def pressed(self, update: Update, query: CallbackQuery, message: Message) -> None:
        """A setting's button under a listing: changed, and the listing shown again."""
        found = pressed_setting(query.data or "")
        if found is None:
            await answer_press(self._api, query)
            return
        key, value = found

        async def act(admitted: Admitted) -> None:
            said = await self._change(message, query.from_user, admitted.words, key, value)
            await answer_press(self._api, query, visible(said))
            await self._listing(message, admitted.words, edit=True)

        async def refuse(words: str) -> None:
            await answer_press(self._api, query, words, alert=True)

        await self._admit(update, message, query.from_user, act, refuse)

    async def _listing(self, message: Message, words: Wording, *, edit: bool = False) -> None:
        settings = await self._kit.settings_at(fence(chat_of(message)))
        default = str(KEYS["language"].default(self._kit.settings))
        text = settings_text(settings, words)
        buttons = settings_buttons(settings, words, default=default)
        if edit:
            await show(self._api, message, text, buttons=buttons)
        else:
            await reply(self._api, message, text, buttons=buttons)

    async def _change(
        self, message: Message, user: User, words: Wording, key: str, value: str | None
    ) -> str:
        """Change ``key`` in the group; what to say of it, in HTML."""
        where = fence(chat_of(message))
        name = key.strip().lower().replace("-", "_")
        if name not in TELEGRAM_KEYS:
            return _HTML.escape(words.no_such_setting(key, TELEGRAM_KEYS), line_start=True)
        made = await made_or_refused(
            self._kit.change_setting(where, name, value, by=str(user.id)), words
        )
        if isinstance(made, Refusal):
            return _HTML.escape(made.said, line_start=True)
        log.info("Telegram group %s: %s changed by %s", where.server, name, user.id)
        now = shown(name, getattr(await self._kit.settings_at(where), name), words)
        code = "\x00"
        said = words.setting_saved(code, "\x01") if value else words.setting_cleared(code, "\x01")
        escaped = _HTML.escape(said, line_start=True)
        return escaped.replace("\x00", f"<code>{name}</code>").replace("\x01", now)

    async def _history(self, message: Message, words: Wording) -> str:
        try:
            changes = await self._kit.setting_history(fence(chat_of(message)))
        except StateUnavailable:
            return _HTML.escape(words.could_not_save(), line_start=True)
        return history_text(changes, words)
