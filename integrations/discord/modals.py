"""What a modal sends back (MODAL_SUBMIT): each field inside its Label, read by ``custom_id``
(components/reference.mdx: a text input's ``value``, a radio group's chosen ``value`` or null)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["modal_values"]


def modal_values(data: Mapping[str, Any]) -> dict[str, str | None]:
    """Each field's value by its ``custom_id`` (None: a radio group left unchosen)."""
    found: dict[str, str | None] = {}
    for label in data.get("components") or ():
        inner = label.get("component") or {}
        if "custom_id" in inner:
            value = inner.get("value")
            found[str(inner["custom_id"])] = None if value is None else str(value)
    return found
