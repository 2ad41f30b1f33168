"""``UPSTREAM_PROFILES``: named upstreams read with each key from the variable it names; a bad
one is one line naming the variable, and a key is never printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from config import SettingsError, load_settings

LIBRARY = {
    "library": {"base_url": "https://lib.example/v1/", "model": "lib-1", "api_key_env": "LIB_KEY"}
}


def test_each_profile_reads_its_key_from_the_variable_it_names() -> None:
    settings = load_settings(
        {"UPSTREAM_PROFILES": json.dumps(LIBRARY), "LIB_KEY": "s3cret-library-key"}, env_file=None
    )
    profile = settings.upstream_profiles["library"]
    assert (profile.base_url, profile.model) == ("https://lib.example/v1", "lib-1")
    assert profile.api_key is not None
    assert profile.api_key.get_secret_value() == "s3cret-library-key"
    assert "s3cret" not in repr(settings)
    assert "s3cret" not in str(settings.model_dump())


def test_a_key_in_a_dotenv_file_is_read_like_any_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LIB_KEY", raising=False)
    monkeypatch.setenv("UPSTREAM_PROFILES", json.dumps(LIBRARY))
    (tmp_path / ".env").write_text("LIB_KEY=from-the-file\n")
    settings = load_settings(env_file=str(tmp_path / ".env"))
    key = settings.upstream_profiles["library"].api_key
    assert key is not None
    assert key.get_secret_value() == "from-the-file"


@pytest.mark.parametrize(
    ("profiles", "line"),
    [
        ("{library", "UPSTREAM_PROFILES: not JSON (Expecting property name enclosed in double"),
        ("[]", "UPSTREAM_PROFILES: write a JSON object of named profiles"),
        ('{"Library!": {}}', "UPSTREAM_PROFILES: 'Library!' is not a profile's name"),
        ('{"default": {}}', "UPSTREAM_PROFILES: 'default' is not a profile's name"),
        (
            '{"lib": {"base_url": "ftp://x", "model": "m", "api_key_env": "LIB_KEY"}}',
            "UPSTREAM_PROFILES: lib: base_url: must be an http(s) URL, got 'ftp://x'",
        ),
        (
            '{"lib": {"base_url": "https://x", "model": "m", "api_key_env": "NOT_SET_HERE"}}',
            "UPSTREAM_PROFILES: lib: its key variable NOT_SET_HERE is not set",
        ),
        (
            '{"lib": {"base_url": "https://x", "model": "m", "api_key_env": "LIB_KEY",'
            ' "api_key": "s3cret-in-json"}}',
            "UPSTREAM_PROFILES: lib: write an object of base_url, model and api_key_env",
        ),
    ],
)
def test_a_bad_profile_is_one_line_naming_the_variable_and_never_a_key(
    profiles: str, line: str
) -> None:
    with pytest.raises(SettingsError) as error:
        load_settings({"UPSTREAM_PROFILES": profiles, "LIB_KEY": "s3cret-key"}, env_file=None)
    said = str(error.value)
    assert said.startswith(line)
    assert "\n" not in said
    assert "s3cret" not in said
