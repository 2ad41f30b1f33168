"""``STATE_URL`` unset on a fresh machine: the quick start asks with no setting at all, the
command line makes the embedded store in the user's data directory, and a data directory that
cannot be written is one line naming ``STATE_URL`` and what to set, never a traceback."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from tests.bot.test_cli import clean_env


def fresh(home: Path, **more: str) -> dict[str, str]:
    """A machine's environment with no ``STATE_URL`` and no data directory of its own: the
    user's home is ``home``, which does not exist yet."""
    env = clean_env({"HOME": str(home), **more})
    for name in ("STATE_URL", "XDG_DATA_HOME"):
        if name not in more:
            env.pop(name, None)
    return env


def citebot(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd=tempfile.gettempdir(),
        check=False,
    )


def test_a_fresh_home_asks_and_keeps_settings_in_its_data_directory(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = fresh(home)
    asked = citebot(env, "ask", "How do I deploy citebot?")
    assert asked.returncode == 0, asked.stderr
    assert not home.exists()  # asking keeps nothing
    changed = citebot(env, "settings", "set", "discord:1", "daily_cost", "2.5")
    assert changed.returncode == 0, changed.stderr
    assert changed.stdout == "discord:1 daily_cost: not set → 2.50\n"
    assert (home / ".local" / "share" / "citebot" / "state.sqlite3").is_file()
    shown = citebot(env, "settings", "show", "discord:1")
    assert "daily_cost\t2.50\tdiscord:1" in shown.stdout


def test_a_data_directory_that_cannot_be_made_is_one_line_for_every_command(
    tmp_path: Path,
) -> None:
    """sysfs refuses a new folder even to root (the suite runs as root, which ignores file
    modes): the closest a test can come to a read-only home."""
    env = fresh(tmp_path / "home", XDG_DATA_HOME="/sys")
    worker = {
        "DISCORD_TOKEN": "x",
        "DISCORD_API_BASE_URL": "http://127.0.0.1:9",
        "UPSTREAM_BASE_URL": "demo",
    }
    for args, run_env in (
        (("settings", "show"), env),
        (("report",), env),
        (("run",), {**env, **worker}),
    ):
        ran = citebot(run_env, *args)
        assert ran.returncode == 2, (args, ran.stderr)
        assert ran.stderr.splitlines()[-1] == (
            "citebot: STATE_URL: cannot make the folder of the SQLite database"
            " '/sys/citebot/state.sqlite3' (Operation not permitted); set STATE_URL to a"
            " writable sqlite:///PATH, a redis:// URL, or memory://"
        )
        assert "Traceback" not in ran.stderr
