"""What only Telegram says: how its own commands are written (``/check`` in reply,
``/settings set KEY VALUE``), sentences that mean nothing on another platform, so they live
with Telegram and are extracted for Telegram alone
(:meth:`~bot.i18n.wording.Wording.here_on`)."""

from __future__ import annotations

from bot.i18n.wording import Wording

__all__ = ["check_how_to", "settings_how_to"]


def check_how_to(words: Wording) -> str:
    """``/check`` sent alone, not in reply to the message to check."""
    return words.here_on(
        "telegram", "Reply to a message with /check to check what it says against the sources."
    )


def settings_how_to(words: Wording) -> str:
    """Under the settings listing: what its buttons do not change, and how."""
    return words.here_on(
        "telegram",
        "To change a number or the disclaimer: /settings set KEY VALUE. To follow the default "
        "again: /settings unset KEY. Who changed what: /settings history.",
    )
