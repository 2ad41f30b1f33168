"""The bot's command menu (``setMyCommands``), described in each of citebot's languages for
the Telegram clients that speak it (``language_code`` is two letters: ``pt`` reads the
Brazilian words, ``zh`` the Simplified Chinese, as ``catalogue_language`` reads those tags),
and in English for everyone else.

Everyone's menu (the default scope) has ``/ask``, ``/check``, ``/forget_me`` and ``/help``;
a group's administrators (``BotCommandScopeAllChatAdministrators``, which Telegram shows them
instead of the default) have ``/settings`` and ``/report`` too. The menu only suggests: the
worker asks ``getChatMember`` at each use."""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.types import BotCommand, BotCommandScopeAllChatAdministrators, BotCommandScopeDefault

from bot.i18n.wording import LANGUAGES, Wording, catalogue_language
from bot.render.text import clip
from integrations.telegram.limits import COMMAND_DESCRIPTION

__all__ = ["commands", "language_codes", "manifest", "sync_commands_now", "sync_if_changed"]

log = logging.getLogger(__name__)

Scope = BotCommandScopeDefault | BotCommandScopeAllChatAdministrators
SCOPES: tuple[Scope, ...] = (BotCommandScopeDefault(), BotCommandScopeAllChatAdministrators())


def language_codes() -> dict[str, str]:
    """Telegram's two-letter codes of citebot's languages -> the catalogue each reads (""
    is every other client: English)."""
    codes = {"": "en"}
    for language in LANGUAGES:
        code = language.split("_")[0]
        if language != "en" and catalogue_language(code) == language:
            codes[code] = language
    return codes


def commands(language: str, *, admins: bool = False) -> list[BotCommand]:
    """The menu in ``language``: everyone's, or (``admins``) a group administrator's."""
    wording = Wording(language)
    described = [
        ("ask", wording.ask_command()),
        ("check", wording.check_with_sources()),
    ]
    if admins:
        described += [
            ("settings", wording.settings_command()),
            ("report", wording.report_command()),
        ]
    described += [("forget_me", wording.forget_me_command()), ("help", wording.help_command())]
    return [
        BotCommand(command=name, description=clip(description, COMMAND_DESCRIPTION))
        for name, description in described
    ]


def manifest() -> str:
    """What an admin pastes into BotFather's ``/setcommands``: everyone's menu in English (the
    worker sets every menu itself, in every language and for administrators; this is for a
    bot set up by hand)."""
    return "\n".join(f"{c.command} - {c.description}" for c in commands("en"))


def _menus() -> list[tuple[Scope, str | None, list[BotCommand]]]:
    return [
        (
            scope,
            code or None,
            commands(language, admins=isinstance(scope, BotCommandScopeAllChatAdministrators)),
        )
        for scope in SCOPES
        for code, language in language_codes().items()
    ]


async def sync_if_changed(bot: Bot) -> None:
    """Set each menu where Telegram's differs (a free ``getMyCommands`` each, so a worker's
    start changes nothing that is already right)."""
    for scope, code, wanted in _menus():
        if await bot.get_my_commands(scope=scope, language_code=code) != wanted:
            await bot.set_my_commands(wanted, scope=scope, language_code=code)
            log.info("Telegram: %s commands set for %s", scope.type, code or "every language")


async def sync_commands_now(bot: Bot) -> None:
    """Set every menu, whatever Telegram has (``citebot sync-commands``)."""
    menus = _menus()
    for scope, code, wanted in menus:
        await bot.set_my_commands(wanted, scope=scope, language_code=code)
    log.info("Telegram: %d command menus set (everyone's and admins', each language)", len(menus))
