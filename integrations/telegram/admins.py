"""Who may change a group's settings and read its report: the chat's administrators, as
``getChatMember`` says at each command and each press (a person made or unmade an admin a
moment ago is taken as they are now). Anyone else is told so in their language and nothing
changes; in a private chat there is no group to speak of, and a group outside
``TELEGRAM_CHAT_ALLOWLIST`` has no settings or report to show."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from aiogram.exceptions import TelegramAPIError
from aiogram.types import Message, User

from bot.adapter import Kit
from bot.i18n.wording import Wording, catalogue_language
from integrations.telegram.chatting import chat_of, fence, reply
from integrations.telegram.markdown import TelegramHTML
from integrations.telegram.wire import TelegramApi, said

__all__ = ["ADMIN_STATUSES", "AdminCommand", "Admission"]

log = logging.getLogger(__name__)

ADMIN_STATUSES = frozenset({"creator", "administrator"})
"""``ChatMember.status`` of a chat's owner and its administrators."""
_HTML = TelegramHTML()


@dataclass(frozen=True, slots=True)
class Admission:
    words: Wording
    """The person's words: their Telegram language, else the group's."""
    refusal: str | None
    """Why they may not (in their words); None when they may."""


class AdminCommand:
    """A command of a group's administrators (``/settings``, ``/report``): each command and
    each press of its buttons admitted afresh."""

    def __init__(self, *, api: TelegramApi, kit: Kit) -> None:
        self._api = api
        self._kit = kit

    def refused(self, words: Wording) -> str:
        """What someone who is not an administrator is told."""
        raise NotImplementedError

    def outside(self, words: Wording) -> str:
        """What someone asking in a private chat is told."""
        raise NotImplementedError

    async def _admit(self, message: Message, user: User) -> Admission:
        """Whether ``user`` is an administrator of the group ``message`` is in."""
        chat = chat_of(message)
        words = await self._kit.words(fence(chat), catalogue_language(user.language_code))
        if not chat.group:
            return Admission(words, self.outside(words))
        servers = self._kit.environment.allowed_servers
        if servers and str(chat.id) not in servers:  # the allowlist is the fence for admins too
            return Admission(words, words.not_allowed_here())
        try:
            member = await self._api.call(
                {"method": "getChatMember", "chat_id": chat.id, "user_id": user.id}
            )
        except TelegramAPIError as error:  # not known as an admin: refused, nothing changes
            log.warning(
                "Telegram: could not ask who %s is (%s)", user.id, said(error, self._api.token)
            )
            return Admission(words, self.refused(words))
        if member.status not in ADMIN_STATUSES:
            return Admission(words, self.refused(words))
        return Admission(words, None)

    async def _say(self, message: Message, words: str) -> None:
        """Say ``words`` (plain text) in reply to ``message``."""
        await reply(self._api, message, _HTML.escape(words, line_start=True))
