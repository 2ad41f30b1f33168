"""The settings document ``citebot settings export`` prints and ``import`` reads: a JSON object of
places, each an object of its settings and their values as the command line writes them, and
its own answers (:mod:`bot.places.own`) under ``answers``::

    {"discord:81384788765712384": {"language": "fr", "daily_questions": "30",
                                   "answers": [{"id": "k3x9qa", "question": "When is Mass?",
                                                "answer": "Sundays at 10.", "by": "1234",
                                                "name": "Anna", "at": 1764000000.0}]},
     "slack:T0123ABC/C0456DEF": {"enabled": "off"}}

A hand-written file may also give a count as a number and a switch as ``true``/``false``.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from bot.places.keys import Where, check_key, check_value
from bot.places.own import checked_own_answers
from bot.places.place import Place, parse_place
from bot.places.refused import SettingRefused, misshapen

__all__ = ["checked_document"]


def checked_document(
    document: object, allowed: Callable[[Place], Where]
) -> dict[Place, dict[str, str]]:
    """Each place of ``document`` with its settings' written values, every entry checked
    (as ``allowed`` says values set in that place may be); :class:`SettingRefused` naming the
    first that is not right (``$["discord:1"]`` where the document is not shaped right)."""
    if not isinstance(document, dict):
        raise misshapen("$")
    checked: dict[Place, dict[str, str]] = {}
    for place_text, keys in document.items():
        place = parse_place(str(place_text))
        where = f"$[{json.dumps(place_text, ensure_ascii=False)}]"
        if not isinstance(keys, dict):
            raise misshapen(where)
        settings = checked.setdefault(place, {})
        for name, value in keys.items():
            if name == "answers":
                language = str(keys.get("language") or "en")
                settings.update(checked_own_answers(value, where=where, language=language))
                continue
            if isinstance(value, bool):
                text = "on" if value else "off"
            elif isinstance(value, int | str):
                text = str(value)
            else:
                raise misshapen(f"{where}[{json.dumps(name, ensure_ascii=False)}]")
            try:
                key = check_key(str(name))
                settings[key.name] = check_value(key, text, allowed(place))
            except SettingRefused as refused:
                raise refused.at(str(place)) from None
    return checked
