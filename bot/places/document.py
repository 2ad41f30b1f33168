"""The settings document ``citebot settings export`` prints and ``import`` reads: a JSON object of
places, each an object of its settings and their values as the command line writes them::

    {"discord:81384788765712384": {"language": "fr", "daily_questions": "30"},
     "slack:T0123ABC/C0456DEF": {"enabled": "off"}}

A hand-written file may also give a count as a number and a switch as ``true``/``false``.
"""

from __future__ import annotations

import json

from bot.places.keys import check_key, check_value
from bot.places.place import Place, PlaceForms
from bot.places.refused import SettingRefused

__all__ = ["checked_document"]


def checked_document(document: object, forms: PlaceForms) -> dict[Place, dict[str, str]]:
    """Each place of ``document`` (written in one of ``forms``) with its settings' written
    values, every entry checked; :class:`SettingRefused` naming the first that is not right
    (``$["discord:1"]`` where the document is not shaped right)."""
    if not isinstance(document, dict):
        raise _misshapen("$")
    checked: dict[Place, dict[str, str]] = {}
    for place_text, keys in document.items():
        place = forms.parse(str(place_text))
        where = f"$[{json.dumps(place_text, ensure_ascii=False)}]"
        if not isinstance(keys, dict):
            raise _misshapen(where)
        settings = checked.setdefault(place, {})
        for name, value in keys.items():
            if isinstance(value, bool):
                text = "on" if value else "off"
            elif isinstance(value, int | str):
                text = str(value)
            else:
                raise _misshapen(f"{where}[{json.dumps(name, ensure_ascii=False)}]")
            try:
                key = check_key(str(name))
                settings[key.name] = check_value(key, text)
            except SettingRefused as refused:
                raise refused.at(str(place)) from None
    return checked


def _misshapen(where: str) -> SettingRefused:
    return SettingRefused(lambda wording: wording.not_a_settings_document(where))
