"""What the catalogue tests read of a Babel message's id or translation."""

from __future__ import annotations

__all__ = ["forms"]


def forms(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """Its forms: the one, or one per plural form (a translation Babel has none of: empty)."""
    if value is None:
        return ("",)
    return (value,) if isinstance(value, str) else tuple(value)
