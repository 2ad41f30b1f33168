"""How the simulated Discord answers on the wire: exact JSON content type, errors, rate limits."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any

from aiohttp import web

__all__ = [
    "SIM",
    "Bucket",
    "RecordedRequest",
    "Refusal",
    "discord_error",
    "json_response",
    "too_many_requests",
]

SIM: web.AppKey[Any] = web.AppKey("discord-sim")


def json_response(
    data: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """discord.py only parses bodies whose Content-Type is exactly ``application/json``."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def discord_error(status: int, code: int, message: str, **extra: Any) -> web.Response:
    return json_response({"message": message, "code": code, **extra}, status=status)


def too_many_requests(retry_after: float, *, bucket: str, is_global: bool = False) -> web.Response:
    """A 429 as Discord sends it; without ``Via`` discord.py would take it for a Cloudflare ban."""
    headers = {
        "Via": "1.1 google",
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "X-RateLimit-Scope": "global" if is_global else "user",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    return json_response(
        {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global},
        status=429,
        headers=headers,
    )


@dataclass
class Bucket:
    """A fixed-window bucket like Discord's: ``limit`` requests, then wait for the reset."""

    name: str
    limit: int
    per: float
    remaining: int = 0
    resets_at: float = 0.0

    def take(self, now: float) -> float | None:
        """Spend one request; returns seconds to wait instead when the bucket is empty."""
        if now >= self.resets_at:
            self.remaining = self.limit
            self.resets_at = now + self.per
        if self.remaining == 0:
            return self.resets_at - now
        self.remaining -= 1
        return None

    def headers(self, now: float) -> dict[str, str]:
        after = max(self.resets_at - now, 0.0)
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": self.name,
        }


@dataclass
class Refusal:
    """An injected refusal of the next ``count`` requests matching ``route``: a 429, or
    ``error`` (status, Discord code, message) when set."""

    route: str
    retry_after: float
    count: int = 1
    is_global: bool = False
    error: tuple[int, int, str] | None = None

    def matches(self, method: str, template: str) -> bool:
        if " " in self.route:
            want_method, want = self.route.split(" ", 1)
            return want_method == method and want == template
        return self.route == template


@dataclass(frozen=True, kw_only=True)
class RecordedRequest:
    """One request as it crossed the wire: ``route`` is the template, e.g.
    ``PATCH /webhooks/{application_id}/{token}/messages/{message_id}``."""

    method: str
    route: str
    path: str
    query: dict[str, str]
    json: Any
    at: float
    status: int = 0
    authorized: bool = False
    reply_body: bytes = b""

    @property
    def reply(self) -> Any:
        """The JSON the simulator answered with (a created message carries its id); decoded
        when asked, since capacity benches record thousands of requests a second."""
        return json.loads(self.reply_body) if self.reply_body else None

    @property
    def form_errors(self) -> dict[str, Any]:
        """The field errors of an "Invalid Form Body" refusal (50035), empty otherwise."""
        if self.status != 400:
            return {}
        reply = self.reply
        if not isinstance(reply, dict) or reply.get("code") != 50035:
            return {}
        errors: dict[str, Any] = reply.get("errors", {})
        return errors
