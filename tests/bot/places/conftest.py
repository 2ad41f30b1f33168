"""Fixtures of the places' tests: the settings of a worker whose environment is known (a
platform registered as an installed package registers it: tests/bot/conftest.py)."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.__main__ import main
from config import Settings, load_settings
from tests.bot.state.conftest import namespace, open_states, state, state_url

__all__ = [
    "Citebot",
    "CommandLine",
    "Ran",
    "command_line",
    "environment",
    "namespace",
    "open_states",
    "state",
    "state_url",
]
"""The state store's fixtures too: places are tested on every backend."""


@pytest.fixture
def environment() -> Settings:
    """A worker that speaks German and checks no quotes, as its environment says."""
    return load_settings({"CITEBOT_LANGUAGE": "de-DE", "QUOTE_CHECK": "off"})


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str


Citebot = Callable[..., Ran]
CommandLine = Callable[..., Ran]


@pytest.fixture
def command_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> CommandLine:
    """``citebot ...`` in this process (``bot.__main__.main``) on a SQLite store, in an empty
    directory and an environment without a language or a terminal."""
    monkeypatch.chdir(tmp_path)
    for name in (
        *("CITEBOT_LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "QUOTE_CHECK"),
        *("TTY_COMPATIBLE", "FORCE_COLOR", "COLUMNS"),
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("STATE_URL", f"sqlite:///{tmp_path / 'state.db'}")

    def run(*args: str, env: Mapping[str, str] = {}, stdin: str | None = None) -> Ran:
        with monkeypatch.context() as patch:
            for name, value in env.items():
                patch.setenv(name, value)
            if stdin is not None:
                patch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
            code = main(list(args))
        printed = capsys.readouterr()
        return Ran(code, printed.out, printed.err)

    return run
