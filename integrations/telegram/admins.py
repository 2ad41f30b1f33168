"""Who may change a group's settings and read its report: the chat's administrators, as
``getChatMember`` says at each command and each press (a person made or unmade an admin a
moment ago is taken as they are now). Anyone else is told so in their language and nothing
changes; in a private chat there is no group to speak of, and a group outside
``TELEGRAM_CHAT_ALLOWLIST`` has no settings or report to show."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from aiogram.exceptions import TelegramAPIError
from aiogram.types import User

from bot.i18n.wording import Wording, catalogue_language
from bot.kit import PlatformKit
from integrations.telegram.chatting import fence
from integrations.telegram.place import Chat
from integrations.telegram.wire import TelegramApi, said

__all__ = ["ADMIN_STATUSES", "Admission", "admit"]

log = logging.getLogger(__name__)

ADMIN_STATUSES = frozenset({"creator", "administrator"})
"""``ChatMember.status`` of a chat's owner and its administrators."""


@dataclass(frozen=True, slots=True)
class Admission:
    words: Wording
    """The person's words: their Telegram language, else the group's."""
    refusal: str | None
    """Why they may not (in their words); None when they may."""


async def admit(
    api: TelegramApi,
    kit: PlatformKit,
    chat: Chat,
    user: User,
    *,
    refused: Callable[[Wording], str],
    outside: Callable[[Wording], str],
) -> Admission:
    """Whether ``user`` is an administrator of the group ``chat``: ``refused`` says it to one
    who is not, ``outside`` to one asking in a private chat."""
    words = await kit.words(fence(chat), catalogue_language(user.language_code))
    if not chat.group:
        return Admission(words, outside(words))
    servers = kit.environment.allowed_servers
    if servers and str(chat.id) not in servers:  # the allowlist is the fence for admins too
        return Admission(words, words.not_allowed_here())
    try:
        member = await api.call({"method": "getChatMember", "chat_id": chat.id, "user_id": user.id})
    except TelegramAPIError as error:  # not known as an admin: refused, nothing changes
        log.warning("Telegram: could not ask who %s is (%s)", user.id, said(error, api.token))
        return Admission(words, refused(words))
    if member.status not in ADMIN_STATUSES:
        return Admission(words, refused(words))
    return Admission(words, None)
