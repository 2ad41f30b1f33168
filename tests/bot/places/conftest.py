"""Fixtures of the places' tests: a platform registered as an installed package registers it,
and the settings of a worker whose environment is known."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from config import Settings, load_settings
from tests.bot.state.conftest import open_states, state, state_url

__all__ = ["environment", "open_states", "register_platform", "state", "state_url"]
"""The state store's fixtures too: places are tested on every backend."""


@pytest.fixture
def register_platform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Installs a distribution whose ``citebot.platforms`` entry point is a platform the worker
    runs, its places one group each (ids as Telegram's chats), on this test's ``sys.path``
    only: a platform another distribution adds."""

    def register(name: str) -> None:
        (tmp_path / f"citebot_{name}_platform.py").write_text(
            "from bot.platforms import PlaceIds, Platform\n"
            "from config import PlatformSettings\n\n"
            "async def run(kit, settings, connected):\n"
            "    connected.set()\n\n"
            f"PLATFORM = Platform(name={name!r}, presenter=lambda: None,"
            " environment=PlatformSettings, runner=lambda: run,"
            " place_ids=PlaceIds(server=r'-?[0-9]{1,20}', server_name='CHAT_ID'))\n"
        )
        info = tmp_path / f"citebot_{name}_platform-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: citebot-{name}-platform\nVersion: 0.1\n"
        )
        (info / "entry_points.txt").write_text(
            f"[citebot.platforms]\n{name} = citebot_{name}_platform:PLATFORM\n"
        )
        monkeypatch.syspath_prepend(str(tmp_path))

    return register


@pytest.fixture
def environment() -> Settings:
    """A worker that speaks German and checks no quotes, as its environment says."""
    return load_settings({"CITEBOT_LANGUAGE": "de-DE", "QUOTE_CHECK": "off"})
