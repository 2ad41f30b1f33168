"""``citebot run`` and ``citebot sync-commands`` for Telegram (the registry's runner).

Every Bot API call goes to ``TELEGRAM_API_BASE_URL`` (aiogram's ``TelegramAPIServer``: the
server's root, ``/bot<token>/<method>`` after it). Updates come by long polling, read by one
worker of those on one Redis, or by a webhook every worker serves (:mod:`.updates`); workers
close each other's orphaned answers (:mod:`.orphans`) and keep each chat's pace together
(:mod:`.pace`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramAPIError

from bot.adapter import Kit, WriteBudget
from integrations.telegram.app import TelegramBot
from integrations.telegram.commands import sync_commands_now, sync_if_changed
from integrations.telegram.orphans import TelegramOrphans
from integrations.telegram.pace import pace_limits
from integrations.telegram.settings import TelegramSettings
from integrations.telegram.updates import POLL_SECONDS, Reader, serving_webhook
from integrations.telegram.wire import TelegramApi, said

__all__ = ["run_telegram", "sync_commands"]

log = logging.getLogger(__name__)


def _bot(environment: TelegramSettings) -> Bot:
    if environment.bot_token is None:
        raise ValueError("Telegram needs TELEGRAM_BOT_TOKEN")
    session = AiohttpSession(api=TelegramAPIServer.from_base(environment.api_base_url))
    return Bot(environment.bot_token.get_secret_value(), session=session)


async def run_telegram(
    kit: Kit,
    environment: TelegramSettings,
    ready: asyncio.Event | None = None,
    *,
    stop: asyncio.Event | None = None,
    poll_seconds: int = POLL_SECONDS,
    edit_interval: float = 3.0,
    budget: WriteBudget | None = None,
) -> None:
    """Answer Telegram through ``kit`` until ``stop`` is set or the task is cancelled, then
    hand the reader over, drain and close. ``ready`` is set once updates can arrive.
    ``edit_interval``: the least time between a group answer's edits while it streams;
    ``budget``: the chats' pace (default: Telegram's, shared by every worker on the
    ``STATE_URL``'s Redis)."""
    async with contextlib.AsyncExitStack() as stack:
        bot = _bot(environment)
        stack.push_async_callback(bot.session.close)
        budget = await stack.enter_async_context(
            budget or kit.write_budget(pace_limits(), token=bot.token)
        )
        api = TelegramApi(bot, budget=budget, on_429=kit.rate_limited)
        me = await bot.get_me()  # the token is checked here: a bad one stops the platform
        try:
            await sync_if_changed(bot)
        except TelegramAPIError as error:  # the menu is a nicety: /ask works without it
            log.warning("Telegram: commands not set (%s)", said(error, bot.token))
        telegram = TelegramBot(api=api, kit=kit, me=me, edit_interval=edit_interval)
        # Entered before updates can arrive, so that on the way out none arrives while it drains.
        await stack.enter_async_context(kit.serving(TelegramOrphans(api=api)))
        if environment.mode == "webhook":
            await stack.enter_async_context(
                serving_webhook(
                    environment,
                    bot,
                    telegram.handle,
                    serve=kit.serve_http,
                    accepting=lambda: kit.accepting,
                )
            )
        else:
            reader = Reader(
                bot=bot,
                handle=telegram.handle,
                accepting=lambda: kit.accepting,
                poll_seconds=poll_seconds,
            )
            share = kit.fair_share(token=bot.token, what="reader")
            await share.start(reader)
            stack.push_async_callback(share.stop, reader)
        log.info("Telegram is listening (%s) as @%s", environment.mode, me.username)
        if ready is not None:
            ready.set()
        await (stop.wait() if stop is not None else asyncio.Event().wait())


async def sync_commands(environment: TelegramSettings) -> None:
    """Register ``/ask`` and ``/help`` now, in every language (``citebot sync-commands``)."""
    bot = _bot(environment)
    try:
        await sync_commands_now(bot)
    finally:
        await bot.session.close()
