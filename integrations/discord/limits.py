"""Discord's limits, in one place: the card and message builders keep to them, the sinks name
them, the tests check every payload against them. From Discord's API reference (Message
Resource, Embed Limits; Message Components; Channel: Start Thread) and the official OpenAPI
description (``RichEmbed``)."""

from __future__ import annotations

__all__ = [
    "BUTTONS_PER_ROW",
    "BUTTON_LABEL",
    "CONTENT",
    "CUSTOM_ID",
    "EMBEDS",
    "EMBED_AUTHOR",
    "EMBED_DESCRIPTION",
    "EMBED_FIELDS",
    "EMBED_FIELD_NAME",
    "EMBED_FIELD_VALUE",
    "EMBED_FOOTER",
    "EMBED_TITLE",
    "EMBED_TOTAL",
    "EMBED_URL",
    "ROWS",
    "THREAD_NAME",
]

CONTENT = 2000
"""Characters of a message's ``content``."""
EMBEDS = 10
"""Embeds in one message."""
EMBED_TOTAL = 6000
"""Characters across every embed of a message (title, description, author, footer, fields)."""
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_URL = 2048
ROWS = 5
"""Action rows in a message."""
BUTTONS_PER_ROW = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
THREAD_NAME = 100
