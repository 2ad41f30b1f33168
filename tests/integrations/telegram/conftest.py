"""Fixtures: a running Telegram simulator, the real aiogram Bot pointed at it, a raw HTTP client
for the requests aiogram would never send, and a citebot worker answering on it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from tests.integrations.telegram.world import World, telegram_world
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


@pytest.fixture
async def world() -> AsyncIterator[World]:
    """A running Telegram worker on the simulated Telegram and upstream (every request it sent
    checked when the test ends)."""
    async with telegram_world() as running:
        yield running
