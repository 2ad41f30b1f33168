""".env.example, the file a deployment starts from: every variable the settings model reads (the
shared ``Settings`` and each registered platform's) and no other, none filled in, and copied to
.env unchanged it leaves every setting at its default. Settings are added over time: the first
test keeps the file in step with the model, which the documentation's configuration table is
drawn from too (docs/_ext/settings_table.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.platforms import load_platforms
from config import EnvironmentSettings, Settings, load_settings
from tests.deploy.artifacts import ROOT

LINE = re.compile(r"^(?:# )?([A-Z][A-Z0-9_]*)=(.*)$")


def model_variables() -> list[str]:
    """Every variable the settings model reads, by its own name (aliases left out)."""
    models: list[type[EnvironmentSettings]] = [Settings]
    models += [p.environment for p in load_platforms().values() if p.environment is not None]
    return [name for model in models for name in model.variables()]


def example_lines() -> list[tuple[str, str]]:
    """Each variable line of .env.example (``NAME=`` or ``# NAME=``) as (name, value)."""
    lines = (ROOT / ".env.example").read_text().splitlines()
    return [(m[1], m[2]) for line in lines if (m := LINE.match(line))]


def test_env_example_lists_every_variable_of_the_settings_model_and_no_other() -> None:
    listed = [name for name, _ in example_lines()]
    modelled = model_variables()
    assert len(modelled) > 30  # the shared settings and the platforms' were all read
    assert sorted(set(modelled) - set(listed)) == [], "missing from .env.example"
    assert sorted(set(listed) - set(modelled)) == [], "in .env.example, not in the model"
    assert len(listed) == len(set(listed)), "listed twice"


def test_env_example_fills_nothing_in() -> None:
    assert [(name, value) for name, value in example_lines() if value] == []


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A working directory holding .env.example copied to .env, no setting in the environment."""
    for field_name in Settings.model_fields:
        for name in Settings.names(field_name):
            monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text((ROOT / ".env.example").read_text())
    monkeypatch.chdir(tmp_path)
    return tmp_path / ".env"


def test_env_example_copied_to_dotenv_unchanged_keeps_every_default(
    clean_environment: Path,
) -> None:
    settings = load_settings()  # reads ./.env, as citebot does
    assert settings == load_settings({}, env_file=None)
    assert settings.model_fields_set == set()


def test_the_key_under_its_magisterium_alias_is_read_beside_the_blank_line(
    clean_environment: Path,
) -> None:
    with clean_environment.open("a") as dotenv:
        dotenv.write("MAGISTERIUM_API_KEY=sk-live-abc\n")
    key = load_settings().upstream_api_key
    assert key is not None
    assert key.get_secret_value() == "sk-live-abc"
