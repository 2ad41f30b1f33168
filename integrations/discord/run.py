"""``citebot run`` and ``citebot sync-commands`` for Discord (the registry's runner).

``DISCORD_API_BASE_URL`` redirects every REST, interaction and webhook call (discord.py's
``Route.BASE``) and, through ``GET /gateway/bot``, the gateway too. Workers on one Redis share
the shards out (:mod:`integrations.discord.shards`) and close each other's orphaned answers
(:mod:`integrations.discord.orphans`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from typing import Any

import discord
from discord.http import Route

from bot.adapter import Kit
from integrations.discord import shards
from integrations.discord.app import CitebotDiscord
from integrations.discord.commands import declared_tree
from integrations.discord.orphans import DiscordOrphans
from integrations.discord.routes import DISCORD_LIMITS
from integrations.discord.settings import DiscordSettings
from integrations.discord.syncing import sync_commands_now

log = logging.getLogger(__name__)

__all__ = ["IntentNotAllowed", "run_discord", "sync_commands"]


class IntentNotAllowed(RuntimeError):
    """Discord closed the gateway with 4014: the bot asked for an intent its portal denies."""

    def __init__(self) -> None:
        super().__init__(
            "DISCORD_MESSAGE_CONTENT=on, but Discord refused the Message Content intent: switch "
            "it on in the Developer Portal (Bot, Privileged Gateway Intents; an app with 10,000 "
            "users or more applies for it), or set DISCORD_MESSAGE_CONTENT=off"
        )


@contextlib.contextmanager
def discord_base(base_url: str) -> Iterator[None]:
    """Point discord.py's REST (and so its gateway lookup) at ``base_url`` for a while."""
    previous = Route.BASE
    Route.BASE = base_url.rstrip("/")
    try:
        yield
    finally:
        Route.BASE = previous


def _token(environment: DiscordSettings) -> str:
    if environment.token is None:
        raise ValueError("Discord needs DISCORD_TOKEN")
    return environment.token.get_secret_value()


async def run_discord(
    kit: Kit,
    environment: DiscordSettings,
    ready: asyncio.Event | None = None,
    *,
    stop: asyncio.Event | None = None,
    **options: Any,
) -> None:
    """Answer Discord through ``kit`` until ``stop`` is set or the task is cancelled; then
    drain and close. ``ready`` is set once the gateway is up. ``options`` go to the
    discord.py client (tests: ``guild_ready_timeout``)."""
    token = _token(environment)
    with discord_base(environment.api_base_url):
        async with contextlib.AsyncExitStack() as stack:
            limits = {**DISCORD_LIMITS, "identify": shards.IDENTIFY.limit}
            budget = await stack.enter_async_context(kit.write_budget(limits, token=token))
            share = kit.fair_share(
                token=token, what="shard", pinned=[int(s) for s in environment.shard_ids]
            )
            bot = CitebotDiscord(
                kit=kit,
                environment=environment,
                ready=ready,
                budget=budget,
                shard_plan=shards.Shards(share=share, budget=budget, count=environment.shard_count),
                **options,
            )
            try:
                await bot.login(token)  # opens discord.py's session, even when it fails
            except BaseException:
                await bot.close()
                raise
            running = asyncio.ensure_future(bot.connect(reconnect=True))
            stack.push_async_callback(_finish, running)
            stack.push_async_callback(bot.close)
            orphans = DiscordOrphans(wire=bot.wire, budget=budget)
            await stack.enter_async_context(kit.serving(orphans))
            try:
                await _first_of(running, stop)
            except discord.PrivilegedIntentsRequired:
                raise IntentNotAllowed from None


async def _first_of(running: asyncio.Future[None], stop: asyncio.Event | None) -> None:
    """Until the connection ends (its error is raised) or ``stop`` is set."""
    stopping = asyncio.ensure_future(stop.wait() if stop is not None else asyncio.Event().wait())
    either: set[asyncio.Future[Any]] = {running, stopping}
    try:
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    if running.done():
        running.result()
    else:
        log.info("Discord: stopping")


async def _finish(running: asyncio.Future[None]) -> None:
    """After ``close()`` the connection returns; cancel it if it hasn't."""
    if not running.done():
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(running), 5)
    running.cancel()
    with contextlib.suppress(asyncio.CancelledError, discord.DiscordException, OSError):
        await running


async def sync_commands(environment: DiscordSettings) -> None:
    """Register the commands now, whatever Discord has (``citebot sync-commands``)."""
    token = _token(environment)
    with discord_base(environment.api_base_url):
        tree = declared_tree()
        client = tree.client
        try:
            await client.login(token)
            synced = await sync_commands_now(client, tree)
            log.info("synced %d command(s)", synced)
        finally:
            await client.close()
