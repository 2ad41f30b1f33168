"""What ``/citebot settings`` shows an admin, in their language: the settings in effect and
where each was set, the history of changes, a select menu of a setting's choices, a modal for a
value to write (a daily limit, the disclaimer).

Settings are named as the command line names them (``language``, ``daily_questions``) and their
values written as it writes them (``on``, ``fr``, ``30``, ``none``), so what an admin sees here is
what an operator types. Each menu and modal carries in its ``custom_id`` which setting it sets
and whose (the server's or the channel's where it was opened), and nothing else: the guild, the
channel and the admin are read again from the interaction that answers it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from bot.adapter import (
    KEYS,
    PlaceSettings,
    SettingChange,
    as_changed,
    longest_written,
    written,
)
from bot.i18n.wording import LANGUAGES, Wording, language_name
from bot.render.ports import Payload
from bot.render.text import clip
from integrations.discord import limits
from integrations.discord.markdown import DiscordMarkdown
from integrations.discord.types import Label, Modal, SelectOption, SelectRow, TextInput

__all__ = [
    "SET",
    "Where",
    "by_menu",
    "history_listing",
    "setting_target",
    "settings_listing",
    "value_menu",
    "value_modal",
]

Where = Literal["server", "channel"]
"""Whose settings: the server's, or the channel's where the command is run."""

SET = "citebot:set:"
"""``custom_id`` prefix of a setting's menu and modal: ``citebot:set:{where}:{setting}``."""
VALUE = "value"
"""The ``custom_id`` of a modal's one text input."""
_SHOWN_VALUE = 60
_MARKDOWN = DiscordMarkdown()

Names = Callable[[str | None], str]
"""A place's name as an admin reads it (a stored place's text; None: the default)."""


def setting_target(custom_id: str) -> tuple[Where, str] | None:
    """Whose setting and which, from a menu's or modal's ``custom_id``; None if not one."""
    where, _, key = custom_id.removeprefix(SET).partition(":")
    if not custom_id.startswith(SET) or where not in ("server", "channel") or key not in KEYS:
        return None
    return ("server" if where == "server" else "channel"), key


def by_menu(key: str) -> bool:
    """Whether a setting is chosen in a select menu (its values are a short list); the others
    are written in a modal."""
    return KEYS[key].kind in ("switch", "language")


def shown_value(value: str | None, wording: Wording) -> str:
    """A setting's written value as a line shows it: escaped, mentions inert, short."""
    if value is None:
        return wording.settings_labels.not_set
    return _MARKDOWN.escape(clip(value, _SHOWN_VALUE), line_start=False)


def settings_listing(settings: PlaceSettings, where: str, names: Names, wording: Wording) -> str:
    """Every setting in effect at ``where`` (a place's name), its value, and where it is set."""
    labels = wording.settings_labels
    lines = [
        f"**{where}**",
        f"-# {labels.setting} · {labels.value} · {labels.set_in}",
    ]
    for key in KEYS:
        value = written(getattr(settings, key))
        source = settings.set_in[key]
        lines.append(
            f"- `{key}` **{shown_value(value, wording)}** · "
            + names(None if source is None else str(source))
        )
    return "\n".join(lines)


def history_listing(changes: Sequence[SettingChange], names: Names, wording: Wording) -> str:
    """The changes, oldest first, the latest that fit in one message: when (in the reader's own
    time zone and format), who, where, the setting, before → after."""
    if not changes:
        return _MARKDOWN.escape(wording.no_setting_changes(), line_start=True)
    labels = wording.settings_labels
    head = (
        f"-# {labels.when} · {labels.by} · {labels.place} · "
        f"{labels.setting}: {labels.before} → {labels.after}"
    )
    lines: list[str] = []
    room = limits.CONTENT - len(head) - 1
    for change in reversed(changes):
        who = (
            f"<@{change.by}>"
            if change.by.isdigit()
            else _MARKDOWN.escape(change.by, line_start=False)
        )
        line = (
            f"- <t:{int(change.at)}:f> · {who} · {names(change.place)} · `{change.key}`: "
            f"{shown_value(as_changed(change.key, change.old), wording)} → "
            f"{shown_value(as_changed(change.key, change.new), wording)}"
        )
        if len(line) + 1 > room:
            break
        lines.insert(0, line)
        room -= len(line) + 1
    return "\n".join([head, *lines])


def _options(key: str, current: str) -> list[SelectOption]:
    choices: list[tuple[str, str, str | None]]
    if KEYS[key].kind == "switch":
        choices = [(value, value, None) for value in ("on", "off")]
    else:
        choices = [(language, language_name(language), language) for language in LANGUAGES]
    options: list[SelectOption] = []
    for value, label, description in choices:
        option: SelectOption = {"label": label, "value": value}
        if description is not None:
            option["description"] = description
        if value == current:
            option["default"] = True
        options.append(option)
    return options


def value_menu(key: str, where: Where, current: str, place: str, wording: Wording) -> Payload:
    """A message with a select menu of ``key``'s values, the ``current`` one chosen, for the
    setting of ``place`` (its name)."""
    row: SelectRow = {
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": f"{SET}{where}:{key}",
                "options": _options(key, current),
                "placeholder": clip(wording.settings_labels.value, 150),
            }
        ],
    }
    return {"content": f"`{key}` · {place}", "components": [row]}


def value_modal(key: str, where: Where, current: str | None, wording: Wording) -> Modal:
    """A modal to write ``key``'s value (a daily count, the disclaimer, a role, hosts, a
    provider's name), ``current`` filled in; left empty it is ``none``."""
    field: TextInput = {
        "type": 4,
        "custom_id": VALUE,
        "style": 1,
        "required": False,
        "max_length": longest_written(KEYS[key]),
    }
    if current is not None and current != "none":
        field["value"] = current
    label: Label = {
        "type": 18,
        "label": clip(wording.settings_labels.value, 45),
        "component": field,
    }
    return {"custom_id": f"{SET}{where}:{key}", "title": key, "components": [label]}
