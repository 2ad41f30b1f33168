"""Updates reach the bot one way at a time: ``getUpdates`` long polling, or a webhook.

As tdlib/telegram-bot-api (``Client.cpp``, ``WebhookActor.cpp``) does it: ``offset`` confirms
every update below it (a negative one keeps only the last ``-offset``); ``limit`` is clamped to
1-100 and ``timeout`` to 0-50 s; ``allowed_updates`` is kept for later calls and filters updates
as they are queued (an empty list means the default: all but ``chat_member``,
``message_reaction`` and ``message_reaction_count``). One reader at a time: a ``getUpdates``
that finds nothing to return ends the long poll already waiting with 409 "Conflict: terminated
by other getUpdates request; make sure that only one bot instance is running"; while a webhook
is set, ``getUpdates`` is 409 "Conflict: can't use getUpdates method while webhook is active;
use deleteWebhook to delete the webhook first", and ``setWebhook`` ends a waiting long poll with
409 "Conflict: terminated by setWebhook request".

A webhook gets each update as a JSON POST (``X-Telegram-Bot-Api-Secret-Token`` when a secret is
set), in order; an answer outside 2xx ("Wrong response from the webhook: 500 Internal Server
Error") or no answer is retried after a delay that doubles up to a minute (the simulator starts
at ``webhook_retry`` seconds, Telegram at 1), honouring a ``Retry-After``. A 2xx answer may carry
a method call (``{"method": "sendMessage", ...}``), which Telegram runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp

from tests.sim.telegram.params import Params
from tests.sim.telegram.server import call
from tests.sim.telegram.spec import fields_of
from tests.sim.telegram.wire import ApiError

if TYPE_CHECKING:
    from tests.sim.telegram.sim import TelegramSim

__all__ = ["DEFAULT_UPDATES", "Updates", "Webhook"]

ALL_UPDATES = tuple(f.name for f in fields_of("Update") if f.name != "update_id")
DEFAULT_UPDATES = frozenset(ALL_UPDATES) - {
    "chat_member",
    "message_reaction",
    "message_reaction_count",
}
LONG_POLL_MAX = 50
_OTHER_POLL = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is"
    " running"
)
_WEBHOOK_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete"
    " the webhook first"
)


@dataclass
class Webhook:
    url: str
    secret: str = ""
    deliveries: list[dict[str, Any]] = field(default_factory=list)
    """Every POST made: the update, the headers sent, and the status (0: no answer)."""
    last_error: tuple[int, str] | None = None


class Updates:
    def __init__(self, sim: TelegramSim) -> None:
        self.sim = sim
        self.queue: list[dict[str, Any]] = []
        self.next_id = 100_000_001
        self.allowed: frozenset[str] = DEFAULT_UPDATES
        self.webhook: Webhook | None = None
        self._poll: asyncio.Future[None] | None = None
        self._arrived = asyncio.Event()
        self._delivery: asyncio.Task[None] | None = None
        self.pushed: list[dict[str, Any]] = []
        """Every update queued, in order (what the bot could have received)."""

    @property
    def long_polling(self) -> bool:
        """Whether a ``getUpdates`` is waiting for updates now."""
        return self._poll is not None and not self._poll.done()

    def push(self, kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Queue an update if the bot's ``allowed_updates`` let it in."""
        if kind not in self.allowed:
            return None
        update = {"update_id": self.next_id, kind: payload}
        self.next_id += 1
        self.queue.append(update)
        self.pushed.append(update)
        self._arrived.set()
        return update

    def again(self, update: dict[str, Any]) -> None:
        """Queue ``update`` once more, its ``update_id`` unchanged: what a webhook repeats
        when its delivery got no 200, or a reader handed over reads before the last one
        confirmed it."""
        self.queue.append(update)
        self._arrived.set()

    def set_allowed(self, allowed: list[str] | None) -> None:
        if allowed is not None:
            self.allowed = frozenset(allowed) if allowed else DEFAULT_UPDATES

    def _confirm(self, offset: int) -> None:
        if offset < 0:
            self.queue = self.queue[offset:]
        elif offset > 0:
            self.queue = [u for u in self.queue if u["update_id"] >= offset]

    async def get_updates(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        if self.webhook is not None:
            raise ApiError(409, _WEBHOOK_ACTIVE)
        self._confirm(int(values.get("offset", 0)))
        self.set_allowed(values.get("allowed_updates"))
        limit = min(max(int(values.get("limit", 100)), 1), 100)
        timeout = min(max(int(values.get("timeout", 0)), 0), LONG_POLL_MAX)
        if self.queue or timeout == 0:
            return self.queue[:limit]
        if self._poll is not None and not self._poll.done():
            self._poll.set_exception(ApiError(409, _OTHER_POLL))
        poll = self._poll = asyncio.get_running_loop().create_future()
        self._arrived.clear()
        waiter = asyncio.ensure_future(self._arrived.wait())
        try:
            await asyncio.wait({waiter, poll}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
        if poll.done() and poll.exception() is not None:
            raise ApiError(409, str(poll.exception()))
        poll.cancel()
        return self.queue[:limit]

    def end_long_poll(self, description: str) -> None:
        if self._poll is not None and not self._poll.done():
            self._poll.set_exception(ApiError(409, description))

    async def set_webhook(self, values: dict[str, Any]) -> bool:
        url = str(values.get("url", ""))
        if values.get("drop_pending_updates"):
            self.queue.clear()
        if not url:
            await self.delete_webhook({})
            return True
        self.set_allowed(values.get("allowed_updates"))
        self.end_long_poll("Conflict: terminated by setWebhook request")
        await self._stop_delivery()
        self.webhook = Webhook(url=url, secret=str(values.get("secret_token", "")))
        self._delivery = asyncio.create_task(self._deliver(self.webhook))
        return True

    async def delete_webhook(self, values: dict[str, Any]) -> bool:
        if values.get("drop_pending_updates"):
            self.queue.clear()
        await self._stop_delivery()
        self.webhook = None
        return True

    def webhook_info(self) -> dict[str, Any]:
        hook = self.webhook
        info: dict[str, Any] = {
            "url": hook.url if hook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self.queue),
        }
        if hook is not None:
            info.update(max_connections=40, ip_address="127.0.0.1")
            if hook.last_error is not None:
                info.update(
                    last_error_date=hook.last_error[0], last_error_message=hook.last_error[1]
                )
        if self.allowed != DEFAULT_UPDATES:
            info["allowed_updates"] = sorted(self.allowed)
        return info

    async def _stop_delivery(self) -> None:
        if self._delivery is not None:
            self._delivery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._delivery
            self._delivery = None

    async def close(self) -> None:
        await self._stop_delivery()
        self.end_long_poll(
            "Conflict: terminated by other getUpdates request; the simulator stopped"
        )

    async def _deliver(self, hook: Webhook) -> None:
        delay = self.sim.webhook_retry
        async with aiohttp.ClientSession() as session:
            while True:
                if not self.queue:
                    self._arrived.clear()
                    await self._arrived.wait()
                    continue
                update = self.queue[0]
                status, wait = await self._post(session, hook, update)
                if 200 <= status < 300:
                    self.queue.remove(update)
                    delay = self.sim.webhook_retry
                    continue
                await asyncio.sleep(wait if wait is not None else delay)
                delay = min(delay * 2, 60.0)

    async def _post(
        self, session: aiohttp.ClientSession, hook: Webhook, update: dict[str, Any]
    ) -> tuple[int, float | None]:
        headers = {"Content-Type": "application/json"}
        if hook.secret:
            headers["X-Telegram-Bot-Api-Secret-Token"] = hook.secret
        record: dict[str, Any] = {"update": update, "headers": headers, "status": 0}
        hook.deliveries.append(record)
        try:
            timeout = aiohttp.ClientTimeout(total=10)
            async with session.post(
                hook.url, data=json.dumps(update), headers=headers, timeout=timeout
            ) as reply:
                record["status"] = reply.status
                body = await reply.read()
                retry = reply.headers.get("Retry-After")
        except (aiohttp.ClientError, TimeoutError) as error:
            hook.last_error = (self.sim.unix_time(), f"Connection error: {type(error).__name__}")
            self.sim.touch()
            return 0, None
        self.sim.touch()
        if not 200 <= record["status"] < 300:
            reason = f"{record['status']} {reply.reason or ''}".strip()
            hook.last_error = (self.sim.unix_time(), f"Wrong response from the webhook: {reason}")
            return record["status"], float(retry) if retry and retry.isdigit() else None
        await self._run_reply(body)
        return record["status"], None

    async def _run_reply(self, body: bytes) -> None:
        """A method call in the webhook's answer, run as Telegram runs it (its result is lost)."""
        try:
            reply = json.loads(body) if body.strip() else None
        except ValueError:
            return
        if not isinstance(reply, dict) or not isinstance(reply.get("method"), str):
            return
        name = reply.pop("method")
        if name.lower().startswith("get") or name.lower() in (
            "setwebhook",
            "deletewebhook",
            "close",
            "logout",
        ):
            return
        await call(
            self.sim,
            name,
            Params(values=reply, encoding="json"),
            self.sim.token,
            via="webhook-reply",
        )
