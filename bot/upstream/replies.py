"""What an upstream's replies say: an HTTP error classified (retry or give up, and the
upstream's own words), a chunk's first choice, its related questions and usage."""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import httpx

from bot.upstream.errors import (
    BadKey,
    BadRequest,
    RateLimited,
    TokenLimit,
    UpstreamDown,
    UpstreamError,
)
from bot.upstream.events import Usage
from bot.upstream.reasoning import reasoning_of

__all__ = [
    "Choice",
    "Retry",
    "choice_of",
    "classify",
    "is_event_stream",
    "is_json",
    "message_of",
    "related_of",
    "usage_of",
]


class Retry(Exception):
    """An attempt failed in a way worth another try; carries the error to raise if none is left."""

    def __init__(self, error: UpstreamError, *, retry_after: float | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.retry_after = retry_after


def _error_message(response: httpx.Response, content: bytes) -> str:
    """The upstream's own words: ``error.message``, then ``message``, then ``detail``."""
    try:
        body = json.loads(content)
    except ValueError:
        text = content.decode("utf-8", "replace").strip()
        return text[:200] or response.reason_phrase
    return message_of(body) or response.reason_phrase


def message_of(body: object) -> str:
    if isinstance(body, Mapping):
        error = body.get("error")
        if isinstance(error, Mapping) and isinstance(error.get("message"), str):
            return str(error["message"])[:300]
        if isinstance(error, str):
            return error[:300]
        for key in ("message", "detail"):
            if isinstance(body.get(key), str):
                return str(body[key])[:300]
    return ""


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _looks_like_token_limit(message: str) -> bool:
    lowered = message.lower()
    return any(word in lowered for word in ("token", "context length", "too long", "maximum"))


def classify(response: httpx.Response, content: bytes) -> UpstreamError | Retry:
    status = response.status_code
    message = _error_message(response, content)
    if status in (401, 403):
        return BadKey(f"the upstream refused the key ({status}): {message}", status=status)
    if status == 413 or (status == 400 and _looks_like_token_limit(message)):
        return TokenLimit(f"the question is too long for the model: {message}", status=status)
    if status == 429:
        after = _retry_after(response)
        return Retry(RateLimited(f"rate limited: {message}", retry_after=after), retry_after=after)
    if status >= 500:
        return Retry(UpstreamDown(f"the upstream failed ({status}): {message}", status=status))
    return BadRequest(f"the upstream refused the request ({status}): {message}", status=status)


@dataclass(frozen=True, slots=True)
class Choice:
    """The first choice of a chunk: its content, whether it reasons, its finish reason."""

    text: str = ""
    reasoning: bool = False
    reason: str | None = None


def choice_of(chunk: Mapping[str, Any], *, whole: bool = False) -> Choice:
    """Read the first choice; missing pieces are empty.

    A streamed chunk's text is its ``delta``; a whole completion's is its ``message``. Perplexity
    sends both on each: the delta is the new piece, the message everything so far (and a whole
    completion comes with an empty delta), so the other one would double or lose the text.
    """
    choices = chunk.get("choices")
    if not isinstance(choices, Sequence) or not choices or not isinstance(choices[0], Mapping):
        return Choice()
    choice = choices[0]
    order = ("message", "delta") if whole else ("delta", "message")
    part: Mapping[str, Any] = next(
        (choice[key] for key in order if isinstance(choice.get(key), Mapping)), {}
    )
    text, thought = _content_of(part.get("content"))
    reason = choice.get("finish_reason")
    return Choice(
        text=text,
        reasoning=thought or reasoning_of(part),
        reason=reason if isinstance(reason, str) else None,
    )


def _content_of(content: object) -> tuple[str, bool]:
    """The answer text of a delta's (or message's) ``content``, and whether it held reasoning.

    Mistral's reasoning models (Magistral) send a list of parts instead of a string:
    ``{"type": "text", "text": ...}`` is answer, ``{"type": "thinking", "thinking": [...]}`` is
    reasoning and never shown; a part of any other type carries no answer text.
    """
    if isinstance(content, str):
        return content, False
    if not isinstance(content, Sequence):
        return "", False
    text: list[str] = []
    thought = False
    for part in content:
        if not isinstance(part, Mapping):
            continue
        if part.get("type") == "text" and isinstance(part.get("text"), str):
            text.append(part["text"])
        elif part.get("type") == "thinking":
            thought = True
    return "".join(text), thought


def is_json(response: httpx.Response) -> bool:
    media_type = str(response.headers.get("content-type", "")).split(";")[0]
    return media_type.strip().lower() == "application/json"


def is_event_stream(response: httpx.Response) -> bool:
    media_type = str(response.headers.get("content-type", "")).split(";")[0]
    return media_type.strip().lower() == "text/event-stream"


def related_of(chunk: Mapping[str, Any]) -> tuple[str, ...]:
    raw = chunk.get("related_questions")
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        return ()
    return tuple(q.strip() for q in raw if isinstance(q, str) and q.strip())


def usage_of(chunk: Mapping[str, Any]) -> Usage | None:
    """The tokens a chunk reports: ``usage`` (OpenAI's last chunk, with no choices, when
    ``stream_options.include_usage`` is asked; Mistral's, DeepSeek's and Perplexity's on their
    own), or Groq's ``x_groq.usage``; every count providers are seen to send (the recordings
    in tests/fixtures/providers, docs/billing.md)."""
    raw = chunk.get("usage")
    groq = chunk.get("x_groq")
    if not isinstance(raw, Mapping) and isinstance(groq, Mapping):
        raw = groq.get("usage")
    if not isinstance(raw, Mapping):
        return None
    prompt = raw.get("prompt_tokens_details")
    completion = raw.get("completion_tokens_details")
    cost = raw.get("cost")
    cached = _count(prompt, "cached_tokens")
    return Usage(
        prompt_tokens=_count(raw, "prompt_tokens"),
        completion_tokens=_count(raw, "completion_tokens"),
        total_tokens=_count(raw, "total_tokens"),
        cached_tokens=cached if cached is not None else _count(raw, "prompt_cache_hit_tokens"),
        reasoning_tokens=_count(completion, "reasoning_tokens"),
        extra_reasoning_tokens=_count(raw, "reasoning_tokens"),
        system_tokens=_count(raw, "citation_tokens"),
        search_queries=_count(raw, "num_search_queries"),
        cost=_dollars(cost.get("total_cost") if isinstance(cost, Mapping) else cost),
    )


MOST_TOKENS = 10**12
"""A count past this is no count (a hostile upstream's, meant to fill a budget or a log)."""
MOST_COST = Decimal(10**6)


def _count(raw: object, key: str) -> int | None:
    value = raw.get(key) if isinstance(raw, Mapping) else None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MOST_TOKENS:
        return value
    return None


def _dollars(value: object) -> Decimal | None:
    """A reported cost as a Decimal, from the number as JSON wrote it (its shortest form)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    dollars = Decimal(repr(value))
    return dollars if dollars.is_finite() and 0 <= dollars <= MOST_COST else None
