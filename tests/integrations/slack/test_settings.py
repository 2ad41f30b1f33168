"""Slack's own variables: which mode its tokens select, what a half-made configuration lacks,
and a bad one named in one line."""

from __future__ import annotations

import pytest

from config import SettingsError
from integrations.slack.settings import SlackSettings


def test_the_tokens_select_socket_mode_or_http_mode() -> None:
    assert SlackSettings.load({}).mode is None
    assert SlackSettings.load({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}).mode == (
        "socket"
    )
    http = SlackSettings.load({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"})
    assert (http.mode, http.configured) == ("http", True)
    base = SlackSettings.load({"SLACK_API_BASE_URL": "http://127.0.0.1:9/api"}).api_base_url
    assert base == "http://127.0.0.1:9/api/"
    assert SlackSettings.load({}).api_base_url == "https://slack.com/api/"


@pytest.mark.parametrize(
    ("env", "missing"),
    [
        ({"SLACK_BOT_TOKEN": "xoxb-1"}, "neither SLACK_APP_TOKEN (Socket Mode) nor"),
        ({"SLACK_APP_TOKEN": "xapp-1"}, "SLACK_BOT_TOKEN is missing"),
        ({"SLACK_BOT_TOKEN": " ", "SLACK_APP_TOKEN": " "}, None),  # blank: not set at all
    ],
)
def test_a_half_made_configuration_names_what_it_lacks(
    env: dict[str, str], missing: str | None
) -> None:
    problem = SlackSettings.load(env).missing()
    assert problem == missing if missing is None else missing in str(problem)


def test_a_mistyped_url_is_named_without_the_credentials_it_carries() -> None:
    with pytest.raises(SettingsError) as caught:
        SlackSettings.load({"SLACK_API_BASE_URL": "wss://proxy:xoxb-123@slack.example.com/api/"})
    assert str(caught.value) == (
        "SLACK_API_BASE_URL: must be an http(s) URL, got 'wss://…@slack.example.com/api/'"
    )


def test_admin_users_and_the_request_url_are_read() -> None:
    read = SlackSettings.load(
        {
            "SLACK_ADMIN_USERS": " U0ANNA, ,U0BEN ",
            "SLACK_REQUEST_URL": "https://citebot.example.org/slack/events",
        }
    )
    assert read.admin_users == ("U0ANNA", "U0BEN")
    assert read.request_url == "https://citebot.example.org/slack/events"
    assert SlackSettings.load({}).admin_users == ()
    with pytest.raises(SettingsError) as caught:
        SlackSettings.load({"SLACK_REQUEST_URL": "citebot.example.org/slack/events"})
    assert str(caught.value).startswith("SLACK_REQUEST_URL: must be an http(s) URL")
