"""The bot's command menu (``setMyCommands``): ``/ask`` and ``/help``, described in each of
citebot's languages for the Telegram clients that speak it (``language_code`` is two letters:
``pt`` reads the Brazilian words, ``zh`` the Simplified Chinese, as ``catalogue_language``
reads those tags), and in English for everyone else."""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.types import BotCommand

from bot.i18n.wording import LANGUAGES, Wording, catalogue_language
from bot.render.text import clip
from integrations.telegram.limits import COMMAND_DESCRIPTION

__all__ = ["commands", "language_codes", "manifest", "sync_commands_now", "sync_if_changed"]

log = logging.getLogger(__name__)


def language_codes() -> dict[str, str]:
    """Telegram's two-letter codes of citebot's languages -> the catalogue each reads (""
    is every other client: English)."""
    codes = {"": "en"}
    for language in LANGUAGES:
        code = language.split("_")[0]
        if language != "en" and catalogue_language(code) == language:
            codes[code] = language
    return codes


def commands(language: str) -> list[BotCommand]:
    wording = Wording(language)
    return [
        BotCommand(command="ask", description=clip(wording.ask_command(), COMMAND_DESCRIPTION)),
        BotCommand(command="help", description=clip(wording.help_command(), COMMAND_DESCRIPTION)),
    ]


def manifest() -> str:
    """What an admin pastes into BotFather's ``/setcommands`` (the worker sets the menu itself,
    in every language; this is the English one, for a bot set up by hand)."""
    return "\n".join(f"{c.command} - {c.description}" for c in commands("en"))


async def sync_if_changed(bot: Bot) -> None:
    """Set the menu in each language where Telegram's differs (a free ``getMyCommands`` each,
    so a worker's start changes nothing that is already right)."""
    for code, language in language_codes().items():
        wanted = commands(language)
        if await bot.get_my_commands(language_code=code or None) != wanted:
            await bot.set_my_commands(wanted, language_code=code or None)
            log.info("Telegram: commands set for %s", code or "every other language")


async def sync_commands_now(bot: Bot) -> None:
    """Set the menu in every language, whatever Telegram has (``citebot sync-commands``)."""
    for code, language in language_codes().items():
        await bot.set_my_commands(commands(language), language_code=code or None)
    log.info("Telegram: commands /ask and /help set in %d languages", len(language_codes()))
