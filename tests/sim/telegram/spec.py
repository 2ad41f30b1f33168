"""The vendored Bot API description (``spec/api.json``), read once: methods, types, fields.

A field's types are the spec's own strings (``"Integer"``, ``"Array of MessageEntity"``,
``"InlineKeyboardMarkup"``); a type with ``subtypes`` (``RichBlock``, ``BotCommandScope``) is
the union of them. Method names are case-insensitive on the wire, as Telegram's server has them.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "PRIMITIVES",
    "SPEC",
    "Field",
    "Method",
    "all_fields",
    "fields_of",
    "is_object_type",
    "method",
    "methods",
    "subtypes",
    "version",
]

SPEC = Path(__file__).parent / "spec" / "api.json"
PRIMITIVES = frozenset({"String", "Integer", "Float", "Boolean", "InputFile"})


@dataclass(frozen=True)
class Field:
    """One parameter of a method or field of a type, as the spec writes it."""

    owner: str
    name: str
    types: tuple[str, ...]
    required: bool
    description: str

    @property
    def where(self) -> str:
        return f"{self.owner}.{self.name}"


@dataclass(frozen=True)
class Method:
    name: str
    fields: tuple[Field, ...]
    returns: tuple[str, ...]

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)


@functools.cache
def _spec() -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(SPEC.read_text(encoding="utf-8"))
    return spec


def version() -> str:
    return str(_spec()["version"])


def _fields(owner: str, raw: list[dict[str, Any]]) -> tuple[Field, ...]:
    return tuple(
        Field(
            owner=owner,
            name=str(f["name"]),
            types=tuple(str(t) for t in f["types"]),
            required=bool(f["required"]),
            description=str(f["description"]),
        )
        for f in raw
    )


@functools.cache
def _methods() -> dict[str, Method]:
    return {
        name.lower(): Method(
            name=name,
            fields=_fields(name, raw.get("fields", [])),
            returns=tuple(raw.get("returns", [])),
        )
        for name, raw in _spec()["methods"].items()
    }


def methods() -> list[Method]:
    return list(_methods().values())


def method(name: str) -> Method | None:
    """The spec's method called ``name`` in any letter case (Telegram's are)."""
    return _methods().get(name.lower())


@functools.cache
def fields_of(type_name: str) -> tuple[Field, ...]:
    return _fields(type_name, _spec()["types"][type_name].get("fields", []))


def is_object_type(type_name: str) -> bool:
    return type_name in _spec()["types"] and type_name not in PRIMITIVES


def subtypes(type_name: str) -> tuple[str, ...]:
    """The members of an abstract type (empty for a concrete one)."""
    return tuple(_spec()["types"].get(type_name, {}).get("subtypes", ()))


@functools.cache
def all_fields() -> tuple[Field, ...]:
    """Every parameter of every method, then every field of every type."""
    found: list[Field] = [f for m in methods() for f in m.fields]
    for name in _spec()["types"]:
        found.extend(fields_of(name))
    return tuple(found)
