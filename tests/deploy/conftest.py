"""The deployment tests' artifacts (tests/deploy/artifacts.py says where they come from)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy import artifacts


@pytest.fixture
def image() -> str:
    return artifacts.image()


@pytest.fixture
def base() -> str:
    return artifacts.base()


@pytest.fixture
def wheel() -> Path:
    return artifacts.wheel()


@pytest.fixture
def sdist() -> Path:
    return artifacts.sdist()


@pytest.fixture
def taking_turns(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with artifacts.one_at_a_time(tmp_path_factory.getbasetemp().parent):
        yield
