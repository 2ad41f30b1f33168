"""Each Slack user's locale (``pt-BR``), asked once an hour: the language they read.

Slack's events carry no locale, so the asker's comes from ``users.info`` with
``include_locale=true`` (bot scope ``users:read``; Tier 4). The answer for a user is kept in a
bounded in-process LRU with a TTL: a conversation costs one call, a locale change shows within
the hour, and a shared cache would save at most one call per user per worker an hour, which is
not worth a round trip to the state store before every answer. Nothing here may fail an
answer: any failure means "unknown" (the worker's ``CITEBOT_LANGUAGE``), each kind of failure is
logged once, and a missing scope stops the asking for a while instead of failing per question.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

__all__ = ["UserLocales"]

log = logging.getLogger(__name__)

WORKSPACE_FAILURES = frozenset(
    {
        "missing_scope",
        "not_allowed_token_type",
        "no_permission",
        "invalid_auth",
        "account_inactive",
        "token_revoked",
    }
)
"""Errors that no other user would escape: stop asking until the pause is over."""


class UserLocales:
    """``await locales.locale(user)``: the user's Slack locale tag, or None."""

    def __init__(
        self,
        web: AsyncWebClient,
        *,
        size: int = 5000,
        ttl: float = 3600.0,
        failure_ttl: float = 300.0,
        timeout: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._web = web
        self._size = size
        self._ttl = ttl
        self._failure_ttl = failure_ttl
        self._timeout = timeout
        self._clock = clock
        self._known: OrderedDict[str, tuple[float, str | None]] = OrderedDict()
        self._asking: dict[str, asyncio.Task[str | None]] = {}
        self._paused_until = -float("inf")
        self._reported: set[str] = set()

    async def locale(self, user: str) -> str | None:
        """``user``'s Slack locale as Slack writes it (``pt-BR``, ``ja-JP``); None when Slack
        would not say. Concurrent questions of one user share one call."""
        now = self._clock()
        cached = self._known.get(user)
        if cached is not None and cached[0] > now:
            self._known.move_to_end(user)
            return cached[1]
        if now < self._paused_until:
            return None
        task = self._asking.get(user)
        if task is None:
            task = asyncio.create_task(self._ask(user), name="citebot-slack-locale")
            self._asking[user] = task
            task.add_done_callback(lambda _done: self._asking.pop(user, None))
        return await asyncio.shield(task)

    async def _ask(self, user: str) -> str | None:
        try:
            async with asyncio.timeout(self._timeout):
                reply = await self._web.users_info(user=user, include_locale=True)
        except SlackApiError as error:
            code = str(error.response.get("error") or error.response.status_code)
            if code in WORKSPACE_FAILURES:
                self._paused_until = self._clock() + self._ttl
            self._remember(user, None, self._failure_ttl)
            self._report(code, error.response.get("needed"))
            return None
        except Exception as error:  # slow, unreachable or odd: answer without it
            self._remember(user, None, self._failure_ttl)
            self._report(type(error).__name__, None, error)
            return None
        locale = (reply.get("user") or {}).get("locale")
        tag = str(locale) if locale else None
        self._remember(user, tag, self._ttl)
        return tag

    def _remember(self, user: str, tag: str | None, ttl: float) -> None:
        self._known[user] = (self._clock() + ttl, tag)
        self._known.move_to_end(user)
        while len(self._known) > self._size:
            self._known.popitem(last=False)

    def _report(self, code: str, needed: object, error: Exception | None = None) -> None:
        if code in self._reported:
            return
        self._reported.add(code)
        hint = f" (the app needs the {needed} scope)" if needed else ""
        log.warning(
            "users.info failed with %s%s: Slack users read the default language",
            code,
            hint,
            exc_info=error,
        )
