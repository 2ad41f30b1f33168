"""The Discord payloads citebot builds, typed once (as discord.py keeps ``discord/types/``), and
the values every message body carries."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

__all__ = [
    "EDIT_FLAGS",
    "EPHEMERAL",
    "NO_MENTIONS",
    "SUPPRESS_EMBEDS",
    "ActionRow",
    "Button",
    "Embed",
    "EmbedAuthor",
    "EmbedField",
    "EmbedFooter",
]

NO_MENTIONS: dict[str, list[str]] = {"parse": []}
"""``allowed_mentions`` on every create and edit: nothing the bot posts may ping anyone."""
SUPPRESS_EMBEDS = 4
"""Message flag: no link previews under an answer."""
EPHEMERAL = 64
"""Message flag: only the asker sees it (set on creation only)."""
EDIT_FLAGS = SUPPRESS_EMBEDS | 32768
"""The flags an edit may set: SUPPRESS_EMBEDS and IS_COMPONENTS_V2 (Discord's Edit Message
and Edit Webhook Message docs)."""


class EmbedAuthor(TypedDict):
    name: str


class EmbedFooter(TypedDict):
    text: str


class EmbedField(TypedDict):
    name: str
    value: str
    inline: bool


class Embed(TypedDict):
    title: str
    url: NotRequired[str]
    author: NotRequired[EmbedAuthor]
    description: NotRequired[str]
    fields: NotRequired[list[EmbedField]]
    footer: NotRequired[EmbedFooter]


class Emoji(TypedDict):
    name: str


class Button(TypedDict):
    type: Literal[2]
    style: Literal[2]
    custom_id: str
    label: NotRequired[str]
    emoji: NotRequired[Emoji]


class ActionRow(TypedDict):
    type: Literal[1]
    components: list[Button]
