"""A place's effective settings: its channel's over its server's over the worker's environment."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Any, cast

from bot.places.keys import KEYS, Value, read_value
from bot.places.place import Place
from bot.places.refused import SettingRefused
from bot.upstream.trust import TrustedSources
from config import Settings

__all__ = ["PlaceSettings", "layered"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceSettings:
    """Every setting's value in one place, and where each came from."""

    enabled: bool
    """Whether citebot answers here (the environment's allowlists stay the outer fence)."""
    language: str
    """A catalogue (``fr``, ``pt_BR``): citebot's words and the language asked of the upstream,
    for askers whose own language is unknown or has no catalogue."""
    private_by_default: bool
    follow_ups_without_mention: bool
    auto_answer: bool
    daily_questions: int | None
    """Questions this place may ask a UTC day; None: no limit."""
    daily_questions_per_person: int | None
    daily_tokens: int | None
    """Upstream tokens this place's answers may use a UTC day, the system's included."""
    daily_cost: Decimal | None
    """US dollars this place's answers may cost a UTC day; None: no limit."""
    quote_check: bool
    disclaimer: str | None
    """The admin's line under every answer; platforms neutralise its mentions when showing it."""
    handoff: str | None
    """Whom "Ask a person" reaches here, as the platform names it (a role or user group id, a
    person's id, ``admins``); None: no such button."""
    trusted_sources: str | None
    """The hosts this place trusts, comma-separated (:attr:`trusted`); None: no mark on any
    card."""
    provider: str | None
    """The operator's ``UPSTREAM_PROFILES`` entry its questions go to; None: the default
    upstream."""

    @property
    def trusted(self) -> TrustedSources | None:
        """The hosts :attr:`trusted_sources` names; None where the place names none."""
        if self.trusted_sources is None:
            return None
        return TrustedSources.of(self.trusted_sources.split(","))

    set_in: Mapping[str, Place | None]
    """Setting -> the place that set it (this channel or its server), None for the default."""


def layered(
    place: Place | None, found: Mapping[str, Mapping[str, str]], defaults: Settings
) -> PlaceSettings:
    """``place``'s settings from the stored keys of it and its server (``found``, by place
    text), over ``defaults``. A stored value that no longer reads (a catalogue citebot stopped
    shipping) is passed over, and logged."""
    layers = [] if place is None else list(dict.fromkeys([place, place.server_place]))
    stored = [(layer, found.get(str(layer), {})) for layer in layers]
    values: dict[str, Value] = {}
    set_in: dict[str, Place | None] = {}
    for name, key in KEYS.items():
        values[name], set_in[name] = key.default(defaults), None
        for layer, keys in stored:
            text = keys.get(name)
            if text is None:
                continue
            try:
                values[name], set_in[name] = read_value(key, text), layer
            except SettingRefused as refused:
                log.warning("a stored setting is passed over: %s: %s", layer, refused)
                continue
            break
    # each value is its key's kind (read_value, or the key's default): the fields' types
    return PlaceSettings(**cast("dict[str, Any]", values), set_in=MappingProxyType(set_in))
