"""Discord's own variables: read from the environment, a bad one is one line naming it."""

from __future__ import annotations

import pytest

from config import SettingsError
from integrations.discord.settings import DiscordSettings


def test_discord_runs_when_its_token_is_set_and_talks_to_discord_by_default() -> None:
    assert not DiscordSettings.load({}).configured
    settings = DiscordSettings.load(
        {"DISCORD_TOKEN": "Bot-s3cr3t", "DISCORD_GUILD_ALLOWLIST": "1, 2,"}
    )
    assert settings.configured
    assert settings.api_base_url == "https://discord.com/api/v10"
    assert settings.allowed_servers == ("1", "2")
    assert "s3cr3t" not in repr(settings)


@pytest.mark.parametrize(
    ("env", "line", "secret"),
    [
        (
            {"DISCORD_SHARD_IDS": "0,one"},
            "DISCORD_SHARD_IDS: must be comma-separated shard numbers, got 'one'",
            None,
        ),
        (
            {"DISCORD_API_BASE_URL": "discord.example.com:x/api?token=tok-123"},
            "DISCORD_API_BASE_URL: must be an http(s) URL, got 'discord.example.com:x/api?…'",
            "tok-123",
        ),
        (
            {"DISCORD_TOKEN": "tok-123", "DISCORD_SHARD_COUNT": "many"},
            "DISCORD_SHARD_COUNT: Input should be a valid integer",
            "tok-123",
        ),
    ],
)
def test_a_bad_variable_is_one_line_naming_it_without_secrets(
    env: dict[str, str], line: str, secret: str | None
) -> None:
    with pytest.raises(SettingsError) as caught:
        DiscordSettings.load(env)
    assert str(caught.value).startswith(line)
    assert "\n" not in str(caught.value)
    assert secret is None or secret not in str(caught.value)


def test_the_message_content_intent_is_off_unless_switched_on() -> None:
    assert not DiscordSettings.load({}).message_content
    assert DiscordSettings.load({"DISCORD_MESSAGE_CONTENT": "on"}).message_content
    with pytest.raises(SettingsError) as caught:
        DiscordSettings.load({"DISCORD_MESSAGE_CONTENT": "sometimes"})
    assert str(caught.value) == (
        "DISCORD_MESSAGE_CONTENT: must be on or off (or true/false, 1/0), got 'sometimes'"
    )
