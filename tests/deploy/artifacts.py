"""Where the deployment tests find what ``.ci/artifacts`` built: the image, its base, the wheel
and the sdist, named by the ``export`` lines it prints (``eval "$(.ci/artifacts)"``).

Without them a test is skipped with a line saying how to build them, except under CI, where it
fails: CI must never go green without having run the image and the wheel.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

__all__ = ["ROOT", "base", "image", "needed", "one_at_a_time", "sdist", "version", "wheel"]

ROOT = Path(__file__).resolve().parents[2]
BUILD = '`eval "$(.ci/artifacts)"` builds them (README, "Quick start")'


def needed(missing: str) -> None:
    """Skip, or under CI fail, because ``missing`` is."""
    if os.environ.get("CI"):
        pytest.fail(f"{missing}; CI must not skip the deployment tests", pytrace=False)
    pytest.skip(missing)


def _named(variable: str) -> str:
    value = os.environ.get(variable, "")
    if not value:
        needed(f"{variable} is not set: {BUILD}")
    return value


def _podman() -> None:
    if shutil.which("podman") is None:
        needed("podman is not on PATH (apt-get install -y podman runc; .ci/run does this)")


def version() -> str:
    """The version this checkout declares (pyproject.toml, its one source)."""
    with (ROOT / "pyproject.toml").open("rb") as pyproject:
        declared: str = tomllib.load(pyproject)["project"]["version"]
    return declared


def image() -> str:
    _podman()
    name = _named("CITEBOT_TEST_IMAGE")
    found = subprocess.run(["podman", "image", "exists", name], check=False)
    assert found.returncode == 0, f"CITEBOT_TEST_IMAGE names {name}, which podman does not have"
    return name


def base() -> str:
    _podman()
    return _named("CITEBOT_TEST_BASE")


def _file(variable: str) -> Path:
    path = Path(_named(variable))
    assert path.is_file(), f"{variable} names {path}, which does not exist"
    return path


def wheel() -> Path:
    return _file("CITEBOT_TEST_WHEEL")


def sdist() -> Path:
    return _file("CITEBOT_TEST_SDIST")


@contextmanager
def one_at_a_time(folder: Path) -> Iterator[None]:
    """Holds the turn that the tests building or running the image, or installing the wheel, take
    across xdist's workers (``folder`` is shared by them): each loads both cores for seconds, and
    the suite's timing tests run beside them. (xdist's loadgroup would do it, but groups nothing
    on pytest 9.2: pytest-xdist issue 1386.)"""
    with (folder / "citebot-deploy.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
