"""What a platform's command menu and its help say of citebot: each command's description and
how to ask (Telegram's /start and /help, its BotFather list). Part of
:class:`~bot.i18n.wording.Wording`, kept apart so that module stays readable; extracted and
translated with every other sentence."""

from __future__ import annotations

from typing import Protocol

__all__ = ["MenuWording"]


class _Speaker(Protocol):
    def _(self, text: str) -> str: ...


class MenuWording:
    """Mixed into :class:`~bot.i18n.wording.Wording`, which speaks its language."""

    __slots__ = ()

    def usage_help(self: _Speaker) -> str:
        """Where a platform asks a bot how it is used (Telegram's /start and /help)."""
        return self._(
            "Send me a question and I will answer it with its sources. In a group, write /ask "
            "followed by your question. Reply to one of my answers to ask a follow-up question."
        )

    def mention_help(self: _Speaker) -> str:
        """How a bot asked by a mention where others read along is used (Teams' help)."""
        return self._(
            "Write me a question and I will answer it with its sources. Where others read "
            "along, start your question with a mention of citebot, and a follow-up too. Admins: "
            "settings, report. Anyone: forget-me."
        )

    def ask_command(self: _Speaker) -> str:
        """The ask command's description in a platform's command menu."""
        return self._("Ask a question and get an answer with its sources")

    def help_command(self: _Speaker) -> str:
        """The help command's description in a platform's command menu."""
        return self._("How to ask citebot a question")

    def settings_command(self: _Speaker) -> str:
        """The settings command's description in a platform's command menu."""
        return self._("See and change citebot's settings here (admins)")

    def report_command(self: _Speaker) -> str:
        """The report command's description in a platform's command menu."""
        return self._("What was asked here and how it went (admins)")

    def forget_me_command(self: _Speaker) -> str:
        """The forget-me command's description in a platform's command menu."""
        return self._("Delete everything citebot keeps about you")
