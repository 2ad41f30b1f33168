"""The bots as ``citebot run`` builds them (the service from the settings, failing open),
in the test's event loop, against the simulators."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.pacing import Pacer
from bot.upstream.client import AnswerClient
from config import Settings
from integrations.discord.presenter import DiscordPresenter
from integrations.discord.run import run_discord

__all__ = ["discord_bot"]


@asynccontextmanager
async def discord_bot(settings: Settings, client: AnswerClient) -> AsyncIterator[None]:
    """The Discord bot with the service ``citebot run`` builds (``answer_service``)."""
    stop, ready = asyncio.Event(), asyncio.Event()
    running = asyncio.create_task(
        run_discord(
            settings,
            None,
            ready,
            client=client,
            stop=stop,
            pacer=Pacer(min_interval=0.2),
            presenter=DiscordPresenter(),
            guild_ready_timeout=0.1,
        )
    )
    await asyncio.wait_for(ready.wait(), 10)
    try:
        yield
    finally:
        stop.set()
        await running
