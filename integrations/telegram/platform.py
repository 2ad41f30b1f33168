"""Telegram's entry in the registry of platforms (``citebot.platforms`` in pyproject.toml)."""

from __future__ import annotations

from bot.adapter import Pacer, Runner
from bot.platforms import PlaceIds, Platform
from bot.render.ports import Presenter
from integrations.telegram.settings import TelegramSettings

__all__ = ["TELEGRAM"]


def _presenter() -> Presenter:
    from integrations.telegram.presenter import TelegramPresenter

    return TelegramPresenter()


def _runner() -> Runner[TelegramSettings]:
    from integrations.telegram.run import run_telegram

    return run_telegram


async def _sync_commands(environment: TelegramSettings) -> None:
    from integrations.telegram.run import sync_commands

    await sync_commands(environment)


def _manifest(environment: TelegramSettings) -> str:
    from integrations.telegram.commands import manifest

    return manifest()


TELEGRAM = Platform(
    name="telegram",
    presenter=_presenter,
    environment=TelegramSettings,
    runner=_runner,
    # A draft (private chats) once a second; a group's edits are spaced further by the sink,
    # within Telegram's pace for the chat, shared by every answer there (the write budget).
    pacer=Pacer(min_interval=1.0),
    noisy_loggers=("aiogram",),
    own_words=True,
    # Anyone can message a bot: a private chat passes the allowlist only when it names it.
    direct_messages_fenced=True,
    # A place is its chat: a group (a negative id) or a private chat (the person's id); a
    # forum topic is in its group.
    # "Ask a person" names the chat's administrators (getChatAdministrators), each by a mention
    place_ids=PlaceIds(
        server=r"-?[0-9]{1,20}", server_name="CHAT_ID", handoff="admins", handoff_names=("admins",)
    ),
    sync_commands=_sync_commands,
    manifest=_manifest,
)
