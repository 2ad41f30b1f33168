"""Settings: defaults, the alias, and one-line errors that name the variable."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from config import SettingsError, load_settings
from config.hosts import HostPort


def test_defaults_follow_the_contract(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("STATE_URL")  # the suite's own (tests/conftest.py)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    settings = load_settings({})
    assert settings.upstream_base_url == "https://www.magisterium.com/api/v1"
    assert settings.upstream_model == "magisterium-1"
    assert settings.state_url == f"sqlite:///{tmp_path / 'citebot' / 'state.sqlite3'}"
    assert settings.upstream_api_key is None
    assert (settings.upstream_system_tokens, settings.upstream_prices) == (None, None)


def test_prices_are_three_amounts_and_anything_else_is_one_line() -> None:
    prices = load_settings({"UPSTREAM_PRICES": " 0.50, 0.70 ,2 "}).upstream_prices
    assert prices == (Decimal("0.50"), Decimal("0.70"), Decimal(2))
    for wrong in ("0.5,2", "a,b,c", "1,2,-3", "1,nan,2", "1,2,20000"):
        with pytest.raises(SettingsError) as refused:
            load_settings({"UPSTREAM_PRICES": wrong})
        assert str(refused.value).startswith("UPSTREAM_PRICES: write INPUT,SYSTEM,OUTPUT")


def test_the_magisterium_alias_sets_the_key_and_never_prints_it() -> None:
    settings = load_settings({"MAGISTERIUM_API_KEY": "sk-live-abc"})
    assert settings.upstream_api_key is not None
    assert settings.upstream_api_key.get_secret_value() == "sk-live-abc"
    assert "sk-live-abc" not in repr(settings)
    assert "sk-live-abc" not in str(settings.model_dump())


def test_demo_mode() -> None:
    assert load_settings({"UPSTREAM_BASE_URL": "DEMO"}).uses_demo


@pytest.mark.parametrize(
    ("env", "line"),
    [
        ({"UPSTREAM_BASE_URL": "ftp://x"}, "UPSTREAM_BASE_URL: must be an http(s) URL"),
        ({"STATE_URL": "mongodb://x"}, "STATE_URL: must start with memory://"),
        ({"METRICS_PORT": "eighty"}, "METRICS_PORT: Input should be a valid integer"),
        ({"UPSTREAM_MAX_RETRIES": "-1"}, "UPSTREAM_MAX_RETRIES: Input should be greater than"),
        (
            {"QUOTE_CHECK": "maybe"},
            "QUOTE_CHECK: must be on or off (or true/false, 1/0), got 'maybe'",
        ),
        (
            {"QUOTE_CHECK_ALLOW_HOSTS": "intranet.local, wiki:http"},
            "QUOTE_CHECK_ALLOW_HOSTS: the port of 'wiki:http' must be a number from 1 to 65535",
        ),
        (
            {"QUOTE_CHECK_ALLOW_HOSTS": "http://wiki/"},
            "QUOTE_CHECK_ALLOW_HOSTS: write host or host:port",
        ),
        (
            {"QUOTE_CHECK_ALLOW_HOSTS": "wiki_pages"},
            "QUOTE_CHECK_ALLOW_HOSTS: not a host name or IP address: 'wiki_pages'",
        ),
    ],
)
def test_a_malformed_variable_is_one_line_naming_it(env: dict[str, str], line: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(env)
    message = str(caught.value)
    assert message.startswith(line)
    assert "\n" not in message


@pytest.mark.parametrize(
    ("value", "on"),
    [("on", True), ("OFF", False), ("true", True), ("False", False), ("1", True), ("0", False)],
)
def test_quote_checking_is_on_unless_switched_off(value: str, on: bool) -> None:
    assert load_settings({}).quote_check is True
    assert load_settings({"QUOTE_CHECK": value}).quote_check is on


def test_quote_checking_reads_hosts_and_host_ports_it_may_fetch_despite_a_private_address() -> None:
    assert load_settings({}).quote_check_allow_hosts == ()
    settings = load_settings(
        {"QUOTE_CHECK_ALLOW_HOSTS": " Wiki.Intranet , 127.0.0.1:8123,[::1]:9000, fd00::5 ,"}
    )
    assert settings.quote_check_allow_hosts == (
        HostPort("wiki.intranet"),
        HostPort("127.0.0.1", 8123),
        HostPort("::1", 9000),
        HostPort("fd00::5"),
    )


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


@pytest.mark.parametrize(
    ("env", "line", "secret"),
    [
        (
            {"STATE_URL": "rediss//:hunter2@redis.example.com:6379/0"},
            "STATE_URL: must start with memory://, sqlite:/// or redis://, got '…'",
            "hunter2",
        ),
        (
            {"STATE_URL": "redis+tls://default:hunter2@redis.example.com:6380/0"},
            "STATE_URL: must start with memory://, sqlite:/// or redis://, got "
            "'redis+tls://…@redis.example.com:6380/0'",
            "hunter2",
        ),
        (
            {"UPSTREAM_BASE_URL": "htps://user:sk-live-123@api.example.com/v1"},
            "UPSTREAM_BASE_URL: must be an http(s) URL, got 'htps://…@api.example.com/v1'",
            "sk-live-123",
        ),
        (
            {"UPSTREAM_BASE_URL": "api.example.com/v1?key=sk-live-123"},
            "UPSTREAM_BASE_URL: must be an http(s) URL, got '…'",
            "sk-live-123",
        ),
    ],
)
def test_a_mistyped_url_is_named_without_the_credentials_it_carries(
    env: dict[str, str], line: str, secret: str
) -> None:
    """The operator reads which variable is wrong and what it looks like, never its password
    or key: error lines end up in deploy logs."""
    with pytest.raises(SettingsError) as caught:
        load_settings(env)
    assert str(caught.value) == line
    assert secret not in str(caught.value)


def test_the_caps_on_one_answer_have_defaults_and_are_read() -> None:
    settings = load_settings({})
    assert (settings.max_answer_messages, settings.max_cards) == (10, 20)
    assert settings.upstream_max_event_bytes == 1024 * 1024
    assert settings.state_timeout_seconds == 2.0
    read = load_settings(
        {
            "MAX_ANSWER_MESSAGES": "3",
            "MAX_CARDS": "5",
            "UPSTREAM_MAX_EVENT_BYTES": "65536",
            "STATE_TIMEOUT_SECONDS": "0.5",
        }
    )
    assert (read.max_answer_messages, read.max_cards) == (3, 5)
    assert (read.upstream_max_event_bytes, read.state_timeout_seconds) == (65536, 0.5)
    with pytest.raises(SettingsError, match=r"^MAX_CARDS: Input should be greater than"):
        load_settings({"MAX_CARDS": "0"})
