"""Who may change a group's settings and read its report: the chat's administrators, as
``getChatMember`` says at each command and each press (a person made or unmade an admin a
moment ago is taken as they are now). Anyone else is told so in their language and nothing
changes; in a private chat there is no group to speak of, and a group outside
``TELEGRAM_CHAT_ALLOWLIST`` has no settings or report to show."""

from __future__ import annotations

import logging
from typing import Literal

from aiogram.exceptions import TelegramAPIError
from aiogram.types import Message, Update, User

from bot.adapter import Act, Admins, Kit, Say
from integrations.telegram.chatting import arrival, chat_of, reply
from integrations.telegram.markdown import TelegramHTML
from integrations.telegram.place import Chat
from integrations.telegram.wire import TelegramApi, said

__all__ = ["ADMIN_STATUSES", "AdminCommand"]

log = logging.getLogger(__name__)

ADMIN_STATUSES = frozenset({"creator", "administrator"})
"""``ChatMember.status`` of a chat's owner and its administrators."""
_HTML = TelegramHTML()


class AdminCommand:
    """A command of a group's administrators (``/settings``, ``/report``): each command and
    each press of its buttons admitted afresh, through the kit's admins' gate."""

    duty: Literal["settings", "report"] = "settings"

    def __init__(self, *, api: TelegramApi, kit: Kit) -> None:
        self._api = api
        self._kit = kit

    async def _admit(
        self, update: Update, message: Message, user: User, act: Act, refuse: Say
    ) -> None:
        """``act`` if ``user`` is an administrator of the group ``message`` is in (a group
        the allowlist lets in); else ``refuse`` says why, in their words."""
        chat = chat_of(message)
        gate = Admins(is_admin=lambda: self._is_admin(chat, user), duty=self.duty)
        await self._kit.take(arrival(update, message, user), act, gate=gate, refuse=refuse)

    async def _is_admin(self, chat: Chat, user: User) -> bool:
        try:
            member = await self._api.call(
                {"method": "getChatMember", "chat_id": chat.id, "user_id": user.id}
            )
        except TelegramAPIError as error:  # not known as an admin: refused, nothing changes
            log.warning(
                "Telegram: could not ask who %s is (%s)", user.id, said(error, self._api.token)
            )
            return False
        return member.status in ADMIN_STATUSES

    async def _say(self, message: Message, words: str) -> None:
        """Say ``words`` (plain text) in reply to ``message``."""
        await reply(self._api, message, _HTML.escape(words, line_start=True))
