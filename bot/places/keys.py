"""The settings a place may change, each value as the command line writes it, and the values the
worker's environment gives a place that sets none.

A value is stored as its text (``on``, ``fr``, ``30``, ``none``), the one form the command line,
``export`` and the store share; :func:`check_value` turns what an admin wrote into it (``ON``,
``pt-BR`` and ``030`` are read too) and :func:`read_value` turns it into the value citebot uses.
Some values are only checked where they are set (:class:`Where`): whom ``handoff`` reaches is
written as the place's platform names it, and ``provider`` names one of the operator's
``UPSTREAM_PROFILES``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from bot.i18n.wording import LANGUAGES, Wording, catalogue_language, language_name, language_setting
from bot.places.refused import SettingRefused
from bot.upstream.trust import MOST_HOSTS, read_hosts, shown_host
from config import Settings
from config.environment import switch
from config.profiles import DEFAULT_PROVIDER

__all__ = [
    "DISCLAIMER_LIMIT",
    "KEYS",
    "MOST_A_DAY",
    "MOST_DOLLARS",
    "Key",
    "Value",
    "Where",
    "check_key",
    "check_value",
    "longest_written",
    "read_value",
    "value_as_said",
    "written",
]

Value = bool | str | int | Decimal | None
Kind = Literal["switch", "language", "count", "dollars", "text", "target", "hosts", "profile"]

DISCLAIMER_LIMIT = 200
"""Characters in a disclaimer: one short line under every answer."""
MOST_A_DAY = 1_000_000_000
"""The largest daily count a place may set (``daily_tokens`` needs millions)."""
MOST_DOLLARS = 1_000_000
"""The largest daily amount a place may set (``daily_cost``), in US dollars."""
HOSTS_WRITTEN = 1000
"""Characters of ``trusted_sources`` as an admin writes it: room for its most hosts."""
NONE = "none"
ADMINS = "admins"
"""``handoff``'s value for the place's own admins, where the platform can name them."""
_ANY_TARGET = re.compile(r"admins|[0-9]{1,20}|[A-Z][A-Z0-9]{2,30}")
"""Every platform's ``handoff`` together, for a value read back from the store."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Where:
    """What a value's check needs to know of where it is set; a field left None is not
    checked (a value read back from the store was checked when it was set)."""

    handoff: tuple[str, tuple[str, ...]] | None = None
    """The pattern of the place's platform's ``handoff`` targets and how they are written
    (``ROLE_ID``, ``admins``); :func:`bot.places.place.handoff_targets`."""
    profiles: Collection[str] | None = None
    """The names of the operator's ``UPSTREAM_PROFILES``."""


_DOLLARS = re.compile(r"\$?\s*(\d{1,7})(?:\.(\d{1,2}))?")
"""An amount as an admin writes it: ``5``, ``2.5``, ``$0.75`` (to the cent)."""


@dataclass(frozen=True, slots=True)
class Key:
    name: str
    kind: Kind
    default: Callable[[Settings], Value]
    """The value from the worker's environment (``config.Settings``)."""


KEYS: Mapping[str, Key] = {
    key.name: key
    for key in (
        Key("enabled", "switch", lambda settings: True),
        Key("language", "language", lambda settings: catalogue_language(settings.language) or "en"),
        Key("private_by_default", "switch", lambda settings: False),
        Key("follow_ups_without_mention", "switch", lambda settings: True),
        Key("auto_answer", "switch", lambda settings: False),
        Key("daily_questions", "count", lambda settings: None),
        Key("daily_questions_per_person", "count", lambda settings: None),
        Key("daily_tokens", "count", lambda settings: None),
        Key("daily_cost", "dollars", lambda settings: None),
        Key("quote_check", "switch", lambda settings: settings.quote_check),
        Key("disclaimer", "text", lambda settings: None),
        Key("handoff", "target", lambda settings: None),
        Key("trusted_sources", "hosts", lambda settings: None),
        Key("provider", "profile", lambda settings: None),
    )
}
"""Every setting, in the order they are shown."""


def longest_written(key: Key) -> int:
    """The most characters ``key``'s value is written in (a form's field takes no more): a
    disclaimer's line, a daily count's digits, a host list, a name or an id."""
    if key.kind == "text":
        return DISCLAIMER_LIMIT
    if key.kind == "count":
        return len(str(MOST_A_DAY))
    if key.kind == "hosts":
        return HOSTS_WRITTEN
    return 40


def check_key(name: str) -> Key:
    key = KEYS.get(name.strip().lower().replace("-", "_"))
    if key is None:
        written_key = name.strip()
        raise SettingRefused(lambda wording: wording.no_such_setting(written_key, tuple(KEYS)))
    return key


def check_value(key: Key, text: str, where: Where | None = None) -> str:
    """``text`` as the value's one written form; :class:`SettingRefused` naming the key and
    what it takes when it is not one (``where``: what the place it is set in allows)."""
    value = text.strip()
    got = _shown(value)
    if key.kind in ("target", "hosts", "profile"):
        return _checked_choice(key, value, where or Where())
    if key.kind == "switch":
        try:
            return written(bool(switch(value)))
        except ValueError:
            raise SettingRefused(lambda wording: wording.setting_on_or_off(key.name, got)) from None
    if key.kind == "language":
        try:
            return language_setting(value)
        except ValueError:
            raise SettingRefused(
                lambda wording: wording.setting_one_of(key.name, LANGUAGES, got)
            ) from None
    if key.kind == "count":
        if value.lower() == NONE:
            return NONE
        if not (value.isascii() and value.isdigit() and 1 <= int(value) <= MOST_A_DAY):
            raise SettingRefused(lambda wording: wording.setting_count(key.name, MOST_A_DAY, got))
        return str(int(value))
    if key.kind == "dollars":
        return _dollars(key, value, got)
    if not value or value.lower() == NONE:
        return NONE
    if any(unicodedata.category(character) in ("Cc", "Zl", "Zp") for character in value):
        raise SettingRefused(lambda wording: wording.setting_one_line(key.name))
    if len(value) > DISCLAIMER_LIMIT:
        length = len(value)
        raise SettingRefused(
            lambda wording: wording.setting_too_long(key.name, DISCLAIMER_LIMIT, length)
        )
    return value


def _checked_choice(key: Key, value: str, where: Where) -> str:
    """A ``handoff`` target, ``trusted_sources`` or a ``provider``."""
    got = _shown(value)
    if not value or value.lower() == NONE:
        return NONE
    if key.kind == "hosts":
        try:
            return ", ".join(shown_host(host) for host in read_hosts(value))
        except ValueError:
            raise SettingRefused(
                lambda wording: wording.setting_hosts(key.name, MOST_HOSTS, got)
            ) from None
    if key.kind == "profile":
        name = value.lower()
        names = where.profiles
        if names is None or name == DEFAULT_PROVIDER or name in names:
            return name
        choices = (*sorted(names), DEFAULT_PROVIDER)
        raise SettingRefused(lambda wording: wording.setting_one_of(key.name, choices, got))
    target = ADMINS if value.lower() == ADMINS else value.upper()
    pattern, forms = where.handoff or (_ANY_TARGET.pattern, ())
    if not re.fullmatch(pattern, target):
        choices = (*forms, NONE)
        raise SettingRefused(lambda wording: wording.setting_one_of(key.name, choices, got))
    return target


def read_value(key: Key, text: str) -> Value:
    """The value a stored text stands for; :class:`SettingRefused` if it no longer is one (a
    catalogue that stopped shipping)."""
    value = check_value(key, text)
    if key.kind == "switch":
        return value == "on"
    if value == NONE or (key.kind == "profile" and value == DEFAULT_PROVIDER):
        return None
    if key.kind == "count":
        return int(value)
    if key.kind == "dollars":
        return Decimal(value)
    return value


def _dollars(key: Key, value: str, got: str) -> str:
    """An amount to the cent, written with two decimals (``5`` is ``5.00``)."""
    if value.lower() == NONE:
        return NONE
    match = _DOLLARS.fullmatch(value) if value.isascii() else None
    amount = Decimal(f"{match[1]}.{match[2] or 0}") if match else Decimal(0)
    if not Decimal("0.01") <= amount <= MOST_DOLLARS:
        raise SettingRefused(lambda wording: wording.setting_dollars(key.name, MOST_DOLLARS, got))
    return f"{amount:.2f}"


def written(value: Value) -> str:
    """A value as the command line writes it: ``on``/``off``, ``none``, the number, the text."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return NONE if value is None else str(value)


def _shown(value: str) -> str:
    """What an admin wrote, quoted in a refusal: short, on one line."""
    shown = value if len(value) <= 40 else value[:39] + "…"
    return repr(shown)


def value_as_said(key: str, value: Value, words: Wording) -> str:
    """A setting's value as an admin reads it, in plain text (``On``, ``Français``, ``30``,
    ``No limit``): each platform's settings page says it so, in its own markup."""
    labels = words.settings_page
    kind = KEYS[key].kind
    if kind == "switch":
        return labels.on if value else labels.off
    if kind == "language":
        return language_name(str(value))
    if value is None:
        if kind == "profile":
            return DEFAULT_PROVIDER
        return labels.no_limit if kind in ("count", "dollars") else labels.none
    if isinstance(value, Decimal):
        return words.dollars(value)
    return words.number(value) if isinstance(value, int) else str(value)
