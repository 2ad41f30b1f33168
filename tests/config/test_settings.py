"""Settings: defaults, the alias, and one-line errors that name the variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import SettingsError, load_settings


def test_defaults_follow_the_contract() -> None:
    settings = load_settings({})
    assert settings.upstream_base_url == "https://www.magisterium.com/api/v1"
    assert settings.upstream_model == "magisterium-1"
    assert settings.discord_api_base_url == "https://discord.com/api/v10"
    assert settings.slack_api_base_url == "https://slack.com/api/"
    assert settings.state_url == "memory://"
    assert settings.upstream_api_key is None
    assert settings.slack_mode is None


def test_the_magisterium_alias_sets_the_key_and_never_prints_it() -> None:
    settings = load_settings({"MAGISTERIUM_API_KEY": "sk-live-abc"})
    assert settings.upstream_api_key is not None
    assert settings.upstream_api_key.get_secret_value() == "sk-live-abc"
    assert "sk-live-abc" not in repr(settings)
    assert "sk-live-abc" not in str(settings.model_dump())


def test_demo_and_slack_modes() -> None:
    assert load_settings({"UPSTREAM_BASE_URL": "DEMO"}).uses_demo
    assert (
        load_settings({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}).slack_mode
        == "socket"
    )
    assert (
        load_settings({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"}).slack_mode
        == "http"
    )
    assert (
        load_settings({"SLACK_API_BASE_URL": "http://127.0.0.1:9/api"}).slack_api_base_url
        == "http://127.0.0.1:9/api/"
    )


@pytest.mark.parametrize(
    ("env", "line"),
    [
        ({"UPSTREAM_BASE_URL": "ftp://x"}, "UPSTREAM_BASE_URL: must be an http(s) URL"),
        ({"STATE_URL": "mongodb://x"}, "STATE_URL: must start with memory://"),
        ({"METRICS_PORT": "eighty"}, "METRICS_PORT: Input should be a valid integer"),
        (
            {"DISCORD_SHARD_IDS": "0,one"},
            "DISCORD_SHARD_IDS: must be comma-separated shard numbers",
        ),
        ({"UPSTREAM_MAX_RETRIES": "-1"}, "UPSTREAM_MAX_RETRIES: Input should be greater than"),
    ],
)
def test_a_malformed_variable_is_one_line_naming_it(env: dict[str, str], line: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(env)
    message = str(caught.value)
    assert message.startswith(line)
    assert "\n" not in message


def test_an_unknown_language_is_one_line_listing_those_citebot_speaks() -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings({"CITEBOT_LANGUAGE": "klingon"})
    assert str(caught.value) == (
        "CITEBOT_LANGUAGE: must be one of de, en, es, fr, it, nl, pl, pt_BR, zh_Hans, zh_Hant, "
        "got 'klingon'"
    )


@pytest.mark.parametrize(
    ("value", "language"),
    [
        ("nl", "nl"),
        ("pt-BR", "pt_BR"),
        ("pt_BR.UTF-8", "pt_BR"),
        ("EN", "en"),
        ("xx:de_DE:en", "de"),
        ("zh-CN", "zh_Hans"),
        ("zh-TW", "zh_Hant"),
        ("zh_HK.UTF-8", "zh_Hant"),
    ],
)
def test_a_language_is_read_as_the_catalogue_it_names(value: str, language: str) -> None:
    assert load_settings({"CITEBOT_LANGUAGE": value}).language == language
    assert load_settings({}).language == "en"


def test_a_secret_is_never_echoed_in_an_error() -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings({"DISCORD_TOKEN": "tok-123", "PORT": "99999"})
    assert "PORT" in str(caught.value)
    assert "tok-123" not in str(caught.value)


def test_the_environment_and_a_dotenv_file_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("UPSTREAM_MODEL=from-dotenv\nSTATE_URL=sqlite:///x.db\n")
    monkeypatch.setenv("STATE_URL", "redis://localhost:6379/0")
    settings = load_settings(env_file=str(env_file))
    assert settings.upstream_model == "from-dotenv"
    assert settings.state_url == "redis://localhost:6379/0"  # the environment wins
