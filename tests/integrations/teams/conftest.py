"""Fixtures: a running Teams simulator, a bot endpoint on loopback that records what Teams
posts to it (and answers as a test says), and citebot's own Teams wire, tokens and activity
checks pointed at the simulator."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from aiohttp import web
from pydantic import SecretStr

from integrations.teams.auth import ActivityTokens, BotTokens
from integrations.teams.wire import TeamsWire
from tests.sim.teams import TeamsSim

APP_PASSWORD = "sim-app-secret-not-for-logs"


@dataclass
class Endpoint:
    """A bot's ``/api/messages`` that keeps each activity with its ``Authorization`` header
    and answers ``answer(activity)`` (200 and no body by default)."""

    url: str = ""
    received: list[tuple[dict[str, Any], str | None]] = field(default_factory=list)
    answer: Callable[[dict[str, Any]], tuple[int, Any]] = lambda activity: (200, None)


@pytest.fixture
async def teams() -> AsyncIterator[TeamsSim]:
    """The simulator; a test fails if anything the bot sent broke a rule (tests that break
    them on purpose take their violations with ``teams.take_violations()``)."""
    async with TeamsSim(app_password=APP_PASSWORD, frozen=True) as sim:
        yield sim
        sim.assert_valid()


@pytest.fixture
async def endpoint(teams: TeamsSim) -> AsyncIterator[Endpoint]:
    recorded = Endpoint()

    async def messages(request: web.Request) -> web.Response:
        activity = await request.json()
        recorded.received.append((activity, request.headers.get("Authorization")))
        status, body = recorded.answer(activity)
        if body is None:
            return web.Response(status=status)
        return web.json_response(body, status=status)

    app = web.Application()
    app.router.add_post("/api/messages", messages)
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    recorded.url = f"http://127.0.0.1:{runner.addresses[0][1]}/api/messages"
    teams.bot_url = recorded.url
    yield recorded
    await runner.cleanup()


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=10.0) as client:
        yield client


@pytest.fixture
def tokens(teams: TeamsSim, http: httpx.AsyncClient) -> BotTokens:
    return BotTokens(
        app_id=teams.app_id,
        password=SecretStr(APP_PASSWORD),
        token_url=teams.token_url,
        bot_tenant="botframework.com",
        http=http,
        clock=teams.unix_time,
    )


@pytest.fixture
def wire(http: httpx.AsyncClient, tokens: BotTokens, teams: TeamsSim) -> TeamsWire:
    return TeamsWire(http=http, tokens=tokens, graph_url=teams.graph_url)


@pytest.fixture
def checker(teams: TeamsSim, http: httpx.AsyncClient) -> ActivityTokens:
    return ActivityTokens(app_id=teams.app_id, openid_url=teams.openid_url, http=http)
