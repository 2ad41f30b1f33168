"""The core's fixtures these cases share: a platform another distribution registers."""

from __future__ import annotations

from tests.bot.conftest import register_platform

__all__ = ["register_platform"]
