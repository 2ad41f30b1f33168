"""STATE_URL picks the backend; a bad one is one line naming STATE_URL, never a password."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.state import open_state
from config.settings import SettingsError
from tests.sim.redis_server import free_port


async def test_memory_is_the_default_shape() -> None:
    async with open_state("memory://") as state:
        assert await state.ping()
        assert await state.first_time("Ev1")


async def test_a_relative_sqlite_path_is_relative_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    async with open_state("sqlite:///state.db") as state:
        assert await state.first_time("Ev1")
    async with open_state(f"sqlite:///{tmp_path / 'state.db'}") as state:
        assert not await state.first_time("Ev1")  # the same file, kept across a restart


async def test_redis_that_is_not_running_is_not_ready() -> None:
    async with open_state(f"redis://127.0.0.1:{free_port()}/0") as state:
        assert not await state.ping()


async def test_live_redis_is_ready(redis_url: str) -> None:
    async with open_state(redis_url) as state:
        assert await state.ping()


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("postgres://db/0", "must start with memory://"),
        ("sqlite://host/state.db", "sqlite:///relative/path"),
        ("sqlite:///", "sqlite:///relative/path"),
        ("sqlite:////dev/null/state.db", "cannot make the folder of the SQLite database"),
        ("sqlite:////proc/version", "cannot open the SQLite database"),
        ("redis://:hunter2@redis:port/0", "port must be a number"),
        ("redis://:hunter2@redis:6379/zero", "DB a number"),
        ("rediss://:hunter2@:6379/0", "rediss://HOST:PORT/DB"),
    ],
)
def test_a_bad_state_url_names_the_variable_and_hides_the_password(url: str, reason: str) -> None:
    with pytest.raises(SettingsError) as refused:
        open_state(url)
    message = str(refused.value)
    assert message.startswith("STATE_URL: ")
    assert reason in message
    assert "hunter2" not in message
    assert "\n" not in message
