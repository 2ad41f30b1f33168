"""How the simulated Bot API answers: ``{"ok": true, "result": ...}`` or Telegram's error shape
``{"ok": false, "error_code": 400, "description": "Bad Request: ..."}`` (with
``parameters.retry_after`` on a 429), and the records a test reads afterwards."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from aiohttp import web

__all__ = [
    "SIM",
    "ApiError",
    "Injected",
    "RecordedRequest",
    "Violation",
    "bad_request",
    "ok",
    "refusal",
    "too_many_requests",
]

SIM: web.AppKey[Any] = web.AppKey("telegram-sim")


class ApiError(Exception):
    """A Bot API error: ``status`` and Telegram's description ("Bad Request: ...")."""

    def __init__(self, status: int, description: str, *, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.status,
            "description": self.description,
        }
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def bad_request(detail: str) -> ApiError:
    return ApiError(400, f"Bad Request: {detail}")


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after=retry_after)


def ok(result: Any) -> web.Response:
    return web.json_response({"ok": True, "result": result})


def refusal(error: ApiError) -> web.Response:
    return web.json_response(error.body(), status=error.status)


@dataclass(frozen=True)
class Violation:
    """A request Telegram would refuse, or that breaks ``api.json`` where Telegram would let it
    pass: the test that sent it should not have."""

    method: str
    problem: str
    params: dict[str, Any]

    def __str__(self) -> str:
        if self.problem.startswith(self.method):
            return self.problem
        return f"{self.method}: {self.problem}"


@dataclass
class Injected:
    """A refusal a test asked for: the next ``count`` calls of ``method`` get ``error``."""

    method: str
    error: ApiError
    count: int = 1


@dataclass(frozen=True, kw_only=True)
class RecordedRequest:
    """One call as it crossed the wire: the method as the spec names it, its decoded
    parameters, how they were encoded, and the answer."""

    method: str
    params: dict[str, Any]
    encoding: str
    at: float
    status: int
    reply_body: bytes

    @property
    def reply(self) -> Any:
        return json.loads(self.reply_body) if self.reply_body else None

    @property
    def description(self) -> str:
        reply = self.reply
        return str(reply.get("description", "")) if isinstance(reply, dict) else ""
