"""Which language ``citebot ask`` speaks: the person at the command line is the asker.

Precedence: ``--locale``, then ``CITEBOT_LANGUAGE`` when it is set, then the environment's
locale for messages as POSIX reads it (the first non-empty of ``LC_ALL``, ``LC_MESSAGES``,
``LANG``); the first of those citebot has a catalogue for wins, else English. The setting comes
before the environment because it names citebot alone, while ``LANG`` is the whole machine's
and is often just ``C.UTF-8`` on servers and in containers. gettext's ``LANGUAGE`` is not read
(see docs/decisions.md, Languages).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n.wording import catalogue_language

__all__ = ["POSIX_MESSAGES", "command_line_language", "environment_locale"]

POSIX_MESSAGES = ("LC_ALL", "LC_MESSAGES", "LANG")


def environment_locale(environ: Mapping[str, str]) -> str | None:
    """The locale POSIX applies to messages: the first of ``POSIX_MESSAGES`` that is set and
    not empty (``LC_ALL=C`` means C, whatever ``LANG`` says)."""
    return next((environ[name] for name in POSIX_MESSAGES if environ.get(name)), None)


def command_line_language(
    flag: str | None, *, configured: str | None, environ: Mapping[str, str]
) -> str | None:
    """The catalogue for the asker at the command line; None: English."""
    for tag in (flag, configured, environment_locale(environ)):
        language = catalogue_language(tag)
        if language is not None:
            return language
    return None
