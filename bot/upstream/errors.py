"""Typed upstream failures, each carrying what a person needs to be told.

The user-facing layers (terminal, Discord, Slack) word these; they never show a traceback.
``partial_text`` is the answer text received before the failure, so nothing shown is lost.
"""

from __future__ import annotations

__all__ = [
    "BadKey",
    "BadRequest",
    "ContentFiltered",
    "RateLimited",
    "StreamCut",
    "TokenLimit",
    "TooLarge",
    "TooSlow",
    "UpstreamDown",
    "UpstreamError",
]


class UpstreamError(Exception):
    """Base of every failure to get an answer; ``str()`` is safe to log (never a secret)."""

    def __init__(self, detail: str, *, partial_text: str = "", status: int | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.partial_text = partial_text
        self.status = status


class BadKey(UpstreamError):
    """401/403: the key is wrong, expired, or its plan does not allow this."""


class BadRequest(UpstreamError):
    """400 that is not about length: the request itself was refused."""


class TokenLimit(UpstreamError):
    """The question and its context are longer than the model accepts."""


class RateLimited(UpstreamError):
    """429 after the retries ran out; ``retry_after`` is seconds, when the upstream said."""

    def __init__(
        self, detail: str, *, retry_after: float | None = None, status: int | None = 429
    ) -> None:
        super().__init__(detail, status=status)
        self.retry_after = retry_after


class UpstreamDown(UpstreamError):
    """5xx, refused connections or silence before the first token, after the retries ran out."""


class StreamCut(UpstreamError):
    """The answer stopped part-way (connection lost, silence, an error mid-stream)."""


class TooSlow(StreamCut):
    """The answer outlasted ``UPSTREAM_TOTAL_TIMEOUT``, whatever the upstream was sending."""


class TooLarge(StreamCut):
    """One event was longer than ``UPSTREAM_MAX_EVENT_BYTES``: the rest is not read."""


class ContentFiltered(UpstreamError):
    """The upstream declined the question (``finish_reason: content_filter``)."""
