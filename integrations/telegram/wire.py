"""The one place Bot API calls leave the process: aiogram's ``Bot`` on
``TELEGRAM_API_BASE_URL``, each call written as the method's parameters with its name under
``"method"`` (the payloads the presenter makes, and ``citebot ask --json`` prints).

Every message write (a send or an edit) takes its slot in the chat's pace first (the core's
write budget, :mod:`integrations.telegram.pace`). A 429 is counted and its ``retry_after``
holds the chat's window; a write that must land waits it out and goes again, one that
can be skipped is dropped (:class:`Skipped`), its text carried by the next. "Message is not
modified" is success: the message already shows it. What Telegram refuses for the way a
message is written (:func:`refused_for_form`) is for the sink to send again plainer. Errors
are logged by :func:`said`, which never shows the token (aiohttp's errors can carry the URL,
and the token is in its path).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

from aiogram import Bot
from aiogram import methods as bot_methods
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramRetryAfter
from aiogram.methods.base import TelegramMethod

from bot.adapter import WriteBudget
from bot.render.ports import Payload
from integrations.telegram.markdown import plain
from integrations.telegram.pace import pace_limits, waited_for, windows
from integrations.telegram.place import Chat

__all__ = [
    "PACED",
    "Skipped",
    "TelegramApi",
    "message_id",
    "not_modified",
    "refused_for_form",
    "said",
]

log = logging.getLogger(__name__)

PACED = frozenset({"sendMessage", "sendRichMessage", "editMessageText", "editMessageReplyMarkup"})
"""The methods Telegram's message pace counts."""
RETRIES = 3
"""How many 429s a write that must land waits out before it gives up."""
_FORM = (
    "can't parse",
    "is too long",
    "text must be non-empty",
    "message text is empty",
    "entity",
    "rich message",
    "unsupported parse_mode",
)
"""Telegram's words for a message it refuses for how it is written (tdlib, the simulator)."""


class Skipped(Exception):
    """A write that could be skipped was: Telegram asked to wait (its text goes with the next)."""


@functools.cache
def _method_classes() -> dict[str, type[TelegramMethod[Any]]]:
    found: dict[str, type[TelegramMethod[Any]]] = {}
    for name in bot_methods.__all__:
        kind = getattr(bot_methods, name)
        if isinstance(kind, type) and issubclass(kind, TelegramMethod):
            found[str(kind.__api_method__)] = kind
    return found


def message_id(result: Any) -> int:
    """The id of the message a send or an edit returned."""
    return int(result.message_id)


def not_modified(error: TelegramAPIError) -> bool:
    return isinstance(error, TelegramBadRequest) and "message is not modified" in error.message


def refused_for_form(error: TelegramAPIError) -> bool:
    """Whether Telegram refused a message for how it is written (its markup, its length),
    which a plainer message may fix."""
    return isinstance(error, TelegramBadRequest) and any(words in error.message for words in _FORM)


def said(error: BaseException, token: str) -> str:
    """An error as a log line may show it: its kind and Telegram's words, never the token."""
    words = error.message if isinstance(error, TelegramAPIError) else str(error)
    return f"{type(error).__name__}: {words}".replace(token, "…") if token else words


class TelegramApi:
    """A bot's Bot API: calls made from payloads, message writes paced."""

    def __init__(
        self,
        bot: Bot,
        *,
        budget: WriteBudget | None = None,
        on_429: Callable[[], None] = lambda: None,
    ) -> None:
        self.bot = bot
        self.budget = budget or WriteBudget(pace_limits())
        self._on_429 = on_429

    @property
    def token(self) -> str:
        return self.bot.token

    async def call(
        self, payload: Payload, *, chat: Chat | None = None, skippable: bool = False
    ) -> Any:
        """Call ``payload["method"]`` with the rest as its parameters; a message write in
        ``chat`` keeps the chat's pace. ``skippable``: on a 429, raise :class:`Skipped`
        instead of waiting. Returns the method's result (None for a "not modified" edit)."""
        name = str(payload["method"])
        method = _method_classes()[name].model_validate(
            {key: value for key, value in payload.items() if key != "method"}
        )
        paced = chat is not None and name in PACED
        for attempt in range(RETRIES + 1):
            if paced:
                assert chat is not None
                await self.budget.acquire(*windows(chat))
            try:
                return await self.bot(method)
            except TelegramRetryAfter as error:
                self._on_429()
                if chat is not None:
                    await self.budget.pause(waited_for(chat), error.retry_after)
                if skippable:
                    raise Skipped(name) from error
                if attempt == RETRIES:
                    raise
                log.info("Telegram asked to wait %d s before %s", error.retry_after, name)
                if chat is None:
                    await asyncio.sleep(error.retry_after)
            except TelegramBadRequest as error:
                if not_modified(error):
                    return None
                raise
        raise AssertionError("unreachable")

    async def write(
        self, payload: Payload, *, chat: Chat, skippable: bool
    ) -> tuple[bool, int | None]:
        """Send or edit one text message, again without its formatting if Telegram refuses
        that (never lost): whether it was written (a skippable one Telegram asks to wait for
        is not), and the message's id (None for an edit that changed nothing)."""
        try:
            result = await self.call(payload, chat=chat, skippable=skippable)
        except Skipped:
            return False, None
        except TelegramAPIError as error:
            if not refused_for_form(error):
                raise
            log.warning("Telegram refused a message (%s); sending it plainer", error.message)
            plainer = {**payload, "text": plain(str(payload["text"]))[:4096] or "…"}
            plainer.pop("parse_mode", None)
            try:
                result = await self.call(plainer, chat=chat, skippable=skippable)
            except Skipped:
                return False, None
        return True, None if result is None else message_id(result)
