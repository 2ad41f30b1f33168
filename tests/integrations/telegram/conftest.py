"""Fixtures: a running Telegram simulator, the real aiogram Bot pointed at it, and a raw HTTP
client for the requests aiogram would never send."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from tests.sim.telegram import TelegramSim

Raw = Callable[..., Awaitable[tuple[int, dict[str, Any]]]]


@pytest.fixture
async def tg() -> AsyncIterator[TelegramSim]:
    """The simulator; a test fails if any request it let through broke a rule (tests that break
    them on purpose take their violations with ``tg.take_violations()``)."""
    async with TelegramSim(webhook_retry=0.05) as sim:
        yield sim
        sim.assert_valid()


@pytest.fixture
async def bot(tg: TelegramSim) -> AsyncIterator[Bot]:
    session = AiohttpSession(api=TelegramAPIServer.from_base(tg.base_url))
    async with Bot(tg.token, session=session) as client:
        yield client


@pytest.fixture
async def raw(tg: TelegramSim) -> AsyncIterator[Raw]:
    """``await raw("sendMessage", json={...})`` (or ``data=``, or a FormData): status and body."""
    async with aiohttp.ClientSession() as session:

        async def call(method: str, **kwargs: Any) -> tuple[int, dict[str, Any]]:
            url = f"{tg.base_url}/bot{tg.token}/{method}"
            async with session.post(url, **kwargs) as reply:
                body: dict[str, Any] = await reply.json()
                return reply.status, body

        yield call
