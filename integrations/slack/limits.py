"""Slack's limits, in one place: the card and message builders keep to them, the sinks name
them, the tests check every payload against them. From Slack's Block Kit reference, the
chat.postMessage page and what other projects observed (PLATFORM-NOTES)."""

from __future__ import annotations

__all__ = [
    "BLOCKS",
    "BUTTON_TEXT",
    "BUTTON_VALUE",
    "LINK",
    "MARKDOWN",
    "PAYLOAD_BUDGET",
    "SECTION_TEXT",
    "TEXT",
]

TEXT = 4000
"""Characters of a message's ``text`` (msg_too_long is observed from about 4,000)."""
BLOCKS = 50
"""Blocks in one message."""
SECTION_TEXT = 3000
MARKDOWN = 12000
"""Characters of ``markdown_text``, and of every markdown block of a message together."""
BUTTON_TEXT = 75
BUTTON_VALUE = 2000
LINK = 3000
"""Characters of a link's URL, in mrkdwn, Markdown or a button (as a button's ``url``)."""
PAYLOAD_BUDGET = 11000
"""Characters of block JSON a thread message carries: whole payloads fail around 13,000."""
