"""Every request body checked against Discord's official OpenAPI spec (``spec/openapi.json``).

The simulator's route template and method name the spec's operation (parameter names differ:
``{token}`` here, ``{interaction_token}`` or ``{webhook_token}`` there, so placeholders are
compared by position). Its ``application/json`` request schema is compiled once per operation
into an OpenAPI 3.1 validator with format checking on: ``format: uri`` is RFC 3986 (no raw
non-ASCII, no ``| { } ^ ` " < > \\``, no bad ``%`` escape), so a URL Discord would refuse is
refused here too. Failures come back in Discord's ``errors`` shape (nested by field path, each
leaf ``{"_errors": [{"code", "message"}]}``); the field codes are the ones Discord answers with
(``BASE_TYPE_MAX_LENGTH``, ``URL_TYPE_INVALID_URL``, ...), which the spec itself types loosely.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError
from openapi_schema_validator import OAS31Validator, oas31_format_checker
from rfc3986_validator import validate_rfc3986

__all__ = ["SPEC", "body_errors", "operation"]

SPEC = Path(__file__).parent / "spec" / "openapi.json"
_PLACEHOLDER = re.compile(r"\{[^}]+\}")

Errors = dict[str, Any]


def _uri(instance: object) -> bool:
    return not isinstance(instance, str) or bool(validate_rfc3986(instance, rule="URI"))


def _format_checker() -> FormatChecker:
    """OAS 3.1's numeric formats, JSON Schema's ``date-time``, and ``uri`` per RFC 3986
    (jsonschema checks ``uri`` only when the optional rfc3987 package happens to be there)."""
    checker = FormatChecker(formats=())
    checker.checkers.update(oas31_format_checker.checkers)
    checker.checkers["date-time"] = Draft202012Validator.FORMAT_CHECKER.checkers["date-time"]
    checker.checks("uri")(_uri)
    return checker


@functools.cache
def _spec() -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(SPEC.read_text(encoding="utf-8"))
    return spec


@functools.cache
def _paths() -> dict[str, str]:
    """Spec path by shape (``/webhooks/{}/{}/messages/{}``)."""
    return {_PLACEHOLDER.sub("{}", path): path for path in _spec()["paths"]}


def operation(method: str, template: str) -> tuple[str, str] | None:
    """The spec's (path, method) for a simulator route, if the spec has it."""
    path = _paths().get(_PLACEHOLDER.sub("{}", template))
    verb = method.lower()
    if path is None or verb not in _spec()["paths"][path]:
        return None
    return path, verb


@functools.cache
def _validator(path: str, verb: str) -> OAS31Validator | None:
    body = _spec()["paths"][path][verb].get("requestBody") or {}
    schema = body.get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        return None
    # The operation's schema as the root, with the spec's components beside it, so its
    # "#/components/schemas/..." references resolve as they do in the whole document.
    root = {**schema, "components": _spec()["components"]}
    validator: OAS31Validator = OAS31Validator(root, format_checker=_format_checker())
    return validator


def body_errors(method: str, template: str, body: Any) -> Errors:
    """The field errors Discord would answer a JSON body with (empty: valid, or not a body the
    spec describes)."""
    found = operation(method, template)
    validator = _validator(*found) if found else None
    errors: Errors = {}
    if validator is None:
        return errors
    for error in validator.iter_errors(body):
        for leaf in _leaves(error):
            _put(errors, leaf)
    return errors


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The errors to report: inside a union (anyOf/oneOf), the branch that got furthest into
    the body is the one the sender meant (an embed, not ``null``)."""
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        yield error
        return
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    if (missed := _every_branch_missed(list(branches.values()))) is not None:
        yield missed
        return
    meant = max(branches.values(), key=_depth)
    for sub in meant:
        yield from _leaves(sub)


def _every_branch_missed(branches: list[list[ValidationError]]) -> ValidationError | None:
    """When no branch's ``type`` matched, Discord names every allowed value at once."""
    found = [next((e for e in subs if e.validator in ("enum", "const")), None) for subs in branches]
    if any(e is None for e in found):
        return None
    misses = [e for e in found if e is not None]
    if len({tuple(e.absolute_path) for e in misses}) != 1:
        return None
    values = sorted({value for e in misses for value in _allowed(e)})
    return ValidationError(
        "no branch matched",
        validator="enum",
        validator_value=values,
        path=misses[0].absolute_path,
        schema={"enum": values},
    )


def _allowed(error: ValidationError) -> list[Any]:
    """The JSON values an ``enum`` or ``const`` error allows."""
    value: Any = error.validator_value  # Unset only on errors built by hand, never these
    return list(value) if error.validator == "enum" else [value]


def _depth(errors: list[ValidationError]) -> tuple[int, int]:
    """How far a branch got into the body; among equals, the one whose ``type`` matched."""
    leaves = [leaf for error in errors for leaf in _leaves(error)]
    missed = sum(leaf.validator in ("enum", "const") for leaf in leaves)
    return max(len(leaf.absolute_path) for leaf in leaves), -missed


def _put(errors: Errors, error: ValidationError) -> None:
    path = [str(part) for part in error.absolute_path]
    if error.validator == "required":
        path.append(str(error.message).split("'")[1])
    node = errors
    for part in path:
        node = node.setdefault(part, {})
    node.setdefault("_errors", []).append(_discord(error))


def _length(schema: dict[str, Any], low: str, high: str) -> dict[str, str]:
    lo, hi = schema.get(low), schema.get(high)
    if lo is not None and hi is not None:
        return {
            "code": "BASE_TYPE_BAD_LENGTH",
            "message": f"Must be between {lo} and {hi} in length.",
        }
    if hi is not None:
        return {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {hi} or fewer in length."}
    return {"code": "BASE_TYPE_MIN_LENGTH", "message": f"Must be {lo} or more in length."}


def _discord(error: ValidationError) -> dict[str, str]:
    """One jsonschema error as the field error Discord sends."""
    kind, schema = error.validator, error.schema
    assert isinstance(schema, dict)
    if kind in ("maxLength", "minLength"):
        return _length(schema, "minLength", "maxLength")
    if kind in ("maxItems", "minItems"):
        return _length(schema, "minItems", "maxItems")
    if kind == "format" and error.validator_value == "uri":
        return {"code": "URL_TYPE_INVALID_URL", "message": "Not a well formed URL."}
    if kind == "format" and error.validator_value == "date-time":
        return {"code": "DATE_TYPE_PARSE", "message": "Could not parse date. Should be ISO8601."}
    if kind == "required":
        return {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}
    if kind in ("enum", "const"):
        choices = _choices(error.validator_value)
        return {"code": "BASE_TYPE_CHOICES", "message": f"Value must be one of {choices}."}
    if kind == "maximum":
        return {
            "code": "NUMBER_TYPE_MAX",
            "message": f"int value should be less than or equal to {error.validator_value}.",
        }
    if kind == "minimum":
        return {
            "code": "NUMBER_TYPE_MIN",
            "message": f"int value should be greater than or equal to {error.validator_value}.",
        }
    if kind == "type":
        return {"code": "BASE_TYPE_INVALID", "message": f"Must be {error.validator_value}."}
    return {"code": "BASE_TYPE_INVALID", "message": str(error.message)}


def _choices(value: Any) -> str:
    values: Iterable[Any] = value if isinstance(value, list) else [value]
    return "{" + ", ".join(json.dumps(v) for v in values) + "}"
