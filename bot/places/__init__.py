"""Places and their settings: what a community's admins change about citebot in their own
server, workspace, group or channel, over what the worker's environment sets.

``Places`` is what the service holds (``await places.effective("discord", guild_id,
channel_id)``, ``await places.set(Place("discord", "1", "2"), "language", "fr", by=user_id)``);
the keys, their values and defaults are in :mod:`bot.places.keys`, the places in
:mod:`bot.places.place`, the operators' ``citebot settings`` in :mod:`bot.places.cli`.
"""

from __future__ import annotations

from bot.places.keys import DISCLAIMER_LIMIT, KEYS, MOST_A_DAY, MOST_DOLLARS, Key, Value
from bot.places.place import Place, PlaceForms, PlaceIds
from bot.places.refused import SettingRefused
from bot.places.resolver import CACHE_TTL, DailyQuota, Places
from bot.places.settings import PlaceSettings

__all__ = [
    "CACHE_TTL",
    "DISCLAIMER_LIMIT",
    "KEYS",
    "MOST_A_DAY",
    "MOST_DOLLARS",
    "DailyQuota",
    "Key",
    "Place",
    "PlaceForms",
    "PlaceIds",
    "PlaceSettings",
    "Places",
    "SettingRefused",
    "Value",
]
