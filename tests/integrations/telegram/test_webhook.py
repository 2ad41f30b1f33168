"""Webhook mode (``TELEGRAM_WEBHOOK_URL``): the worker listens on ``TELEGRAM_WEBHOOK_PORT`` at the
URL's path, sets the webhook with a secret token, and takes only deliveries that carry it; a
delivery Telegram repeats is answered once; a worker shutting down leaves deliveries to
Telegram's retry."""

from __future__ import annotations

import json
import socket

import aiohttp

from integrations.telegram.updates import SECRET_HEADER
from tests.integrations.telegram.world import telegram_world


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_updates_come_by_webhook_with_its_secret_and_a_repeat_is_answered_once() -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram/updates"
    env = {"TELEGRAM_WEBHOOK_URL": url, "TELEGRAM_WEBHOOK_PORT": str(port)}
    async with telegram_world(env) as world:
        info = world.tg.updates.webhook_info()
        assert info["url"] == url
        hook = world.tg.updates.webhook
        assert hook is not None
        secret = hook.secret
        assert secret == world.config.telegram.secret
        assert world.tg.token not in secret
        alice = world.person("Alice")
        chat = world.tg.private_chat(alice)
        await world.tg.user_says(alice, chat, "Why?")
        await world.answered()
        delivered = hook.deliveries[-1]
        assert delivered["status"] == 200
        assert delivered["headers"][SECRET_HEADER] == secret

        async with aiohttp.ClientSession() as session:
            body = json.dumps(delivered["update"])
            headers = {"Content-Type": "application/json"}
            async with session.post(url, data=body, headers=headers) as refused:
                assert refused.status == 401
            forged = {**headers, SECRET_HEADER: "not-the-secret"}
            async with session.post(url, data=body, headers=forged) as refused:
                assert refused.status == 401
            repeated = {**headers, SECRET_HEADER: secret}
            async with session.post(url, data=body, headers=repeated) as taken:
                assert taken.status == 200
        await world.idle()

        assert len(world.upstream.requests) == 1
        assert [m.readable for m in world.tg.bot_messages(chat)] == ["Hello world."]
        assert world.tg.requests_to("getUpdates") == []

        await world.service.drain(0)  # SIGTERM: Telegram is asked to deliver it again later
        await world.tg.user_says(alice, chat, "Are you there?")
        await world.tg.until(lambda: hook.deliveries[-1]["status"] == 503)
        assert [m.readable for m in world.tg.bot_messages(chat)] == ["Hello world."]
        assert world.tg.updates.queue  # still Telegram's to deliver
