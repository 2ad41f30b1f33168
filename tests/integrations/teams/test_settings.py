"""Teams' own variables: the app id starts it (with its secret, unless authentication is off
for an emulator), each worker listens on TEAMS_PORT, the Bot Framework's keys and the bot's
tokens come from Microsoft's clouds unless told otherwise (a tenant for a single-tenant bot);
a bad one named in one line that never shows the secret."""

from __future__ import annotations

import pytest

from bot.platforms import load_platform
from config import SettingsError
from integrations.teams.settings import TeamsSettings

APP = "A6F8C1E2-3B4D-4C5E-9F60-718293A4B5C6"
SECRET = "a-client-secret~that.must_never-show"


def test_the_app_id_with_its_secret_starts_it_on_microsofts_clouds() -> None:
    assert not TeamsSettings.load({}).configured
    settings = TeamsSettings.load({"TEAMS_APP_ID": f" {APP} ", "TEAMS_APP_PASSWORD": SECRET})
    assert settings.configured
    assert settings.missing() is None
    assert settings.app_id == APP.lower()
    assert (settings.port, settings.auth) == (3978, True)
    assert (
        settings.openid_url == "https://login.botframework.com/v1/.well-known/openidconfiguration"
    )
    assert settings.token_url == "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token"
    assert settings.bot_tenant == "botframework.com"
    single = TeamsSettings.load(
        {"TEAMS_APP_ID": APP, "TEAMS_APP_PASSWORD": SECRET, "TEAMS_TENANT_ID": "contoso.example"}
    )
    assert single.bot_tenant == "contoso.example"


def test_a_half_made_configuration_names_what_it_lacks() -> None:
    assert TeamsSettings.load({"TEAMS_APP_ID": APP}).missing() == (
        "TEAMS_APP_PASSWORD is missing (TEAMS_APP_ID is set and TEAMS_AUTH is on)"
    )
    assert TeamsSettings.load({"TEAMS_APP_PASSWORD": SECRET}).missing() == (
        "TEAMS_APP_ID is missing (TEAMS_APP_PASSWORD or TEAMS_TENANT_ID is set)"
    )
    emulator = TeamsSettings.load({"TEAMS_APP_ID": APP, "TEAMS_AUTH": "off"})
    assert (emulator.auth, emulator.missing()) == (False, None)


@pytest.mark.parametrize(
    ("variables", "line"),
    [
        ({"TEAMS_APP_ID": "citebot"}, "TEAMS_APP_ID: must be the bot's Microsoft app id, a GUID"),
        ({"TEAMS_PORT": "0"}, "TEAMS_PORT: Input should be greater than or equal to 1 (got '0')"),
        (
            {"TEAMS_AUTH": "maybe"},
            "TEAMS_AUTH: must be on or off (or true/false, 1/0), got 'maybe'",
        ),
        (
            {"TEAMS_TOKEN_URL": "ftp://login.example/token"},
            "TEAMS_TOKEN_URL: must be an http(s) URL, got 'ftp://login.example/token'",
        ),
    ],
)
def test_a_bad_value_is_one_line_naming_its_variable(variables: dict[str, str], line: str) -> None:
    with pytest.raises(SettingsError) as error:
        TeamsSettings.load({"TEAMS_APP_PASSWORD": SECRET, **variables})
    assert str(error.value) == line
    assert SECRET not in str(error.value)


def test_the_registry_has_teams_but_the_worker_does_not_run_it_yet() -> None:
    teams = load_platform("teams")
    assert teams.environment is TeamsSettings
    assert not teams.runs
    assert teams.presenter().name == "teams"
