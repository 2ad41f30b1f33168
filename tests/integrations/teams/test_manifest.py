"""``citebot manifest teams`` prints an app manifest that the JSON schema Microsoft publishes
accepts (tests/sim/teams/spec, manifest version 1.29), declaring the bot in its three scopes,
its commands, the "Check with sources" message action and the permissions the adapter uses;
without the bot's id or the developer's page it names the variable missing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft4Validator

from config import SettingsError
from integrations.teams.manifest import CHECK_COMMAND, COMMANDS, teams_manifest
from integrations.teams.settings import TeamsSettings

SPEC = Path(__file__).parents[2] / "sim" / "teams" / "spec" / "MicrosoftTeams.schema.json"
APP = "a6f8c1e2-3b4d-4c5e-9f60-718293a4b5c6"
PAGE = "https://citebot.example.org/about"


def _problems(manifest: dict[str, Any]) -> list[str]:
    validator = Draft4Validator(json.loads(SPEC.read_text("utf-8")))
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(manifest)]


def _manifest() -> dict[str, Any]:
    settings = TeamsSettings.load({"TEAMS_APP_ID": APP, "TEAMS_DEVELOPER_URL": PAGE})
    manifest: dict[str, Any] = json.loads(teams_manifest(settings))
    return manifest


def test_the_published_schema_refuses_what_teams_refuses() -> None:
    """The referee referees: a command's title past 32 characters, a bot in a scope Teams
    does not have."""
    manifest = _manifest()
    manifest["composeExtensions"][0]["commands"][0]["title"] = "Check with every source there is!"
    assert _problems(manifest) != []
    manifest = _manifest()
    manifest["bots"][0]["scopes"].append("meeting")
    assert _problems(manifest) != []


def test_the_printed_manifest_is_one_teams_accepts() -> None:
    environment = {**os.environ, "TEAMS_APP_ID": APP, "TEAMS_DEVELOPER_URL": PAGE}
    printed = subprocess.run(
        [sys.executable, "-m", "bot", "manifest", "teams"],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
        timeout=60,
    )
    manifest = json.loads(printed.stdout)
    assert _problems(manifest) == []
    (bot,) = manifest["bots"]
    assert bot["botId"] == APP == manifest["id"]
    assert set(bot["scopes"]) == {"personal", "team", "groupChat"}
    in_groups = next(c for c in bot["commandLists"] if "team" in c["scopes"])
    assert [c["title"] for c in in_groups["commands"]] == list(COMMANDS)
    (action,) = manifest["composeExtensions"][0]["commands"]
    assert (action["id"], action["title"], action["context"]) == (
        CHECK_COMMAND,
        "Check with sources",
        ["message"],
    )
    granted = manifest["authorization"]["permissions"]["resourceSpecific"]
    assert {p["name"] for p in granted} == {"TeamMember.Read.Group", "ChatMember.Read.Chat"}
    assert manifest["developer"]["privacyUrl"] == PAGE
    assert "password" not in printed.stdout.lower()


@pytest.mark.parametrize(
    ("variables", "named"),
    [
        ({"TEAMS_DEVELOPER_URL": PAGE}, "TEAMS_APP_ID"),
        ({"TEAMS_APP_ID": APP}, "TEAMS_DEVELOPER_URL"),
    ],
)
def test_without_the_bot_or_its_page_the_missing_variable_is_named(
    variables: dict[str, str], named: str
) -> None:
    with pytest.raises(SettingsError, match=named):
        teams_manifest(TeamsSettings.load(variables))
