"""``citebot run`` for Slack (the registry's runner): Socket Mode with an app token, else the
HTTP Events API on PORT."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import aiohttp
from aiohttp import web

from bot.adapter import Kit, scope_of
from integrations.slack.app import SlackBot
from integrations.slack.orphans import SlackOrphans
from integrations.slack.settings import SlackSettings
from integrations.slack.web import SlackBudget, make_web_client

__all__ = ["run_slack"]

log = logging.getLogger(__name__)


async def run_slack(
    kit: Kit,
    environment: SlackSettings,
    ready: asyncio.Event | None = None,
    *,
    stop: asyncio.Event | None = None,
    ping_interval: float = 10.0,
    budget: SlackBudget | None = None,
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
        if budget is None:
            budget = SlackBudget(coordination=kit.coordination, scope=scope_of(token))
        sharing = asyncio.create_task(budget.sync(), name="citebot-slack-budget")
        stack.callback(sharing.cancel)
        web_client = make_web_client(
            token=token,
            base_url=environment.api_base_url,
            session=session,
            on_429=kit.rate_limited,
            budget=budget,
        )
        bot = SlackBot(web=web_client, kit=kit, admin_users=environment.admin_users)
        await bot.start()
        closer = SlackOrphans(web=web_client, presenter=kit.presenter, wording_for=kit.wording)
        # Entered before listening, so that on the way out no event arrives while it drains.
        await stack.enter_async_context(kit.serving(closer))
        if mode == "socket":
            await _socket_mode(bot, environment, stack, ping_interval)
        else:
            await _http_mode(bot, environment, kit.settings.port, stack)
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
    bot: SlackBot, environment: SlackSettings, port: int, stack: contextlib.AsyncExitStack
) -> None:
    assert environment.signing_secret is not None
    app = bot.app(signing_secret=environment.signing_secret.get_secret_value())
    runner = web.AppRunner(app.web_app(path="/slack/events", port=port), handle_signals=False)
    await runner.setup()
    stack.push_async_callback(runner.cleanup)
    await web.TCPSite(runner, "0.0.0.0", port).start()
