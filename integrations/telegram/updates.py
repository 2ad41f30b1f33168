"""How updates reach the bot: long polling by one reader across the workers, or a webhook
every worker serves.

Telegram allows one ``getUpdates`` reader per bot: a second one ends the first with 409. The
reader is a :class:`~bot.shares.FairShare` of one resource among the workers on one
Redis (held under a renewed lease, handed over on SIGTERM, taken over within seconds when its
worker dies); the worker holding it polls, confirms what it read, and hands every update to
the bot, which claims it by ``update_id`` (an update read again after a hand-over is answered
once). A worker shutting down reads nothing more: what it has not handed on is left unconfirmed
for the next reader. A 409 that still comes means another process polls, or a webhook is set:
it is logged, and the reader waits and tries again (the lease decides who reads; another
deployment's webhook is not deleted from under it).

With ``TELEGRAM_WEBHOOK_URL`` every worker listens on ``TELEGRAM_WEBHOOK_PORT`` at the URL's
path (a route on the worker's one HTTP way in, :mod:`bot.ingress`) and sets the webhook (the
same one: idempotent), with a secret token Telegram sends back on every delivery
(``X-Telegram-Bot-Api-Secret-Token``); a delivery without it is refused (401). A load balancer
may hand a delivery to any worker, and a repeated one is claimed once; a worker shutting down
answers 503, so Telegram delivers it again, elsewhere or later.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from aiogram import Bot
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramConflictError,
    TelegramRetryAfter,
    TelegramUnauthorizedError,
)
from aiogram.types import Update
from aiohttp import web
from pydantic import ValidationError

from bot.adapter import Route
from integrations.telegram.app import ALLOWED_UPDATES
from integrations.telegram.settings import TelegramSettings
from integrations.telegram.wire import said

__all__ = ["POLL_SECONDS", "SECRET_HEADER", "Reader", "serving_webhook"]

log = logging.getLogger(__name__)

POLL_SECONDS = 25
"""How long one ``getUpdates`` waits for updates (Telegram allows up to 50)."""
BACKOFF = (1.0, 30.0)
"""Seconds a reader waits after a failed poll: the first time, and at most (doubling)."""
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"

Handle = Callable[[Update], Awaitable[None]]


class Reader:
    """The one ``getUpdates`` reader (a :class:`~bot.shares.Holder` of resource 0)."""

    def __init__(
        self,
        *,
        bot: Bot,
        handle: Handle,
        accepting: Callable[[], bool] = lambda: True,
        poll_seconds: int = POLL_SECONDS,
    ) -> None:
        self._bot = bot
        self._handle = handle
        self._accepting = accepting
        self._poll_seconds = poll_seconds
        self._offset: int | None = None
        self._task: asyncio.Task[None] | None = None

    async def start_resource(self, number: int) -> None:
        """Read updates (this worker holds the reader now)."""
        log.info("Telegram: reading updates here")
        self._task = asyncio.create_task(self._read(), name="citebot-telegram-reader")

    async def stop_resource(self, number: int) -> None:
        """Stop reading (another worker takes over, or this one stops): confirm what was read,
        so the next reader starts after it (an update read again is claimed, never answered
        twice)."""
        if self._task is None:
            return
        task, self._task = self._task, None
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        if self._offset is not None:
            with contextlib.suppress(TelegramAPIError):
                await self._bot.get_updates(offset=self._offset, limit=1, timeout=0)
        log.info("Telegram: no longer reading updates here")

    async def _read(self) -> None:
        with contextlib.suppress(TelegramAPIError):  # polling: no webhook may be in the way
            await self._bot.delete_webhook(drop_pending_updates=False)
        backoff = BACKOFF[0]
        while self._accepting():
            try:
                updates = await self._bot.get_updates(
                    offset=self._offset,
                    timeout=self._poll_seconds,
                    allowed_updates=list(ALLOWED_UPDATES),
                    request_timeout=self._poll_seconds + 10,
                )
            except TelegramRetryAfter as error:
                await asyncio.sleep(error.retry_after)
                continue
            except TelegramUnauthorizedError:
                raise
            except TelegramConflictError as error:
                log.warning("Telegram: another reader or a webhook: %s", error.message)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, BACKOFF[1])
                continue
            except TelegramAPIError as error:
                log.warning("Telegram: reading updates failed (%s)", said(error, self._bot.token))
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, BACKOFF[1])
                continue
            backoff = BACKOFF[0]
            for update in updates:
                if not self._accepting():  # shutting down: the next reader gets it
                    return
                self._offset = update.update_id + 1
                await self._handle(update)


Serve = Callable[[int, Sequence[Route]], AbstractAsyncContextManager[int]]
"""The worker's HTTP way in (:meth:`~bot.kit.Kit.serve_http`)."""


@asynccontextmanager
async def serving_webhook(
    environment: TelegramSettings,
    bot: Bot,
    handle: Handle,
    *,
    serve: Serve,
    accepting: Callable[[], bool] = lambda: True,
) -> AsyncIterator[None]:
    """Listen for Telegram's deliveries on the worker's HTTP way in, then set the webhook.
    While the worker shuts down the route answers 503, and Telegram delivers the update again
    later (to another worker behind a load balancer, or to this one's successor)."""
    secret = environment.secret

    async def delivered(request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), secret.encode()):
            log.warning("Telegram webhook: refused a delivery without the secret token")
            return web.Response(status=401)
        try:
            update = Update.model_validate(await request.json(), context={"bot": bot})
        except (ValueError, ValidationError) as error:  # Telegram would send it again for good
            log.warning("Telegram webhook: an unreadable update (%s)", type(error).__name__)
            return web.Response()
        await handle(update)
        return web.Response()

    route = Route("POST", environment.webhook_path, delivered, accepting=accepting)
    async with serve(environment.webhook_port, [route]):
        assert environment.webhook_url is not None
        await bot.set_webhook(
            url=environment.webhook_url,
            secret_token=secret,
            allowed_updates=list(ALLOWED_UPDATES),
        )
        yield
