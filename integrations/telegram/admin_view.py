"""What ``/settings`` shows a group's admin, in their language: the settings in effect in the
group and where each comes from, buttons for what is on or off and for the language, and the
history of changes.

Settings are named as the command line names them (``daily_questions``), so what an admin
reads is what ``/settings set`` and an operator type. A button carries only the setting and
the value it sets (``st:enabled=off``, well within ``callback_data``'s 64 bytes): the group and
the admin are read again from the press. ``private_by_default`` means nothing on Telegram (an
answer in a group is the group's) and is not shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.adapter import KEYS, PlaceSettings, SettingChange, Value, as_changed, value_as_said
from bot.i18n.wording import LANGUAGES, Wording, language_name
from bot.render.text import clip
from integrations.telegram.chatting import keyboard
from integrations.telegram.limits import TEXT
from integrations.telegram.markdown import TelegramHTML
from integrations.telegram.words import settings_how_to

__all__ = [
    "SETTING",
    "TELEGRAM_KEYS",
    "history_text",
    "pressed_setting",
    "settings_buttons",
    "settings_text",
    "shown",
]

SETTING = "st:"
"""``callback_data`` prefix of a setting's button: ``st:KEY=VALUE`` (an empty value: follow
the default again)."""
TELEGRAM_KEYS = tuple(key for key in KEYS if key != "private_by_default")
"""The settings a Telegram group has, in the order they are shown."""
_SWITCHES = tuple(key for key in TELEGRAM_KEYS if KEYS[key].kind == "switch")
_SHOWN_VALUE = 60
_LANGUAGES_A_ROW = 3
_HTML = TelegramHTML()


def shown(key: str, value: Value, words: Wording) -> str:
    """A setting's value as an admin reads it (``On``, ``Français``, ``30``, ``No limit``),
    escaped for HTML, its mentions inert."""
    said = clip(value_as_said(key, value, words), _SHOWN_VALUE)
    return _HTML.escape(said, line_start=False)


def settings_text(settings: PlaceSettings, words: Wording) -> str:
    """Every setting in effect in the group, its value, and where it is set."""
    labels, page = words.settings_labels, words.settings_page
    heads = f"{labels.setting} · {labels.value} · {labels.set_in}"
    lines = [
        f"<b>{_HTML.escape(page.title, line_start=False)}</b>",
        f"<i>{_HTML.escape(heads, line_start=False)}</i>",
    ]
    for key in TELEGRAM_KEYS:
        source = page.set_here if settings.set_in[key] is not None else labels.default
        label = _HTML.escape(words.setting_label(key), line_start=False)
        lines.append(
            f"• {label} (<code>{key}</code>): <b>{shown(key, getattr(settings, key), words)}</b>"
            f" · {_HTML.escape(source, line_start=False)}"
        )
    lines += ["", _HTML.escape(settings_how_to(words), line_start=True)]
    return "\n".join(lines)


def settings_buttons(settings: PlaceSettings, words: Wording, *, default: str) -> dict[str, Any]:
    """A button a switch (✅ on, ⬜ off: a press turns it over), and one a language (✓ the
    one in effect); where the group chose its language, one to follow ``default`` (the
    worker's) again."""
    rows: list[list[tuple[str, str]]] = []
    for key in _SWITCHES:
        on = bool(getattr(settings, key))
        mark = "✅" if on else "⬜"
        rows.append([(f"{mark} {words.setting_label(key)}", f"{SETTING}{key}={_flipped(on)}")])
    languages = [
        (("✓ " if language == settings.language else "") + language_name(language), language)
        for language in LANGUAGES
    ]
    for start in range(0, len(languages), _LANGUAGES_A_ROW):
        row = languages[start : start + _LANGUAGES_A_ROW]
        rows.append([(name, f"{SETTING}language={language}") for name, language in row])
    if settings.set_in["language"] is not None:
        rows.append([(words.follow_default(language_name(default)), f"{SETTING}language=")])
    return keyboard(rows)


def _flipped(on: bool) -> str:
    return "off" if on else "on"


def pressed_setting(data: str) -> tuple[str, str | None] | None:
    """The setting a button sets and its value (None: follow the default); None if the data
    is not one :func:`settings_buttons` makes (callback data can be forged)."""
    key, equals, value = data.removeprefix(SETTING).partition("=")
    if not data.startswith(SETTING) or not equals:
        return None
    if key in _SWITCHES and value in ("on", "off"):
        return key, value
    if key == "language" and (value in LANGUAGES or not value):
        return key, value or None
    return None


def history_text(changes: Sequence[SettingChange], words: Wording) -> str:
    """The changes, oldest first, the latest that fit one message: when (UTC), who (their
    Telegram id: a name would have to be looked up, and a mention pings), the setting,
    before → after."""
    if not changes:
        return _HTML.escape(words.no_setting_changes(), line_start=True)
    labels = words.settings_labels
    head = _HTML.escape(
        f"{labels.when} (UTC) · {labels.by} · {labels.setting}: {labels.before} → {labels.after}",
        line_start=True,
    )
    lines: list[str] = []
    room = TEXT - _HTML.length(head) - 1
    for change in reversed(changes):
        when = datetime.fromtimestamp(change.at, UTC).strftime("%Y-%m-%d %H:%M")
        line = (
            f"• {when} · <code>{_HTML.escape(change.by, line_start=False)}</code> · "
            f"<code>{change.key}</code>: {_written(change.key, change.old, words)} → "
            f"{_written(change.key, change.new, words)}"
        )
        if _HTML.length(line) + 1 > room:
            break
        lines.insert(0, line)
        room -= _HTML.length(line) + 1
    return "\n".join([f"<i>{head}</i>", *lines])


def _written(key: str, value: str | None, words: Wording) -> str:
    shown = as_changed(key, value)
    if shown is None:
        return _HTML.escape(words.settings_labels.not_set, line_start=False)
    return _HTML.escape(clip(shown, _SHOWN_VALUE), line_start=False)
