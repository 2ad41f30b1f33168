"""The names of the registered platforms: the ``citebot.platforms`` entry points of the installed
distributions, nothing of theirs imported. What reads only the names (the metrics' fixed label
sets) reads them here, below everything a descriptor names; the descriptors are
:mod:`bot.platforms`'.
"""

from __future__ import annotations

from importlib.metadata import entry_points

__all__ = ["GROUP", "platform_names"]

GROUP = "citebot.platforms"


def platform_names() -> tuple[str, ...]:
    """Every registered platform's name (``discord``, ``terminal``...), sorted; nothing of
    theirs is imported."""
    return tuple(sorted({point.name for point in entry_points(group=GROUP)}))
