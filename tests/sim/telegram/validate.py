"""Every request checked against ``api.json``: the method's fields and nothing else, the
required ones present, each value of its declared type all the way down, within the limits and
among the values the descriptions write.

Types are the spec's strings: ``Integer``, ``Float``, ``Boolean``, ``String``, ``InputFile``,
``Array of X``, a type by name (checked field by field, recursively), an abstract type (the union
of its ``subtypes``: ``RichText`` is a ``String``, an ``Array of RichText`` or one of its object
types), and a field with several types (``Integer or String``, ``InlineKeyboardMarkup or
ReplyKeyboardMarkup or ...``, ``InputFile or String``) takes any of them. A form's value is a
string, decoded as the field's type asks (``"12"``, ``"true"``, JSON for objects and arrays).

The simulator is stricter than Telegram on purpose: Telegram ignores a parameter it does not
know, reads a malformed number as 0 and takes a JSON number where a string is asked; here all
three are refused, so a typo or a deprecated name (``reply_to_message_id``) fails the test that
sent it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from tests.sim.telegram.limits import choices, limits
from tests.sim.telegram.params import Params
from tests.sim.telegram.spec import Field, Method, fields_of, is_object_type, subtypes

__all__ = ["Checked", "check_object", "check_request"]

_INTEGER = re.compile(r"-?\d+")
_TRUE, _FALSE = {"true", "1", "yes"}, {"false", "0", "no"}
_ABSENT = object()


@dataclass
class Checked:
    """The decoded values (JSON types) and what was wrong, one line per problem."""

    values: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def check_request(method: Method, params: Params) -> Checked:
    checked = Checked()
    known = {f.name for f in method.fields}
    for name in params.values:
        if name not in known:
            checked.problems.append(f"{method.name}: unknown parameter {name!r}")
    for spec in method.fields:
        raw = params.values.get(spec.name, _ABSENT)
        if raw is _ABSENT and spec.name in params.files and "InputFile" in spec.types:
            checked.values[spec.name] = f"attach://{spec.name}"
            continue
        if raw is _ABSENT or (params.from_form and raw == "" and not spec.required):
            if spec.required:
                checked.problems.append(f"{spec.where}: required parameter is missing")
            continue
        value, problems = _top(spec, raw, params)
        checked.problems.extend(problems)
        checked.values[spec.name] = value
    return checked


def check_object(value: Any, type_name: str) -> list[str]:
    """What is wrong with ``value`` as the spec's ``type_name`` (the simulator checks its own
    answers and updates with this)."""
    return _value(value, (type_name,), type_name, Params(values={}, encoding="json"))


def _top(spec: Field, raw: Any, params: Params) -> tuple[Any, list[str]]:
    """A top-level parameter: a form's string decoded first, then checked as JSON."""
    if params.from_form or isinstance(raw, str):
        decoded = _decode_string(raw if isinstance(raw, str) else json.dumps(raw), spec.types)
        if decoded is _ABSENT:
            return raw, [f"{spec.where}: {raw!r} is not {_names(spec.types)}"]
        raw = decoded
    problems = _value(raw, spec.types, spec.where, params)
    problems.extend(_field_rules(spec, raw))
    return raw, problems


def _decode_string(text: str, types: tuple[str, ...]) -> Any:
    """What a string parameter means for the field's types (``_ABSENT``: nothing)."""
    for kind in types:
        if kind == "Integer" and _INTEGER.fullmatch(text.strip()):
            return int(text)
        if kind == "Float":
            try:
                return float(text)
            except ValueError:
                continue
        if kind == "Boolean" and text.strip().lower() in _TRUE | _FALSE:
            return text.strip().lower() in _TRUE
        if kind.startswith("Array of") or is_object_type(kind):
            try:
                return json.loads(text)
            except ValueError:
                continue
    if any(kind in ("String", "InputFile") for kind in types):
        return text
    return _ABSENT


def _names(types: tuple[str, ...]) -> str:
    return " or ".join(types)


def _value(value: Any, types: tuple[str, ...], path: str, params: Params) -> list[str]:
    """Problems of ``value`` against the first of ``types`` it fits best (none: it fits). An
    object whose ``type`` names one of several object types ("always \"bold\"") is checked
    against that one."""
    if isinstance(value, dict) and "type" in value and len(types) > 1:
        tags = {kind: _tag(kind) for kind in types}
        named = tuple(kind for kind, tag in tags.items() if tag == value["type"])
        if not named and any(tags.values()):
            allowed = ", ".join(tag for tag in tags.values() if tag)
            return [f"{path}.type: {value['type']!r} is not one of {allowed}"]
        types = named or types
    best: list[str] | None = None
    for kind in types:
        problems = _one(value, kind, path, params)
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    return best or [f"{path}: not {_names(types)}"]


def _tag(kind: str) -> str | None:
    """The value an object type's ``type`` field always has, if it has one."""
    if not is_object_type(kind) or subtypes(kind):
        return None
    tag = next((f for f in fields_of(kind) if f.name == "type"), None)
    allowed = choices(tag) if tag is not None else ()
    return allowed[0] if len(allowed) == 1 else None


def _one(value: Any, kind: str, path: str, params: Params) -> list[str]:
    if kind.startswith("Array of "):
        if not isinstance(value, list):
            return [f"{path}: expected {kind}, got {_json_type(value)}"]
        inner = (kind.removeprefix("Array of "),)
        return [
            p for i, item in enumerate(value) for p in _value(item, inner, f"{path}[{i}]", params)
        ]
    if kind == "Integer":
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{path}: expected Integer, got {_json_type(value)}"]
    if kind == "Float":
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return [] if ok else [f"{path}: expected Float, got {_json_type(value)}"]
    if kind == "Boolean":
        return (
            []
            if isinstance(value, bool)
            else [f"{path}: expected Boolean, got {_json_type(value)}"]
        )
    if kind == "String":
        return (
            [] if isinstance(value, str) else [f"{path}: expected String, got {_json_type(value)}"]
        )
    if kind == "InputFile":
        return _input_file(value, path, params)
    if members := subtypes(kind):
        return _value(value, members, path, params)
    return _object(value, kind, path, params)


def _input_file(value: Any, path: str, params: Params) -> list[str]:
    if not isinstance(value, str):
        return [f"{path}: expected InputFile, got {_json_type(value)}"]
    name = value.removeprefix("attach://")
    if value.startswith("attach://") and name not in params.files:
        return [f"{path}: {value!r} names no uploaded file part"]
    return []


def _object(value: Any, kind: str, path: str, params: Params) -> list[str]:
    if not isinstance(value, dict):
        return [f"{path}: expected {kind}, got {_json_type(value)}"]
    fields = fields_of(kind)
    known = {f.name for f in fields}
    problems = [f"{path}: unknown field {key!r} of {kind}" for key in value if key not in known]
    for spec in fields:
        where = f"{path}.{spec.name}"
        if spec.name not in value:
            if spec.required:
                problems.append(f"{where}: required field of {kind} is missing")
            continue
        item = value[spec.name]
        found = _value(item, spec.types, where, params)
        problems.extend(found or _field_rules(spec, item, where))
    return problems


def _field_rules(spec: Field, value: Any, where: str | None = None) -> list[str]:
    """The field's documented limits (those "after entities parsing" are the text layer's) and
    the values its description allows."""
    where = where or spec.where
    problems = [
        f"{where}: must be {limit.describe().split(': ', 1)[1]}"
        for limit in limits(spec)
        if not limit.after_entities and limit.broken_by(value)
    ]
    allowed = choices(spec)
    if allowed and isinstance(value, str) and value not in allowed:
        problems.append(f"{where}: {value!r} is not one of {', '.join(allowed)}")
    return problems


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "Boolean"
    if isinstance(value, int):
        return "Integer"
    if isinstance(value, float):
        return "Float"
    if isinstance(value, str):
        return "String"
    if isinstance(value, list):
        return "Array"
    if isinstance(value, dict):
        return "Object"
    return "null"
