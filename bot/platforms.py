"""The registry of platforms: the ``citebot.platforms`` entry points of the installed
distributions, as pytest and Babel find their plugins.

The core reads this one list and never names a platform itself: a new platform is a package in
``integrations/`` and one line in ``pyproject.toml``'s ``[project.entry-points]``.
"""

from __future__ import annotations

from importlib.metadata import entry_points

__all__ = ["GROUP", "platform_names"]

GROUP = "citebot.platforms"


def platform_names() -> tuple[str, ...]:
    """Every registered platform's name (``discord``, ``terminal``...), sorted; nothing of
    theirs is imported."""
    return tuple(sorted({point.name for point in entry_points(group=GROUP)}))
