"""Fixtures of the places' tests: the settings of a worker whose environment is known (a
platform registered as an installed package registers it: tests/bot/conftest.py)."""

from __future__ import annotations

import pytest

from config import Settings, load_settings
from tests.bot.state.conftest import namespace, open_states, state, state_url

__all__ = ["environment", "namespace", "open_states", "state", "state_url"]
"""The state store's fixtures too: places are tested on every backend."""


@pytest.fixture
def environment() -> Settings:
    """A worker that speaks German and checks no quotes, as its environment says."""
    return load_settings({"CITEBOT_LANGUAGE": "de-DE", "QUOTE_CHECK": "off"})
