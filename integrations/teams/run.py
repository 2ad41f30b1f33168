"""``citebot run`` for Teams (the registry's runner): the bot's ``/api/messages`` on
``TEAMS_PORT``, a route on the worker's one HTTP way in (:mod:`bot.ingress`), and its calls to
Teams through one HTTP client, paced by the core's write budget.

With ``TEAMS_AUTH`` on (the default) every activity's token is checked and every call carries
the bot's own; off (a local emulator, a test double), activities are taken unsigned and calls
carry no token, which the worker says at start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import httpx

from bot.adapter import Kit, Route, WriteBudget
from integrations.teams.app import TeamsBot
from integrations.teams.auth import ActivityTokens, BotTokens
from integrations.teams.limits import STREAM_INTERVAL
from integrations.teams.orphans import TeamsOrphans
from integrations.teams.pace import pace_limits, paced, throttled
from integrations.teams.settings import TeamsSettings
from integrations.teams.wire import TeamsWire

__all__ = ["PATH", "run_teams", "teams_bot"]

log = logging.getLogger(__name__)

PATH = "/api/messages"
"""Where Teams posts the bot's activities (the Azure Bot's messaging endpoint)."""
TIMEOUT = httpx.Timeout(30.0, connect=10.0)
LIMITS = httpx.Limits(max_connections=200, max_keepalive_connections=50)
"""A stream's updates and every answer's messages share the pool: httpx's default 100 would
queue the 101st answer's writes."""


async def run_teams(
    kit: Kit,
    environment: TeamsSettings,
    ready: asyncio.Event | None = None,
    *,
    stop: asyncio.Event | None = None,
    stream_interval: float = STREAM_INTERVAL,
    budget: WriteBudget | None = None,
) -> None:
    """Answer Teams through ``kit`` until ``stop`` is set or the task is cancelled, then drain
    and close. ``ready`` is set once activities can arrive; ``budget``: the conversations'
    pace (default: Teams', shared by every worker on the ``STATE_URL``'s Redis)."""
    async with contextlib.AsyncExitStack() as stack:
        bot = await stack.enter_async_context(
            teams_bot(kit, environment, stream_interval=stream_interval, budget=budget)
        )
        # The route outlives the drain: while the answers in flight finish, an activity gets
        # 503 and Teams delivers it again (to a worker that stays), rather than no answer.
        route = Route("POST", PATH, bot.handle, accepting=lambda: kit.accepting)
        port = await stack.enter_async_context(kit.serve_http(environment.port, [route]))
        await stack.enter_async_context(kit.serving(TeamsOrphans(bot.chat)))
        log.info("Teams is listening at %s on port %d as %s", PATH, port, environment.app_id)
        if ready is not None:
            ready.set()
        await (stop.wait() if stop is not None else asyncio.Event().wait())


@contextlib.asynccontextmanager
async def teams_bot(
    kit: Kit,
    environment: TeamsSettings,
    *,
    stream_interval: float = STREAM_INTERVAL,
    budget: WriteBudget | None = None,
) -> AsyncIterator[TeamsBot]:
    """The bot's ways in and out while inside: its HTTP client, its tokens (none with
    ``TEAMS_AUTH`` off), the activities' checks, the conversations' pace."""
    if environment.app_id is None:
        raise ValueError("Teams needs TEAMS_APP_ID")
    async with (
        httpx.AsyncClient(timeout=TIMEOUT, limits=LIMITS) as http,
        budget or kit.write_budget(pace_limits(), token=environment.app_id) as budget,
    ):
        tokens: BotTokens | None = None
        checker: ActivityTokens | None = None
        if environment.auth:
            if environment.app_password is None:
                raise ValueError("Teams needs TEAMS_APP_PASSWORD while TEAMS_AUTH is on")
            tokens = BotTokens(
                app_id=environment.app_id,
                password=environment.app_password,
                token_url=environment.token_url,
                bot_tenant=environment.bot_tenant,
                http=http,
            )
            checker = ActivityTokens(
                app_id=environment.app_id, openid_url=environment.openid_url, http=http
            )
        else:
            log.warning(
                "TEAMS_AUTH is off: Teams' activities are taken without checking their tokens "
                "and the bot's replies carry none (a local emulator or test double only)"
            )
        yield TeamsBot(
            kit=kit,
            wire=TeamsWire(
                http=http,
                tokens=tokens,
                graph_url=environment.graph_url,
                throttled=throttled(budget, kit.rate_limited),
            ),
            pace=paced(budget),
            checker=checker,
            graph=tokens is not None,
            stream_interval=stream_interval,
        )
