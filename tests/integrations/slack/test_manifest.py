"""``citebot manifest slack`` prints an app manifest that the JSON schema Slack publishes
accepts (tests/sim/slack/spec, slackapi/manifest-schema 0.5.0), in Socket Mode or with request
URLs from the variables as they are, and declares everything the app listens to and calls, as
the simulator models the app."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator
from referencing import Registry, Resource

from config import SettingsError
from integrations.slack.manifest import BOT_EVENTS, BOT_SCOPES, slack_manifest
from integrations.slack.settings import SlackSettings
from tests.sim.slack.webapi import BOT_EVENTS as SIMULATED_EVENTS
from tests.sim.slack.webapi import BOT_SCOPES as SIMULATED_SCOPES

SPEC = Path(__file__).parents[2] / "sim" / "slack" / "spec"
PUBLISHED = "https://raw.githubusercontent.com/slackapi/manifest-schema/v0.5.0/schemas/"
URL = "https://citebot.example.org/slack/events"


def _validator() -> Draft7Validator:
    registry: Registry[Any] = Registry().with_resources(
        (PUBLISHED + name, Resource.from_contents(json.loads((SPEC / name).read_text())))
        for name in ("manifest.schema.1.0.0.json", "manifest.schema.2.0.0.json")
    )
    schema = json.loads((SPEC / "manifest.schema.json").read_text())
    return Draft7Validator(schema, registry=registry)


def _problems(manifest: dict[str, Any]) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in _validator().iter_errors(manifest)]


def test_the_published_schema_refuses_what_slack_refuses() -> None:
    """The referee referees: a shortcut's name past 24 characters is refused."""
    manifest = json.loads(slack_manifest(SlackSettings.load({})))
    manifest["features"]["shortcuts"][0]["name"] = "Check with every source there is"
    assert _problems(manifest) != []


def test_the_socket_mode_manifest_is_one_slack_accepts() -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "bot", "manifest", "slack"],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "", "SLACK_BOT_TOKEN": "", "HOME": str(SPEC)},
        cwd=SPEC,
    )
    manifest = json.loads(printed.stdout)
    assert _problems(manifest) == []
    assert manifest["settings"]["socket_mode_enabled"] is True
    assert "request_url" not in manifest["settings"]["event_subscriptions"]
    features = manifest["features"]
    assert "agent_view" in features
    assert "assistant_view" not in features
    assert features["app_home"]["home_tab_enabled"]
    assert features["app_home"]["messages_tab_enabled"]
    [shortcut] = features["shortcuts"]
    assert (shortcut["type"], shortcut["callback_id"]) == ("message", "citebot_check")
    assert [c["command"] for c in features["slash_commands"]] == ["/citebot"]
    assert manifest["settings"]["interactivity"]["is_enabled"] is True


def test_with_a_request_url_every_request_goes_there() -> None:
    environment = SlackSettings.load(
        {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "SLACK_REQUEST_URL": URL}
    )
    manifest = json.loads(slack_manifest(environment))
    assert _problems(manifest) == []
    settings = manifest["settings"]
    assert settings["socket_mode_enabled"] is False
    assert settings["event_subscriptions"]["request_url"] == URL
    assert settings["interactivity"]["request_url"] == URL
    assert manifest["features"]["slash_commands"][0]["url"] == URL
    assert "xoxb-1" not in json.dumps(manifest)


def test_http_mode_without_its_url_is_one_line_naming_the_variable() -> None:
    environment = SlackSettings.load({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"})
    with pytest.raises(SettingsError) as caught:
        slack_manifest(environment)
    assert str(caught.value).startswith("SLACK_REQUEST_URL: HTTP mode")


def test_the_manifest_declares_what_the_simulated_app_is_given() -> None:
    """The simulator sends the app the events, and grants it the scopes, that its manifest
    asks for: the tests run the app Slack would run."""
    assert frozenset(BOT_EVENTS) == SIMULATED_EVENTS
    assert frozenset(BOT_SCOPES) == SIMULATED_SCOPES
