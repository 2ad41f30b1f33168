"""Discord's payload limits, answered the way Discord answers them (400, code 50035).

The error body mirrors the real one: ``{"code": 50035, "message": "Invalid Form Body",
"errors": {"content": {"_errors": [{"code": ..., "message": ...}]}}}``, nested by field path.
"""

from __future__ import annotations

from typing import Any

__all__ = ["form_errors", "invalid_form_body", "thread_name_errors"]

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
ROWS = 5
ROW_ITEMS = 5
LABEL = 80
CUSTOM_ID = 100
THREAD_NAME = 100

Errors = dict[str, Any]


def _err(code: str, message: str) -> list[dict[str, str]]:
    return [{"code": code, "message": message}]


def _too_long(limit: int) -> list[dict[str, str]]:
    return _err("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _put(errors: Errors, path: tuple[str, ...], items: list[dict[str, str]]) -> None:
    node = errors
    for part in path:
        node = node.setdefault(part, {})
    node.setdefault("_errors", []).extend(items)


def _check_len(errors: Errors, path: tuple[str, ...], value: Any, limit: int) -> int:
    if value is None:
        return 0
    text = str(value)
    if len(text) > limit:
        _put(errors, path, _too_long(limit))
    return len(text)


def _embed(errors: Errors, index: int, embed: dict[str, Any]) -> int:
    at = ("embeds", str(index))
    size = _check_len(errors, (*at, "title"), embed.get("title"), TITLE)
    size += _check_len(errors, (*at, "description"), embed.get("description"), DESCRIPTION)
    footer = embed.get("footer") or {}
    size += _check_len(errors, (*at, "footer", "text"), footer.get("text"), FOOTER)
    author = embed.get("author") or {}
    size += _check_len(errors, (*at, "author", "name"), author.get("name"), AUTHOR)
    fields = embed.get("fields") or []
    if len(fields) > FIELDS:
        _put(
            errors,
            (*at, "fields"),
            [{"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {FIELDS} or fewer in length."}],
        )
    for number, field in enumerate(fields):
        where = (*at, "fields", str(number))
        for key, limit in (("name", FIELD_NAME), ("value", FIELD_VALUE)):
            if not str(field.get(key) or ""):
                _put(
                    errors,
                    (*where, key),
                    [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}],
                )
            size += _check_len(errors, (*where, key), field.get(key), limit)
    url = embed.get("url")
    if url is not None and not str(url).startswith(("http://", "https://")):
        _put(errors, (*at, "url"), _err("URL_TYPE_INVALID_URL", "Not a well formed URL."))
    return size


def _components(errors: Errors, rows: list[dict[str, Any]]) -> None:
    if len(rows) > ROWS:
        _put(errors, ("components",), _too_long(ROWS))
    seen: set[str] = set()
    for r, row in enumerate(rows):
        items = row.get("components") or []
        if row.get("type") != 1:
            _put(
                errors,
                ("components", str(r), "type"),
                [{"code": "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "message": "Expected an action row"}],
            )
        if not 1 <= len(items) <= ROW_ITEMS:
            _put(
                errors,
                ("components", str(r), "components"),
                _err("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."),
            )
        for i, item in enumerate(items):
            where = ("components", str(r), "components", str(i))
            _check_len(errors, (*where, "label"), item.get("label"), LABEL)
            if item.get("style") == 5:
                if not str(item.get("url") or "").startswith(("http://", "https://")):
                    _put(
                        errors,
                        (*where, "url"),
                        [{"code": "URL_TYPE_INVALID_URL", "message": "Not a well formed URL."}],
                    )
                continue
            custom_id = item.get("custom_id")
            if not custom_id:
                _put(
                    errors,
                    (*where, "custom_id"),
                    [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}],
                )
                continue
            _check_len(errors, (*where, "custom_id"), custom_id, CUSTOM_ID)
            if custom_id in seen:
                _put(
                    errors,
                    (*where, "custom_id"),
                    _err(
                        "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
                    ),
                )
            seen.add(custom_id)


def form_errors(body: dict[str, Any]) -> Errors:
    """The field errors Discord would report for a message create/edit body (empty: valid)."""
    errors: Errors = {}
    _check_len(errors, ("content",), body.get("content"), CONTENT)
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS:
        _put(errors, ("embeds",), _too_long(EMBEDS))
    total = sum(_embed(errors, i, embed) for i, embed in enumerate(embeds))
    if total > EMBED_TOTAL:
        _put(
            errors,
            ("embeds",),
            _err("MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}"),
        )
    _components(errors, body.get("components") or [])
    return errors


def thread_name_errors(name: Any) -> Errors:
    errors: Errors = {}
    if not isinstance(name, str) or not 1 <= len(name) <= THREAD_NAME:
        _put(
            errors,
            ("name",),
            [
                {
                    "code": "BASE_TYPE_BAD_LENGTH",
                    "message": f"Must be between 1 and {THREAD_NAME} in length.",
                }
            ],
        )
    return errors


def invalid_form_body(errors: Errors) -> dict[str, Any]:
    return {"message": "Invalid Form Body", "code": 50035, "errors": errors}
