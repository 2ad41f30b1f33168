"""Discord's documented message rules that its OpenAPI spec cannot hold, answered the way
Discord answers them (400, code 50035). Per-field limits and URL formats are the spec's
(:mod:`tests.sim.discord.schema`, checked first); these rules span fields or differ from it.

The error body mirrors the real one: ``{"code": 50035, "message": "Invalid Form Body",
"errors": {"content": {"_errors": [{"code": ..., "message": ...}]}}}``, nested by field path.
"""

from __future__ import annotations

from typing import Any

__all__ = ["form_errors", "invalid_form_body"]

CONTENT = 2000
"""A bot's content limit (the spec allows 4,000, which only Nitro users get)."""
EMBED_TOTAL = 6000
ROWS = 5
LINK = 5

Errors = dict[str, Any]


def _put(errors: Errors, path: tuple[str, ...], code: str, message: str) -> None:
    node = errors
    for part in path:
        node = node.setdefault(part, {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


def _size(embed: dict[str, Any]) -> int:
    """Characters counted toward the 6,000 all embeds of a message may hold."""
    parts = [
        embed.get("title"),
        embed.get("description"),
        (embed.get("footer") or {}).get("text"),
        (embed.get("author") or {}).get("name"),
    ]
    for field in embed.get("fields") or []:
        parts += [field.get("name"), field.get("value")]
    return sum(len(str(part)) for part in parts if part is not None)


def _fields(errors: Errors, embeds: list[dict[str, Any]]) -> None:
    for e, embed in enumerate(embeds):
        for f, field in enumerate(embed.get("fields") or []):
            for key in ("name", "value"):
                if key in field and not str(field[key] or "").strip():
                    where = ("embeds", str(e), "fields", str(f), key)
                    _put(errors, where, "BASE_TYPE_REQUIRED", "This field is required")


def _components(errors: Errors, rows: list[dict[str, Any]]) -> None:
    if len(rows) > ROWS:
        _put(errors, ("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {ROWS} or fewer in length.")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        for i, item in enumerate(row.get("components") or []):
            where = ("components", str(r), "components", str(i), "custom_id")
            if item.get("style") == LINK:
                continue
            custom_id = item.get("custom_id")
            if not custom_id:
                _put(errors, where, "BASE_TYPE_REQUIRED", "This field is required")
            elif custom_id in seen:
                _put(
                    errors,
                    where,
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            seen.add(str(custom_id))


def form_errors(body: dict[str, Any]) -> Errors:
    """The field errors Discord would report for a message create/edit body (empty: valid)."""
    errors: Errors = {}
    content = body.get("content")
    if content is not None and len(str(content)) > CONTENT:
        _put(errors, ("content",), "BASE_TYPE_MAX_LENGTH", f"Must be {CONTENT} or fewer in length.")
    embeds = body.get("embeds") or []
    _fields(errors, embeds)
    if sum(_size(embed) for embed in embeds) > EMBED_TOTAL:
        _put(
            errors,
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL}",
        )
    _components(errors, body.get("components") or [])
    return errors


def invalid_form_body(errors: Errors) -> dict[str, Any]:
    return {"message": "Invalid Form Body", "code": 50035, "errors": errors}
