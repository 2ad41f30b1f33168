"""The core's fixtures these cases share: a platform another distribution registers, and a
state store on each backend."""

from __future__ import annotations

from tests.bot.conftest import register_platform
from tests.bot.state.conftest import namespace, open_states, state, state_url

__all__ = ["namespace", "open_states", "register_platform", "state", "state_url"]
