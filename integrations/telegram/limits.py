"""Telegram's limits, in one place: the presenter, the cards and the sink keep to them, the tests
check every payload against them. From the Bot API 10.1 (``api.json``'s descriptions, the "Rich
message formatting options") and Telegram's own server (tdlib: lengths are characters after
entities are parsed)."""

from __future__ import annotations

__all__ = [
    "CALLBACK_DATA",
    "CALLBACK_TEXT",
    "COMMAND_DESCRIPTION",
    "LINK",
    "RICH_BLOCKS",
    "RICH_TEXT",
    "TEXT",
]

TEXT = 4096
"""Characters of a message's (or a draft's) text after entities parsing."""
CALLBACK_DATA = 64
"""Bytes of a button's ``callback_data``."""
CALLBACK_TEXT = 200
"""Characters of the notification ``answerCallbackQuery`` shows."""
COMMAND_DESCRIPTION = 256
"""Characters of a command's description in ``setMyCommands``."""
RICH_TEXT = 32768
"""Characters of all the texts of a rich message."""
RICH_BLOCKS = 500
"""Blocks of a rich message, nested ones, list items and quotations counted."""
LINK = 2048
"""Characters of a link's URL citebot writes: Telegram documents none, and a longer URL is no
address a person follows (Discord's limit, for one rule across platforms)."""
