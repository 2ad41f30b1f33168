"""The settings document ``citebot settings export`` prints and ``import`` reads: a JSON object of
places, each an object of its settings and their values as the command line writes them, and
its own answers (:mod:`bot.places.own`) under ``answers``::

    {"discord:81384788765712384": {"language": "fr", "daily_questions": "30",
                                   "answers": [{"id": "k3x9qa", "question": "When is Mass?",
                                                "answer": "Sundays at 10.", "by": "1234",
                                                "name": "Anna", "at": 1764000000.0}]},
     "slack:T0123ABC/C0456DEF": {"enabled": "off"}}

A hand-written file may also give a count as a number and a switch as ``true``/``false``.
A file is read within limits (:func:`parsed_document`): a document of every place's settings is
a few megabytes at most, and nested two deep.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from bot.places.keys import Where, check_key, check_value
from bot.places.own import checked_own_answers
from bot.places.place import Place, PlaceForms
from bot.places.refused import SettingRefused, misshapen, not_a_document

__all__ = ["MAX_DEPTH", "MAX_DOCUMENT_BYTES", "checked_document", "parsed_document"]

MAX_DOCUMENT_BYTES = 16 * 1024 * 1024
"""The largest settings document read: some 80,000 places of settings (export's are ~200 bytes
a place), so a file any larger is not one, and is refused before it is parsed."""
MAX_DEPTH = 8
"""The deepest nesting read (a document is two deep): JSON's parser recurses, and a file of a
hundred thousand ``[`` would otherwise end in a traceback; deeper, it is refused unparsed."""
_NESTING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)
"""A JSON string whole (its brackets are not nesting), or a bracket."""


def parsed_document(data: bytes) -> object:
    """The JSON in ``data`` (at most :data:`MAX_DOCUMENT_BYTES`, read by the caller with one
    byte more); :class:`SettingRefused` when it is larger, nested deeper than
    :data:`MAX_DEPTH`, not UTF-8 or not JSON."""
    if len(data) > MAX_DOCUMENT_BYTES:
        mib = MAX_DOCUMENT_BYTES // (1024 * 1024)
        raise not_a_document(lambda wording: wording.document_larger_than(mib))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _unreadable(error) from None
    if _deeper_than(text, MAX_DEPTH):
        raise not_a_document(lambda wording: wording.document_deeper_than(MAX_DEPTH))
    try:
        return json.loads(text)
    except ValueError as error:
        raise _unreadable(error) from None


def _deeper_than(text: str, most: int) -> bool:
    """Whether ``text`` nests arrays and objects more than ``most`` deep, in one pass."""
    depth = 0
    for match in _NESTING.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > most:
                return True
        elif token in "]}":
            depth -= 1
    return False


def checked_document(
    document: object, forms: PlaceForms, allowed: Callable[[Place], Where]
) -> dict[Place, dict[str, str]]:
    """Each place of ``document`` (written in one of ``forms``) with its settings' written
    values, every entry checked (as ``allowed`` says values set in that place may be);
    :class:`SettingRefused` naming the first that is not right (``$["discord:1"]`` where the
    document is not shaped right)."""
    if not isinstance(document, dict):
        raise misshapen("$")
    checked: dict[Place, dict[str, str]] = {}
    for place_text, keys in document.items():
        place = forms.parse(str(place_text))
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


def _unreadable(error: ValueError) -> SettingRefused:
    """Not UTF-8, or not JSON: said as the decoder says it."""
    detail = str(error)
    return not_a_document(lambda wording: detail)
