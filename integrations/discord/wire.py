"""Every call the Discord adapter makes, through discord.py's one choke point (``Route``).

Answer payloads from the formatter are already Discord JSON bodies, so they are sent as they
are (``allowed_mentions`` forced to ``{"parse": []}``) instead of being rebuilt into discord.py
models. discord.py still owns the rate-limit buckets and retries; for intermediate edits,
:func:`unless_rate_limited` gives up at the first 429 instead of sleeping and resending
stale text (the next write carries the latest text anyway).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Any, TypeVar

import aiohttp
from discord.http import HTTPClient, Route

from integrations.discord.types import EDIT_FLAGS, EPHEMERAL, NO_MENTIONS, SUPPRESS_EMBEDS

__all__ = [
    "DiscordWire",
    "RateLimitedWrite",
    "message_body",
    "rate_limit_trace",
    "redact_tokens",
    "unless_rate_limited",
]

T = TypeVar("T")
Body = Mapping[str, Any]


_TOKENS = re.compile(
    r"(/(?:webhooks|interactions)/\d+/|\btoken['\"]: ['\"]|\d+\+)[A-Za-z0-9_.\-]{20,}"
)
"""An interaction token in a webhook URL, an event payload or a rate-limit bucket key."""


def redact_tokens(text: str) -> str:
    """Interaction tokens ride in URLs and events; anyone holding one can post as the bot."""
    return _TOKENS.sub(r"\1<token>", text)


class _RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact_tokens(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


_REDACT = _RedactTokens()
for _name in ("discord.http", "discord.gateway", "discord.webhook.async_"):
    # discord.py logs request URLs (at WARNING on a 429) and, at DEBUG, whole events.
    logging.getLogger(_name).addFilter(_REDACT)


class RateLimitedWrite(Exception):
    """An intermediate write met a 429 and was dropped; retry no sooner than ``retry_after``."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"rate limited for {retry_after:.2f}s")
        self.retry_after = retry_after


class _Watch:
    def __init__(self) -> None:
        self.hit = asyncio.Event()
        self.retry_after = 1.0


_watch: ContextVar[_Watch | None] = ContextVar("citebot_discord_watch", default=None)


def rate_limit_trace(on_429: Callable[[], None] = lambda: None) -> aiohttp.TraceConfig:
    """Hook on discord.py's session: counts every 429 (``on_429``) and tells a watching write
    that its request got one."""
    trace = aiohttp.TraceConfig()

    async def on_end(
        _session: aiohttp.ClientSession, _ctx: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        if params.response.status != 429:
            return
        on_429()
        watch = _watch.get()
        if watch is None:
            return
        headers = params.response.headers
        with contextlib.suppress(TypeError, ValueError):
            watch.retry_after = float(
                headers.get("X-RateLimit-Reset-After") or headers.get("Retry-After") or 1.0
            )
        watch.hit.set()

    trace.on_request_end.append(on_end)
    return trace


async def unless_rate_limited(call: Awaitable[T]) -> T:
    """Run ``call``; at its first 429 cancel it (discord.py is asleep before its retry) and
    raise :class:`RateLimitedWrite` rather than send it late."""
    watch = _Watch()

    async def watched() -> T:
        _watch.set(watch)
        return await call

    task = asyncio.ensure_future(watched())
    hit = asyncio.ensure_future(watch.hit.wait())
    try:
        await asyncio.wait({task, hit}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        hit.cancel()
    if task.done():
        return task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    raise RateLimitedWrite(watch.retry_after)


def message_body(payload: Body, *, ephemeral: bool = False) -> dict[str, Any]:
    """A formatter payload as a create/edit body: never pings, never unfurls links."""
    body = {key: value for key, value in payload.items() if value is not None}
    body["allowed_mentions"] = NO_MENTIONS
    flags = int(body.get("flags") or 0) & SUPPRESS_EMBEDS
    body["flags"] = flags | (EPHEMERAL if ephemeral else 0)
    return body


def _edit(body: Body) -> dict[str, Any]:
    """An edit sets only the flags Discord documents for edits: EPHEMERAL belongs to the
    message's creation (an edit sending it is refused with 400)."""
    edit = dict(body)
    if "flags" in edit:
        edit["flags"] = int(edit["flags"] or 0) & EDIT_FLAGS
    return edit


class DiscordWire:
    """The REST calls of one bot, on its discord.py ``HTTPClient`` (buckets, 429 handling)."""

    def __init__(self, http: HTTPClient) -> None:
        self._http = http

    async def edit_interaction_message(
        self, application_id: int, token: str, message_id: int | None, body: Body
    ) -> dict[str, Any]:
        """Edit an interaction's message; ``None`` means the original response."""
        route = Route(
            "PATCH",
            "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            webhook_id=application_id,
            webhook_token=token,
            message_id="@original" if message_id is None else message_id,
        )
        data: dict[str, Any] = await self._http.request(route, json=_edit(body))
        return data

    async def followup(self, application_id: int, token: str, body: Body) -> dict[str, Any]:
        route = Route(
            "POST",
            "/webhooks/{webhook_id}/{webhook_token}",
            webhook_id=application_id,
            webhook_token=token,
        )
        data: dict[str, Any] = await self._http.request(
            route, json=dict(body), params={"wait": "true"}
        )
        return data

    async def create_message(self, channel_id: int, body: Body) -> dict[str, Any]:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
        data: dict[str, Any] = await self._http.request(route, json=dict(body))
        return data

    async def edit_message(self, channel_id: int, message_id: int, body: Body) -> dict[str, Any]:
        route = Route(
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=channel_id,
            message_id=message_id,
        )
        data: dict[str, Any] = await self._http.request(route, json=_edit(body))
        return data

    async def respond(
        self, interaction_id: int, token: str, kind: int, data: Body | None = None
    ) -> int | None:
        """Answer an interaction (a message, a deferral, an update, a modal); the id of the
        message the response made, if it made one. Its message bodies never ping."""
        route = Route(
            "POST",
            "/interactions/{interaction_id}/{interaction_token}/callback",
            interaction_id=interaction_id,
            interaction_token=token,
        )
        payload: dict[str, Any] = {"type": kind}
        if data is not None:
            payload["data"] = dict(data)
        reply: dict[str, Any] | None = await self._http.request(
            route, json=payload, params={"with_response": "true"}
        )
        made = ((reply or {}).get("interaction") or {}).get("response_message_id")
        return None if made is None else int(made)

    async def commands(self, application_id: int) -> list[dict[str, Any]]:
        """The registered global commands with their whole localization dictionaries."""
        route = Route(
            "GET", "/applications/{application_id}/commands", application_id=application_id
        )
        data: list[dict[str, Any]] = await self._http.request(
            route, params={"with_localizations": "true"}
        )
        return data

    async def start_thread(self, channel_id: int, message_id: int, name: str) -> int:
        """A public thread on a message; its id is the message's id."""
        route = Route(
            "POST",
            "/channels/{channel_id}/messages/{message_id}/threads",
            channel_id=channel_id,
            message_id=message_id,
        )
        data: dict[str, Any] = await self._http.request(
            route, json={"name": name, "auto_archive_duration": 1440}
        )
        return int(data["id"])
