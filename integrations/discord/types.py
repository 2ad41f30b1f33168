"""The Discord payloads citebot builds, typed once (as discord.py keeps ``discord/types/``), and
the values every message body carries."""

from __future__ import annotations

from enum import IntEnum
from typing import Literal, NotRequired, TypedDict

__all__ = [
    "EDIT_FLAGS",
    "EPHEMERAL",
    "NO_MENTIONS",
    "SUPPRESS_EMBEDS",
    "ActionRow",
    "Button",
    "CallbackType",
    "Embed",
    "EmbedAuthor",
    "EmbedField",
    "EmbedFooter",
    "Label",
    "Modal",
    "RadioGroup",
    "RadioOption",
    "SelectOption",
    "SelectRow",
    "StringSelect",
    "TextInput",
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
    style: Literal[1, 2, 4]
    """1: primary (blurple), for "Ask a person"; 2: secondary (grey); 4: danger (red), for
    what cannot be undone."""
    custom_id: str
    label: NotRequired[str]
    emoji: NotRequired[Emoji]


class ActionRow(TypedDict):
    type: Literal[1]
    components: list[Button]


class SelectOption(TypedDict):
    label: str
    value: str
    description: NotRequired[str]
    default: NotRequired[bool]


class StringSelect(TypedDict):
    type: Literal[3]
    custom_id: str
    options: list[SelectOption]
    placeholder: NotRequired[str]


class SelectRow(TypedDict):
    type: Literal[1]
    components: list[StringSelect]


class TextInput(TypedDict):
    type: Literal[4]
    custom_id: str
    style: Literal[1, 2]
    """1: one line; 2: a paragraph."""
    required: bool
    max_length: int
    value: NotRequired[str]


class RadioOption(TypedDict):
    value: str
    label: str


class RadioGroup(TypedDict):
    type: Literal[21]
    custom_id: str
    options: list[RadioOption]
    required: bool


class Label(TypedDict):
    """A modal's field: its label and the one component it names (components/reference.mdx)."""

    type: Literal[18]
    label: str
    component: TextInput | RadioGroup
    description: NotRequired[str]


class Modal(TypedDict):
    custom_id: str
    title: str
    components: list[Label]


class CallbackType(IntEnum):
    """The interaction callback types citebot answers with (receiving-and-responding.mdx)."""

    MESSAGE = 4
    DEFERRED_MESSAGE = 5
    DEFERRED_UPDATE = 6
    UPDATE = 7
    MODAL = 9
