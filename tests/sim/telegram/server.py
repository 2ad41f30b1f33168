"""The Bot API on loopback: ``POST /bot<token>/<method>``, as ``api.telegram.org`` or a local
Bot API server serves it.

Every call goes through :meth:`TelegramSim.call`: the token, the method (case-insensitive, as
Telegram has them), the parameters decoded from whichever body they came in and checked against
``api.json`` (:mod:`tests.sim.telegram.validate`), an injected refusal, the message pace, then
the method itself. Whatever Telegram would refuse, and whatever breaks the spec where Telegram
would let it pass, is answered in Telegram's error shape and kept in :attr:`violations`; a test
fixture asserts none happened (``sim.assert_valid()``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.sim.telegram.params import BadBody, Params, read_params
from tests.sim.telegram.ratelimit import PACED_METHODS
from tests.sim.telegram.spec import method as spec_method
from tests.sim.telegram.validate import check_request
from tests.sim.telegram.wire import (
    SIM,
    ApiError,
    RecordedRequest,
    Violation,
    bad_request,
    refusal,
    too_many_requests,
)

if TYPE_CHECKING:
    from tests.sim.telegram.sim import TelegramSim

__all__ = ["Handler", "call", "serve", "telegram_words"]

Handler = Callable[["TelegramSim", dict[str, Any]], Awaitable[Any]]

# A spec problem Telegram itself also refuses, in Telegram's words (tdlib/telegram-bot-api
# Client.cpp; the MTProto error BUTTON_DATA_INVALID as Telegram passes it through).
_TELEGRAM_WORDS = (
    ("callback_data: must be 1-64 bytes", "BUTTON_DATA_INVALID"),
    ("sendChatAction.action:", "wrong parameter action in request"),
    (".type: ", "can't parse MessageEntity: Unsupported type specified"),
    ("chat_id: required parameter is missing", "chat_id is empty"),
    ("sendMessage.text: required parameter is missing", "message text is empty"),
    ("setWebhook.secret_token: must be only", "secret token contains unallowed characters"),
    ("setWebhook.secret_token: must be 1-256", "secret token is too long"),
)


def telegram_words(problem: str) -> str:
    """The description Telegram answers a spec problem with, or the problem itself."""
    for marker, words in _TELEGRAM_WORDS:
        if marker in problem and (marker != ".type: " or "entities" in problem):
            return words
    return problem


async def call(
    sim: TelegramSim, name: str, params: Params, token: str, *, via: str = "http"
) -> tuple[int, Any]:
    """One Bot API call: (HTTP status, the JSON answered). Records the request."""
    spec = spec_method(name)
    canonical = spec.name if spec else name
    values: dict[str, Any] = dict(params.values)
    try:
        if token != sim.token:
            raise ApiError(401, "Unauthorized")
        if spec is None:
            raise _violation(sim, canonical, values, ApiError(404, "Not Found: method not found"))
        checked = check_request(spec, params)
        values = checked.values
        for rule in sim.injected:
            if rule.count > 0 and rule.method.lower() == canonical.lower():
                rule.count -= 1
                raise rule.error
        if checked.problems:
            error = bad_request(telegram_words(checked.problems[0]))
            for problem in checked.problems:
                sim.violations.append(Violation(canonical, problem, values))
            raise error
        handler = sim.handlers.get(canonical)
        if handler is None:
            raise _violation(
                sim, canonical, values, bad_request(f"the simulator does not model {canonical}")
            )
        _pace(sim, canonical, values)
        status, body = 200, {"ok": True, "result": await handler(sim, values)}
    except ApiError as error:
        status, body = error.status, error.body()
    sim.requests.append(
        RecordedRequest(
            method=canonical,
            params=values,
            encoding=via if via != "http" else params.encoding,
            at=sim.now(),
            status=status,
            reply_body=json.dumps(body).encode(),
        )
    )
    sim.touch()
    return status, body


def _violation(sim: TelegramSim, name: str, values: dict[str, Any], error: ApiError) -> ApiError:
    sim.violations.append(Violation(name, error.description, values))
    return error


def _pace(sim: TelegramSim, name: str, values: dict[str, Any]) -> None:
    if sim.pace is None or name not in PACED_METHODS:
        return
    chat = sim.find_chat(values.get("chat_id"))
    if chat is None:
        return
    wait = sim.pace.take(chat.id, chat.kind != "private", sim.now())
    if wait is not None:
        raise too_many_requests(wait)


async def _endpoint(request: web.Request) -> web.StreamResponse:
    sim: TelegramSim = request.app[SIM]
    token, name = request.match_info["token"], request.match_info["method"]
    try:
        params = await read_params(request)
    except BadBody as error:
        sim.violations.append(Violation(name, str(error), {}))
        return refusal(bad_request(str(error)))
    status, body = await call(sim, name, params, token)
    return web.json_response(body, status=status)


async def serve(sim: TelegramSim) -> tuple[web.AppRunner, int]:
    app = web.Application()
    app[SIM] = sim
    app.router.add_route("*", "/bot{token}/{method}", _endpoint)
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, int(runner.addresses[0][1])
