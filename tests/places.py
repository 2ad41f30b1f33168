"""A place as the tests write it (``at("discord:1/2")``), read with every registered platform's
forms as ``citebot settings`` reads it."""

from __future__ import annotations

from bot.places import Place
from bot.platforms import place_forms

__all__ = ["at"]


def at(text: str) -> Place:
    return place_forms().parse(text)
