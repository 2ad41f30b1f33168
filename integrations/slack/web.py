"""The one place Slack Web API calls leave the process: a configured AsyncWebClient.

Every call (apps.connections.open included) goes to ``SLACK_API_BASE_URL``. Slack limits calls
per method per workspace (chat.postMessage also per channel), so each call first takes a slot
in the workspace's :class:`SlackBudget` for its method, waiting for one if it must; the sink
looks at the budget before the calls it can skip. Workers on one Redis share the budget: each
slot is taken in a sliding window kept in Redis, so N workers together keep every tier. A 429
that still happens is retried after its Retry-After, except on the native stream methods:
there a 429 (Tier 2) means "stream less", and the sink falls back to posting and editing
instead of waiting.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from redis.exceptions import RedisError
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from bot.adapter import Coordination, RateBudget, raise_if_cancelling

__all__ = [
    "SLACK_RATES",
    "STREAM_METHODS",
    "PacedWebClient",
    "Rate",
    "SlackBudget",
    "make_web_client",
]

log = logging.getLogger(__name__)

STREAM_METHODS = frozenset({"chat.startStream", "chat.appendStream", "chat.stopStream"})


@dataclass(frozen=True, slots=True)
class Rate:
    """``calls`` per ``per_seconds`` for one method in one workspace (or channel)."""

    calls: int
    per_seconds: float = 60.0
    per_channel: bool = False
    margin: float | None = None
    """Seconds added to the window (None: the budget's): where a call landing later than its
    slot costs a 429 that is not retried, a wider one."""


SLACK_RATES: Mapping[str, Rate] = {
    "apps.connections.open": Rate(3),  # Tier 1 and its small burst: a reconnect never waits
    "auth.test": Rate(100),
    "users.info": Rate(100),
    "conversations.replies": Rate(50),
    "assistant.threads.setStatus": Rate(50),  # "special": treated as Tier 3
    "assistant.threads.setSuggestedPrompts": Rate(100),
    "assistant.threads.setTitle": Rate(100),
    "conversations.history": Rate(50),
    "views.publish": Rate(100),
    "views.open": Rate(100),
    "views.update": Rate(100),
    "reactions.add": Rate(50),
    "chat.postMessage": Rate(3, 3.0, per_channel=True),  # 1 a second per channel, bursts of 3
    "chat.postEphemeral": Rate(100),
    "chat.update": Rate(50),
    # Tier 2, and a 429 there is not retried (the answer posts instead): a second's margin,
    # a sixtieth of the minute, for a worker whose call lands late (a loaded machine).
    "chat.startStream": Rate(20, margin=1.0),
    "chat.appendStream": Rate(100),
    "chat.stopStream": Rate(20, margin=1.0),
}
"""Slack's published floors (docs.slack.dev, "Rate limits" and each method's tier)."""

SYNC_SECONDS = 0.5
"""How often a shared budget publishes its claims and reads the windows its sink looks at."""
_LOOKED_AT = ("chat.startStream", "chat.stopStream", "chat.appendStream", "chat.update")
"""The workspace-wide methods the sink asks :meth:`SlackBudget.free` about."""


class SlackBudget:
    """The calls the workers may still make to one workspace, per method.

    ``claims`` counts slots promised to calls that must happen later (an answer's final
    edit): a call that can be skipped only goes when it leaves those free, so the finals never
    wait behind the extras. ``time_scale`` shrinks every window (tests); ``margin`` absorbs
    the difference between when a call is reserved here and when Slack counts it.

    With a :class:`Coordination` (workers on one Redis), every slot is taken in the window the
    workers share and this budget keeps a copy of it; :meth:`sync` (run while the client is
    open) publishes this worker's claims and brings in the others' twice a second, so
    :meth:`free` weighs every worker's calls and promises. If Redis fails, the budget goes on
    alone until it answers again.
    """

    def __init__(
        self,
        *,
        rates: Mapping[str, Rate] = SLACK_RATES,
        time_scale: float = 1.0,
        margin: float = 0.25,
        clock: Callable[[], float] = time.monotonic,
        coordination: Coordination | None = None,
        scope: str = "",
    ) -> None:
        self._rates = rates
        self._clock = clock
        self._budgets = {
            method: RateBudget(
                calls=rate.calls,
                per_seconds=rate.per_seconds * time_scale,
                margin=margin if rate.margin is None else rate.margin,
                clock=clock,
            )
            for method, rate in rates.items()
        }
        self.claims: Counter[str] = Counter()
        self._others: Counter[str] = Counter()
        """What the other workers have claimed, as of the last :meth:`sync`."""
        self._shared = coordination
        self._scope = scope
        self._member = secrets.token_hex(6)

    def _key(self, method: str, channel: object) -> str:
        return str(channel) if self._rates[method].per_channel else ""

    def _name(self, method: str, key: str) -> str:
        return f"slack:{self._scope}:{method}:{key}"

    def free(self, method: str, *, channel: object = None, spare: int = 0) -> bool:
        """Whether a call of ``method`` can go now and leave every claimed slot free, and
        ``spare`` more."""
        budget = self._budgets.get(method)
        promised = self.claims[method] + self._others[method] + spare
        return budget is None or budget.delay(self._key(method, channel), after=promised) == 0

    async def acquire(self, method: str, *, channel: object = None) -> None:
        """Wait for a slot for ``method`` (in ``channel`` where Slack counts per channel)."""
        budget = self._budgets.get(method)
        if budget is None:
            return
        key = self._key(method, channel)
        if self._shared is None:
            await budget.acquire(key)
            return
        try:
            wait, slots = await self._shared.reserve(
                self._name(method, key), calls=budget.calls, window=budget.window
            )
        except (RedisError, OSError) as error:
            log.warning("shared Slack budget unreachable (%s): pacing alone", type(error).__name__)
            await budget.acquire(key)
            return
        now = self._clock()
        budget.adopt(key, (now + offset for offset in slots))
        if wait > 0:
            await asyncio.sleep(wait)

    async def sync(self) -> None:
        """Until cancelled: share this worker's claims and copy the windows :meth:`free` reads
        (nothing to do without a :class:`Coordination`)."""
        if self._shared is None:
            return
        looked_at = {
            self._name(method, ""): method for method in _LOOKED_AT if method in self._budgets
        }
        while True:
            raise_if_cancelling()  # a cancel the Redis client swallowed (see there)
            try:
                self._others = await self._shared.tally(
                    f"slack:{self._scope}:claims",
                    self._member,
                    +self.claims,
                    ttl=max(10 * SYNC_SECONDS, 2.0),
                )
                windows = await self._shared.windows(
                    {name: self._budgets[method].window for name, method in looked_at.items()}
                )
            except (RedisError, OSError) as error:
                raise_if_cancelling()
                log.warning("shared Slack budget unreachable: %s", type(error).__name__)
                self._others = Counter()
            else:
                now = self._clock()
                for name, slots in windows.items():
                    self._budgets[looked_at[name]].adopt("", (now + s for s in slots))
            await asyncio.sleep(SYNC_SECONDS)


class PacedWebClient(AsyncWebClient):
    """An AsyncWebClient whose every call takes its slot in ``budget`` first."""

    def __init__(self, *, budget: SlackBudget | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.budget = budget

    async def api_call(self, api_method: str, **kwargs: Any) -> AsyncSlackResponse:
        if self.budget is not None:
            args = kwargs.get("json") or kwargs.get("data") or kwargs.get("params") or {}
            channel = args.get("channel") or args.get("channel_id")
            await self.budget.acquire(api_method, channel=channel)
        return await super().api_call(api_method, **kwargs)


class _RateLimitRetryUnlessStreaming(AsyncRateLimitErrorRetryHandler):
    def __init__(self, *, max_retry_count: int, on_429: Callable[[], None]) -> None:
        super().__init__(max_retry_count=max_retry_count)
        self._on_429 = on_429

    async def _can_retry_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        if response is not None and response.status_code == 429:
            self._on_429()
        if request.url.rstrip("/").rsplit("/", 1)[-1] in STREAM_METHODS:
            return False
        return await super()._can_retry_async(
            state=state, request=request, response=response, error=error
        )


def make_web_client(
    *,
    token: str,
    base_url: str,
    on_429: Callable[[], None] = lambda: None,
    budget: SlackBudget | None = None,
    **options: Any,
) -> PacedWebClient:
    """A client for ``base_url`` (keep its trailing slash) that keeps to ``budget`` (None:
    unpaced) and retries 429s and resets; ``on_429`` hears of every 429 (the worker counts
    them)."""
    handlers: list[AsyncRetryHandler] = [
        AsyncConnectionErrorRetryHandler(max_retry_count=2),
        _RateLimitRetryUnlessStreaming(max_retry_count=3, on_429=on_429),
    ]
    return PacedWebClient(
        budget=budget, token=token, base_url=base_url, retry_handlers=handlers, **options
    )
