"""Discord's entry in the registry of platforms (``citebot.platforms`` in pyproject.toml)."""

from __future__ import annotations

from bot.adapter import Pacer, Runner
from bot.platforms import PlaceIds, Platform
from bot.render.ports import Presenter
from integrations.discord.settings import DiscordSettings

__all__ = ["DISCORD"]


def _presenter() -> Presenter:
    from integrations.discord.presenter import DiscordPresenter

    return DiscordPresenter()


def _runner() -> Runner[DiscordSettings]:
    from integrations.discord.run import run_discord

    return run_discord


def _manifest(environment: DiscordSettings) -> str:
    from integrations.discord.manifest import manifest

    return manifest(environment)


async def _sync_commands(environment: DiscordSettings) -> None:
    from integrations.discord.run import sync_commands

    await sync_commands(environment)


DISCORD = Platform(
    name="discord",
    presenter=_presenter,
    environment=DiscordSettings,
    runner=_runner,
    # One edit a second per message; the sink keeps each write under the bucket Discord counts
    # it in (per interaction token, per channel), so fifty answers in a channel do not share one.
    pacer=Pacer(min_interval=1.0),
    noisy_loggers=("discord.gateway", "discord.http"),
    own_words=True,
    place_ids=PlaceIds(
        server=r"[0-9]{1,20}",
        server_name="GUILD_ID",
        channel=r"[0-9]{1,20}",
        channel_name="CHANNEL_ID",
        # "Ask a person" mentions a role, allowed_mentions naming it alone
        handoff=r"[0-9]{1,20}",
        handoff_names=("ROLE_ID",),
    ),
    sync_commands=_sync_commands,
    manifest=_manifest,
)
