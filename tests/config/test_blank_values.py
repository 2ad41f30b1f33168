"""A blank value is an unset one, for every setting of every kind: ``.env.example`` copied to
``.env`` unchanged, or Compose passing its blank lines through, leaves citebot on its defaults."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import AliasChoices

from config import Settings, load_settings


def _variables() -> list[str]:
    """Every variable a setting is read from, aliases included."""
    names: list[str] = []
    for field in Settings.model_fields.values():
        alias = field.validation_alias
        names += (
            [str(a) for a in alias.choices] if isinstance(alias, AliasChoices) else [str(alias)]
        )
    return names


VARIABLES = _variables()


@pytest.fixture
def defaults(monkeypatch: pytest.MonkeyPatch) -> Settings:
    for variable in VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    return load_settings({}, env_file=None)


def test_every_setting_left_blank_in_a_dotenv_file_keeps_its_default(
    defaults: Settings, tmp_path: Path
) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("".join(f"{variable}=\n" for variable in VARIABLES))
    settings = load_settings(env_file=str(dotenv))
    assert settings == defaults
    assert settings.model_fields_set == set()  # none taken as chosen (CITEBOT_LANGUAGE's test)


def test_every_setting_blank_in_the_environment_keeps_its_default(
    defaults: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in VARIABLES:
        monkeypatch.setenv(variable, "")
    settings = load_settings(env_file=None)
    assert settings == defaults
    assert settings.model_fields_set == set()


def test_every_setting_blank_in_a_given_mapping_keeps_its_default(defaults: Settings) -> None:
    settings = load_settings(dict.fromkeys(VARIABLES, ""), env_file=None)
    assert settings == defaults
    assert settings.model_fields_set == set()
