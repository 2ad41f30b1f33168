"""``citebot run`` for Slack: Socket Mode with an app token, else the HTTP Events API on PORT."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import aiohttp
from aiohttp import web

from bot.pacing import Pacer
from bot.render.ports import Presenter
from bot.service import AnswerService, answer_service
from bot.state.coordination import scope_of
from bot.upstream.client import AnswerClient
from config.settings import Settings
from integrations.slack.app import SlackBot
from integrations.slack.orphans import SlackOrphans
from integrations.slack.presenter import SlackPresenter
from integrations.slack.web import SlackBudget, make_web_client

__all__ = ["SLACK_PACER", "run_slack"]

log = logging.getLogger(__name__)

SLACK_PACER = Pacer(min_interval=1.0)
"""Appends and edits at most once a second per answer; Slack's own limits are per method per
workspace, kept by the web client's :class:`SlackBudget`, not per channel."""


async def run_slack(
    settings: Settings,
    service: AnswerService | None = None,
    ready: asyncio.Event | None = None,
    *,
    client: AnswerClient | None = None,
    stop: asyncio.Event | None = None,
    presenter: Presenter | None = None,
    pacer: Pacer = SLACK_PACER,
    ping_interval: float = 10.0,
    budget: SlackBudget | None = None,
) -> None:
    """Answer Slack until ``stop`` is set or the task is cancelled, then drain and close.

    The worker passes its shared ``service`` (and drains it itself); without one, a service is
    made from ``settings`` around ``client``. ``ready`` is set once events can arrive.
    ``ping_interval`` (Socket Mode) bounds how long a dropped connection goes unnoticed.
    ``budget`` is the workspace's rate budget (default: Slack's published tiers, shared by
    every worker on the ``STATE_URL``'s Redis). While the client is open, this worker also
    closes the answers other Slack workers left when they died (:mod:`bot.inflight`).
    """
    mode = settings.slack_mode
    if mode is None or settings.slack_bot_token is None:
        raise ValueError("Slack needs SLACK_BOT_TOKEN and SLACK_APP_TOKEN or SLACK_SIGNING_SECRET")
    async with contextlib.AsyncExitStack() as stack:
        # One pooled session: a fresh TLS connection per call would delay every append.
        session = await stack.enter_async_context(
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))
        )
        if service is None:
            if client is None:
                raise ValueError("run_slack needs an AnswerService or an AnswerClient")
            service = await stack.enter_async_context(answer_service(settings, client))
        token = settings.slack_bot_token.get_secret_value()
        if budget is None:
            budget = SlackBudget(coordination=service.coordination, scope=scope_of(token))
        sharing = asyncio.create_task(budget.sync(), name="citebot-slack-budget")
        stack.callback(sharing.cancel)
        web_client = make_web_client(
            token=token,
            base_url=settings.slack_api_base_url,
            session=session,
            on_429=service.metrics.platform_429s.labels("slack").inc,
            budget=budget,
        )
        presenter = presenter or SlackPresenter()
        bot = SlackBot(
            web=web_client,
            service=service,
            presenter=presenter,
            pacer=pacer,
            channel_allowlist=settings.slack_channel_allowlist,
        )
        await bot.start()
        wording = service.wording_for
        await stack.enter_async_context(
            service.inflight.closing(
                "slack",
                SlackOrphans(
                    web=web_client,
                    presenter=presenter,
                    wording_for=lambda language: wording(language, "slack"),
                ),
            )
        )
        stack.push_async_callback(bot.drain, settings.shutdown_grace_seconds)
        if mode == "socket":
            await _socket_mode(bot, settings, stack, ping_interval)
        else:
            await _http_mode(bot, settings, stack)
        log.info("Slack is listening (%s mode) as %s", mode, bot.bot_user_id)
        if ready is not None:
            ready.set()
        await (stop.wait() if stop is not None else asyncio.Event().wait())


async def _socket_mode(
    bot: SlackBot, settings: Settings, stack: contextlib.AsyncExitStack, ping_interval: float
) -> None:
    from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

    assert settings.slack_app_token is not None
    handler = AsyncSocketModeHandler(
        bot.app(),
        settings.slack_app_token.get_secret_value(),
        web_client=bot.web,
        ping_interval=ping_interval,
    )
    # Closed first on the way out, so Slack sends new events to the workers that stay.
    stack.push_async_callback(handler.close_async)
    await handler.connect_async()


async def _http_mode(bot: SlackBot, settings: Settings, stack: contextlib.AsyncExitStack) -> None:
    assert settings.slack_signing_secret is not None
    app = bot.app(signing_secret=settings.slack_signing_secret.get_secret_value())
    runner = web.AppRunner(
        app.web_app(path="/slack/events", port=settings.port), handle_signals=False
    )
    await runner.setup()
    stack.push_async_callback(runner.cleanup)
    await web.TCPSite(runner, "0.0.0.0", settings.port).start()
