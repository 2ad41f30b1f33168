"""The bots as ``citebot run`` builds them (the service from the settings, failing open),
in the test's event loop, against the simulators."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.kit import PlatformKit
from bot.pacing import Pacer
from bot.serving import answer_service
from bot.upstream.client import AnswerClient
from config import Settings
from integrations.discord.platform import DISCORD
from integrations.discord.run import run_discord
from integrations.discord.settings import DiscordSettings
from tests.patience import PATIENCE

__all__ = ["discord_bot"]


@asynccontextmanager
async def discord_bot(
    settings: Settings, environment: DiscordSettings, client: AnswerClient
) -> AsyncIterator[None]:
    """The Discord bot with the service ``citebot run`` builds (``answer_service``)."""
    async with answer_service(settings, client) as service:
        kit = PlatformKit(
            service,
            DISCORD,
            environment=environment,
            settings=settings,
            pacer=Pacer(min_interval=0.2),
        )
        stop, ready = asyncio.Event(), asyncio.Event()
        running = asyncio.create_task(
            run_discord(kit, environment, ready, stop=stop, guild_ready_timeout=0.1)
        )
        await asyncio.wait_for(ready.wait(), PATIENCE)
        try:
            yield
        finally:
            stop.set()
            await running
