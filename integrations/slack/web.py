"""The one place Slack Web API calls leave the process: a configured AsyncWebClient.

Every call (apps.connections.open included) goes to ``SLACK_API_BASE_URL``. A 429 is retried
after its Retry-After, except on the native stream methods: there a 429 (Tier 2) means "stream
less", and the sink falls back to posting and editing instead of waiting.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.web.async_client import AsyncWebClient

__all__ = ["STREAM_METHODS", "make_web_client"]

STREAM_METHODS = frozenset({"chat.startStream", "chat.appendStream", "chat.stopStream"})


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
        return await super()._can_retry_async(state=state, request=request, response=response,
                                              error=error)


def make_web_client(*, token: str, base_url: str, on_429: Callable[[], None] = lambda: None,
                    **options: Any) -> AsyncWebClient:
    """A client for ``base_url`` (keep its trailing slash) that retries 429s and resets;
    ``on_429`` hears of every 429 (the worker counts them)."""
    handlers: list[AsyncRetryHandler] = [
        AsyncConnectionErrorRetryHandler(max_retry_count=2),
        _RateLimitRetryUnlessStreaming(max_retry_count=3, on_429=on_429),
    ]
    return AsyncWebClient(token=token, base_url=base_url, retry_handlers=handlers, **options)
