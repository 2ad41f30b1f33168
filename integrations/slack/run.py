"""``citebot run`` for Slack (the registry's runner): Socket Mode with an app token, else the
HTTP Events API on PORT (a route on the worker's one HTTP way in, :mod:`bot.ingress`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import aiohttp
from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request

from bot.adapter import Kit, Route, WriteBudget
from integrations.slack.app import SlackBot
from integrations.slack.orphans import SlackOrphans
from integrations.slack.settings import SlackSettings
from integrations.slack.wire import SLACK_LIMITS, make_web_client

__all__ = ["run_slack"]

log = logging.getLogger(__name__)


async def run_slack(
    kit: Kit,
    environment: SlackSettings,
    ready: asyncio.Event | None = None,
    *,
    stop: asyncio.Event | None = None,
    ping_interval: float = 10.0,
    budget: WriteBudget | None = None,
) -> None:
    """Answer Slack through ``kit`` until ``stop`` is set or the task is cancelled, then drain
    and close. ``ready`` is set once events can arrive. ``ping_interval`` (Socket Mode) bounds
    how long a dropped connection goes unnoticed. ``budget`` is the workspace's rate budget
    (default: Slack's published tiers, shared by every worker on the ``STATE_URL``'s Redis).
    While the client is open, this worker also closes the answers other Slack workers left
    when they died (:mod:`bot.inflight`)."""
    mode = environment.mode
    if mode is None or environment.bot_token is None:
        raise ValueError("Slack needs SLACK_BOT_TOKEN and SLACK_APP_TOKEN or SLACK_SIGNING_SECRET")
    async with contextlib.AsyncExitStack() as stack:
        # One pooled session: a fresh TLS connection per call would delay every append.
        session = await stack.enter_async_context(
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))
        )
        token = environment.bot_token.get_secret_value()
        budget = await stack.enter_async_context(
            budget or kit.write_budget(SLACK_LIMITS, token=token)
        )
        web_client = make_web_client(
            token=token,
            base_url=environment.api_base_url,
            session=session,
            on_429=kit.rate_limited,
            budget=budget,
        )
        bot = SlackBot(web=web_client, kit=kit, admin_users=environment.admin_users)
        await bot.start()
        # Entered before listening, so that on the way out no event arrives while it drains.
        await stack.enter_async_context(kit.serving(SlackOrphans(web=web_client)))
        if mode == "socket":
            await _socket_mode(bot, environment, stack, ping_interval)
        else:
            await _http_mode(bot, environment, kit, stack)
        log.info("Slack is listening (%s mode) as %s", mode, bot.bot_user_id)
        if ready is not None:
            ready.set()
        await (stop.wait() if stop is not None else asyncio.Event().wait())


async def _socket_mode(
    bot: SlackBot,
    environment: SlackSettings,
    stack: contextlib.AsyncExitStack,
    ping_interval: float,
) -> None:
    from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

    assert environment.app_token is not None
    handler = AsyncSocketModeHandler(
        bot.app(),
        environment.app_token.get_secret_value(),
        web_client=bot.web,
        ping_interval=ping_interval,
    )
    # Closed first on the way out, so Slack sends new events to the workers that stay.
    stack.push_async_callback(handler.close_async)
    await handler.connect_async()


async def _http_mode(
    bot: SlackBot, environment: SlackSettings, kit: Kit, stack: contextlib.AsyncExitStack
) -> None:
    """Slack's events, interactions and commands at ``/slack/events`` on ``PORT``, a route on
    the worker's HTTP way in; Bolt checks each request's signature."""
    assert environment.signing_secret is not None
    app = bot.app(signing_secret=environment.signing_secret.get_secret_value())

    async def events(request: web.Request) -> web.Response:
        return await to_aiohttp_response(await app.async_dispatch(await to_bolt_request(request)))

    routes = [Route("POST", "/slack/events", events)]
    await stack.enter_async_context(kit.serve_http(kit.settings.port, routes))
