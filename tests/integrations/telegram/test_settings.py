"""Telegram's own variables: what starts it, where the Bot API is, polling or a webhook (and its
secret, the same in every worker without another setting), the allowlist; a bad one named in one
line that never shows a secret."""

from __future__ import annotations

import pytest

from config import SettingsError
from integrations.telegram.settings import TelegramSettings

TOKEN = "123456789:AAHsimulatedTelegramBotTokenForTests0"


def test_the_token_starts_it_and_the_api_is_telegrams_unless_told_otherwise() -> None:
    assert not TelegramSettings.load({}).configured
    assert not TelegramSettings.load({"TELEGRAM_BOT_TOKEN": " "}).configured  # blank: unset
    settings = TelegramSettings.load({"TELEGRAM_BOT_TOKEN": f" {TOKEN} "})
    assert settings.configured
    assert settings.bot_token is not None
    assert settings.bot_token.get_secret_value() == TOKEN
    assert settings.api_base_url == "https://api.telegram.org"
    assert settings.mode == "polling"
    local = TelegramSettings.load({"TELEGRAM_API_BASE_URL": "http://127.0.0.1:8081/"})
    assert local.api_base_url == "http://127.0.0.1:8081"


def test_a_webhook_listens_at_its_path_with_a_secret_every_worker_derives_alike() -> None:
    env = {"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_WEBHOOK_URL": "https://bot.example/tg/updates"}
    one, other = TelegramSettings.load(env), TelegramSettings.load(env)
    assert (one.mode, one.webhook_path, one.webhook_port) == ("webhook", "/tg/updates", 8443)
    assert one.secret == other.secret
    assert len(one.secret) == 64
    assert TOKEN.split(":")[1] not in one.secret
    another_bot = TelegramSettings.load({**env, "TELEGRAM_BOT_TOKEN": TOKEN[:-1] + "1"})
    assert another_bot.secret != one.secret
    chosen = TelegramSettings.load({**env, "TELEGRAM_WEBHOOK_SECRET": "parish_hook-1"})
    assert chosen.secret == "parish_hook-1"


def test_the_allowlist_holds_chat_ids() -> None:
    settings = TelegramSettings.load({"TELEGRAM_CHAT_ALLOWLIST": "-1001234567890, 42 ,"})
    assert settings.allowed_servers == ("-1001234567890", "42")
    assert settings.allowed_channels == ()


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"TELEGRAM_BOT_TOKEN": "secret-but-wrong"}, "TELEGRAM_BOT_TOKEN: must be the token"),
        ({"TELEGRAM_API_BASE_URL": "ftp://x"}, "TELEGRAM_API_BASE_URL: must be an http(s) URL"),
        ({"TELEGRAM_WEBHOOK_URL": "bot.example"}, "TELEGRAM_WEBHOOK_URL: must be an http(s) URL"),
        ({"TELEGRAM_WEBHOOK_PORT": "70000"}, "TELEGRAM_WEBHOOK_PORT: "),
        ({"TELEGRAM_WEBHOOK_SECRET": "no/slashes"}, "TELEGRAM_WEBHOOK_SECRET: must be 1-256"),
    ],
)
def test_a_bad_setting_is_one_line_naming_it_without_its_secret(
    env: dict[str, str], said: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        TelegramSettings.load(env)
    assert str(caught.value).startswith(said)
    assert "\n" not in str(caught.value)
    assert "secret-but-wrong" not in str(caught.value)
    assert "no/slashes" not in str(caught.value)


def test_a_webhook_without_a_token_is_named() -> None:
    problem = TelegramSettings.load({"TELEGRAM_WEBHOOK_URL": "https://bot.example/t"}).missing()
    assert problem is not None
    assert problem.startswith("TELEGRAM_BOT_TOKEN is missing")
