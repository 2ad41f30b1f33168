"""The one place Slack Web API calls leave the process: a configured AsyncWebClient.

Every call (apps.connections.open included) goes to ``SLACK_API_BASE_URL``. Slack limits calls
per method per workspace (chat.postMessage also per channel): Slack's tiers are
:data:`SLACK_LIMITS` in the core's write budget (:class:`~bot.budgets.WriteBudget`, shared by
the workers on one Redis), and each call first takes its slot there, waiting for one if it
must; the sink asks the budget before the calls it can skip. A 429 that still happens holds the
method's window for its Retry-After (in every worker), and the call takes a slot again after
it, except on the native stream methods: there a 429 (Tier 2) means "stream less", and the sink
falls back to posting and editing instead of waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_async_handlers import AsyncConnectionErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from bot.adapter import Limit, Window, WriteBudget

__all__ = [
    "SLACK_LIMITS",
    "STREAM_METHODS",
    "PacedWebClient",
    "make_web_client",
    "slack_window",
]

STREAM_METHODS = frozenset({"chat.startStream", "chat.appendStream", "chat.stopStream"})
PER_CHANNEL = frozenset({"chat.postMessage"})
"""Methods Slack counts per channel as well as per workspace."""

MINUTE_MARGIN = 1.0
"""Seconds added to a minute-long tier's window: a call reaches Slack later than the slot it
was given (a worker whose loop is busy), and at the tier's edge a quarter of a second late was
a 429 (fifty answers at once, once in three runs); a sixtieth of the minute."""


def _tier(calls: int) -> Limit:
    """``calls`` a minute per workspace."""
    return Limit(calls, 60.0, margin=MINUTE_MARGIN)


SLACK_LIMITS: Mapping[str, Limit] = {
    "apps.connections.open": _tier(3),  # Tier 1 and its small burst: a reconnect never waits
    "auth.test": _tier(100),
    "users.info": _tier(100),
    "conversations.replies": _tier(50),
    "assistant.threads.setStatus": _tier(50),  # "special": treated as Tier 3
    "assistant.threads.setSuggestedPrompts": _tier(100),
    "assistant.threads.setTitle": _tier(100),
    "conversations.history": _tier(50),
    "views.publish": _tier(100),
    "views.open": _tier(100),
    "views.update": _tier(100),
    "reactions.add": _tier(50),
    "chat.postMessage": Limit(3, 3.0),  # 1 a second per channel, bursts of 3
    "chat.postEphemeral": _tier(100),
    "chat.update": _tier(50),
    # Tier 2, where a 429 is not retried (the answer posts instead)
    "chat.startStream": _tier(20),
    "chat.appendStream": _tier(100),
    "chat.stopStream": _tier(20),
}
"""Slack's published floors (docs.slack.dev, "Rate limits" and each method's tier)."""

RETRIES = 3
"""How many 429s a call waits out (after Retry-After, in its window) before it gives up."""


def slack_window(method: str, channel: object = None) -> Window:
    """Where Slack counts a call of ``method`` (in ``channel``, for a per-channel method)."""
    return Window(method, str(channel) if method in PER_CHANNEL else "")


class PacedWebClient(AsyncWebClient):
    """An AsyncWebClient whose every call takes its slot in ``budget`` first, and whose call
    Slack answers with 429 holds its window for Retry-After and takes a slot again."""

    def __init__(
        self,
        *,
        budget: WriteBudget | None = None,
        on_429: Callable[[], None] = lambda: None,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.budget = budget
        self._on_429 = on_429

    async def api_call(self, api_method: str, **kwargs: Any) -> AsyncSlackResponse:
        args = kwargs.get("json") or kwargs.get("data") or kwargs.get("params") or {}
        window = slack_window(api_method, args.get("channel") or args.get("channel_id"))
        for attempt in range(RETRIES + 1):
            if self.budget is not None:
                await self.budget.acquire(window)
            try:
                return await super().api_call(api_method, **kwargs)
            except SlackApiError as error:
                if error.response.status_code != 429:
                    raise
                self._on_429()
                wait = _retry_after(error.response.headers)
                if self.budget is not None:
                    await self.budget.pause(window, wait)
                if api_method in STREAM_METHODS or attempt == RETRIES:
                    raise
                if self.budget is None:
                    await asyncio.sleep(wait)
        raise AssertionError("unreachable")


def _retry_after(headers: Mapping[str, Any]) -> float:
    for name, value in headers.items():
        if name.lower() == "retry-after":
            with contextlib.suppress(TypeError, ValueError):
                return float(value[0] if isinstance(value, list) else value)
    return 60.0


def make_web_client(
    *,
    token: str,
    base_url: str,
    on_429: Callable[[], None] = lambda: None,
    budget: WriteBudget | None = None,
    **options: Any,
) -> PacedWebClient:
    """A client for ``base_url`` (keep its trailing slash) that keeps to ``budget`` (None:
    unpaced), waits out 429s (but on the native stream methods) and retries resets;
    ``on_429`` hears of every 429 (the worker counts them)."""
    return PacedWebClient(
        budget=budget,
        on_429=on_429,
        token=token,
        base_url=base_url,
        retry_handlers=[AsyncConnectionErrorRetryHandler(max_retry_count=2)],
        **options,
    )
