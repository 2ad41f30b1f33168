"""``citebot run`` and ``citebot sync-commands`` for Discord.

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
from discord import app_commands
from discord.http import Route

from bot.pacing import Pacer
from bot.render.ports import Presenter
from bot.service import AnswerService, answer_service
from bot.state.coordination import Coordination, scope_of
from bot.upstream.client import AnswerClient
from config import Settings
from integrations.discord.bot import CitebotDiscord
from integrations.discord.commands import add_ask_command
from integrations.discord.orphans import DiscordOrphans
from integrations.discord.presenter import DiscordPresenter
from integrations.discord.shards import Shards

log = logging.getLogger(__name__)

__all__ = ["DISCORD_PACER", "run_discord", "sync_commands"]

DISCORD_PACER = Pacer(min_interval=1.0)
"""One edit a second per message; the sink keeps each write under the bucket Discord counts it
in (per interaction token, per channel), so fifty answers in a channel do not share one."""


@contextlib.contextmanager
def discord_base(base_url: str) -> Iterator[None]:
    """Point discord.py's REST (and so its gateway lookup) at ``base_url`` for a while."""
    previous = Route.BASE
    Route.BASE = base_url.rstrip("/")
    try:
        yield
    finally:
        Route.BASE = previous


def _token(settings: Settings) -> str:
    if settings.discord_token is None:
        raise ValueError("Discord needs DISCORD_TOKEN")
    return settings.discord_token.get_secret_value()


async def run_discord(
    settings: Settings,
    service: AnswerService | None = None,
    ready: asyncio.Event | None = None,
    *,
    client: AnswerClient | None = None,
    stop: asyncio.Event | None = None,
    presenter: Presenter | None = None,
    pacer: Pacer = DISCORD_PACER,
    **options: Any,
) -> None:
    """Answer Discord until ``stop`` is set or the task is cancelled; then drain and close.

    The worker passes its shared ``service`` (and drains it first); without one, a service is
    made from ``settings`` around ``client``. ``ready`` is set once the gateway is up.
    ``options`` go to the discord.py client (tests: ``guild_ready_timeout``).
    """
    token = _token(settings)
    with discord_base(settings.discord_api_base_url):
        async with contextlib.AsyncExitStack() as stack:
            if service is None:
                if client is None:
                    raise ValueError("run_discord needs an AnswerService or an AnswerClient")
                service = await stack.enter_async_context(answer_service(settings, client))
            presenter = presenter or DiscordPresenter()
            bot = CitebotDiscord(
                settings=settings,
                service=service,
                presenter=presenter,
                pacer=pacer,
                ready=ready,
                shard_plan=_shard_plan(settings, service, token, service.coordination),
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
            wording = service.wording_for
            await stack.enter_async_context(
                service.inflight.closing(
                    "discord",
                    DiscordOrphans(
                        wire=bot.wire,
                        budgets=bot.budgets,
                        presenter=presenter,
                        wording_for=lambda language: wording(language, "discord"),
                    ),
                )
            )
            stack.push_async_callback(service.drain, settings.shutdown_grace_seconds)
            await _first_of(running, stop)


def _shard_plan(
    settings: Settings, service: AnswerService, token: str, coordination: Coordination | None
) -> Shards:
    return Shards(
        coordination=coordination,
        scope=scope_of(token),
        count=settings.discord_shard_count,
        pinned=[int(shard) for shard in settings.discord_shard_ids],
        accepting=lambda: service.accepting,
    )


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


async def sync_commands(settings: Settings) -> None:
    """Register the slash commands now, whatever Discord has (``citebot sync-commands``)."""
    token = _token(settings)
    with discord_base(settings.discord_api_base_url):
        client = discord.Client(intents=discord.Intents.none())
        tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)

        async def never(*_: object) -> None:
            raise AssertionError("sync-commands answers nothing")

        add_ask_command(tree, never)
        try:
            await client.login(token)
            synced = await tree.sync()
            log.info(
                "synced %d slash command(s): %s",
                len(synced),
                ", ".join(f"/{c.name}" for c in synced),
            )
        finally:
            await client.close()
