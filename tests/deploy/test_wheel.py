"""The wheel as someone installs it: into a fresh virtual environment outside the clone, used
from another working directory, nothing of the checkout importable."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.deploy.artifacts import ROOT, version, wheel
from tests.patience import PATIENCE
from tests.sim.discord import DiscordSim
from tests.sim.pages import FOUND

PACKAGES = ("bot", "config", "integrations")

# One at a time across xdist's workers (tests/deploy/conftest.py); the time waiting for the turn
# counts against the timeout, so it is the whole group's, not one test's.
pytestmark = [pytest.mark.usefixtures("taking_turns"), pytest.mark.timeout(900)]


@pytest.fixture
def installed(tmp_path_factory: pytest.TempPathFactory, taking_turns: None) -> Path:
    """The built wheel in a new virtual environment (in this test's turn); its ``bin``."""
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin/pip"), "install", "--quiet", "--no-compile", str(wheel())],
        check=True,
        timeout=600,
        cwd=venv,
    )
    return venv / "bin"


@pytest.fixture
def elsewhere(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A working directory away from the clone, and an environment naming nothing of it."""
    assert ROOT not in tmp_path.parents
    settings = ("UPSTREAM_", "MAGISTERIUM_", "DISCORD_", "SLACK_", "STATE_", "DEMO_", "QUOTE_")
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(settings) and name not in ("PYTHONPATH", "VIRTUAL_ENV")
    }
    return tmp_path, env


def test_the_wheel_and_sdist_hold_every_file_the_packages_read(sdist: Path) -> None:
    """Every file of the packages that is not Python (the demo's corpus, the catalogues, and
    whatever is added beside them), and each catalogue compiled."""
    data = [name for name in _tracked(*PACKAGES) if not name.endswith(".py")]
    compiled = [name.removesuffix(".po") + ".mo" for name in data if name.endswith(".po")]
    with zipfile.ZipFile(wheel()) as built:
        in_wheel = set(built.namelist())
    with tarfile.open(sdist) as source:
        in_sdist = {name.split("/", 1)[1] for name in source.getnames() if "/" in name}
    assert compiled
    assert [name for name in [*data, *compiled] if name not in in_wheel] == []
    assert [name for name in [*data, "setup.py", "pyproject.toml"] if name not in in_sdist] == []


async def test_the_wheel_in_a_fresh_venv_answers_from_the_demo_anywhere_and_runs(
    installed: Path, elsewhere: tuple[Path, dict[str, str]]
) -> None:
    """From a directory away from the clone: ``citebot ask`` answers from the demo its wheel
    carries, and ``citebot run`` connects, says its version first, and stops on SIGTERM."""
    cwd, env = elsewhere
    _, where, _ = await _run(
        installed / "python", "-c", "import bot; print(bot.__file__)", cwd=cwd, env=env
    )
    _, shown, _ = await _run(installed / "citebot", "--version", cwd=cwd, env=env)
    code, answer, said = await _run(
        installed / "citebot", "ask", "How do I deploy citebot?", cwd=cwd, env=env
    )
    async with DiscordSim() as sim:
        worker = await asyncio.create_subprocess_exec(
            str(installed / "citebot"),
            "run",
            cwd=cwd,
            env={
                **env,
                "DISCORD_TOKEN": sim.token,
                "DISCORD_API_BASE_URL": sim.base_url,
                "UPSTREAM_BASE_URL": "demo",
            },
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await asyncio.wait_for(sim.connected.wait(), 60)
        finally:
            worker.send_signal(signal.SIGTERM)
            _, logged = await asyncio.wait_for(worker.communicate(), PATIENCE)

    assert Path(where.strip()).is_relative_to(installed.parent)
    assert shown == f"citebot {version()}\n"
    assert code == 0, said
    assert "embedded demo upstream" in said
    assert "To deploy citebot, run `citebot run`" in answer
    assert answer.count(FOUND) == 3  # each quote checked on the demo's own page
    first = logged.decode().splitlines()[0]
    assert f'"message": "citebot {version()} starting: discord"' in first
    assert worker.returncode == 0


def _tracked(*folders: str) -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", *folders], cwd=ROOT, capture_output=True, check=True
    )
    return [name for name in listed.stdout.decode().split("\0") if name]


async def _run(*command: str | Path, cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    """The command's exit code, stdout and stderr."""
    process = await asyncio.create_subprocess_exec(
        *(str(part) for part in command),
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()
