"""Each Slack user's locale (``pt-BR``), asked once an hour: the language they read.

Slack's events carry no locale, so the asker's comes from ``users.info`` with
``include_locale=true`` (bot scope ``users:read``; Tier 4). The answer for a user is kept by the
core's :class:`~bot.lookups.Lookup` for an hour: in the worker (a bounded LRU, so a conversation
costs no round trip at all) and in the state store, so that the workers of a burst (Slack
spreads events over their connections) ask once per user between them, not once each; a locale
change shows within the hour. Nothing here may fail an answer: any failure means "unknown" (the
worker's ``CITEBOT_LANGUAGE``), each kind of failure is logged once, and a missing scope stops
the asking for a while instead of failing per question.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.adapter import Kept, Looked, Lookup

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
        kept: Kept | None = None,
        size: int = 5000,
        ttl: float = 3600.0,
        failure_ttl: float = 300.0,
        timeout: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``kept``: where the workers keep what one of them asked (the kit's)."""
        self._web = web
        self._ttl = ttl
        self._failure_ttl = failure_ttl
        self._timeout = timeout
        self._clock = clock
        self._lookup = Lookup(self._ask, kept=kept, size=size, clock=clock)
        self._paused_until = -float("inf")
        self._reported: set[str] = set()

    async def locale(self, user: str, *, team: str | None) -> str | None:
        """``user``'s Slack locale as Slack writes it (``pt-BR``, ``ja-JP``); None when Slack
        would not say. Concurrent questions of one user share one call; ``team``: their
        workspace, whose forgetting deletes what is kept."""
        return await self._lookup.get(user, server=team)

    async def _ask(self, user: str) -> Looked:
        if self._clock() < self._paused_until:
            return Looked(None, 0.0, shared=False)
        try:
            async with asyncio.timeout(self._timeout):
                reply = await self._web.users_info(user=user, include_locale=True)
        except SlackApiError as error:
            code = str(error.response.get("error") or error.response.status_code)
            if code in WORKSPACE_FAILURES:
                self._paused_until = self._clock() + self._ttl
            self._report(code, error.response.get("needed"))
            return Looked(None, self._failure_ttl, shared=False)
        except Exception as error:  # slow, unreachable or odd: answer without it
            self._report(type(error).__name__, None, error)
            return Looked(None, self._failure_ttl, shared=False)
        locale = (reply.get("user") or {}).get("locale")
        return Looked(str(locale) if locale else None, self._ttl)

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
