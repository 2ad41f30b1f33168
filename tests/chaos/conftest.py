"""The chaos suite's fixtures: the Discord simulator with discord.py pointed at it (as in the
Discord integration tests)."""

from tests.integrations.discord.conftest import sim

__all__ = ["sim"]
