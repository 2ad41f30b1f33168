"""``citebot manifest discord``: what an admin sets up, the links that add citebot to a server or
to an account, and the commands exactly as the worker registers them, which Discord's spec
accepts. It needs no token."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.bot.test_cli import citebot
from tests.integrations.discord.harness import Harness
from tests.sim.discord.schema import body_errors

COMMANDS = "/applications/{application_id}/commands"


def printed(*, env: dict[str, str]) -> tuple[list[str], list[dict[str, Any]]]:
    """The lines before the commands, and the commands."""
    result = citebot("manifest", "discord", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    text, _, commands = result.stdout.partition("\n[")
    return text.split("\n"), json.loads("[" + commands)


def link(lines: list[str], lead: str) -> dict[str, list[str]]:
    [line] = [line for line in lines if line.startswith(lead)]
    url = urlsplit(line.removeprefix(lead).strip())
    assert (url.scheme, url.netloc, url.path) == ("https", "discord.com", "/oauth2/authorize")
    return parse_qs(url.query)


def test_the_links_name_the_scopes_permissions_and_install_types() -> None:
    lines, _ = printed(env={"DISCORD_APPLICATION_ID": "1402270002770000001"})
    server = link(lines, "Add citebot to a server:")
    assert server == {
        "client_id": ["1402270002770000001"],
        "scope": ["applications.commands bot"],
        "permissions": ["309237730304"],
        "integration_type": ["0"],
    }
    account = link(lines, "Add citebot to your account:")
    assert account == {
        "client_id": ["1402270002770000001"],
        "scope": ["applications.commands"],
        "integration_type": ["1"],
    }
    assert "- Installation > Installation Contexts: Guild Install and User Install" in lines
    assert any(
        line.endswith(
            "Message Content Intent: off (DISCORD_MESSAGE_CONTENT=off; turn "
            "both on for follow-ups without a mention)"
        )
        for line in lines
    )


def test_without_an_application_id_the_links_say_where_it_goes() -> None:
    lines, _ = printed(env={"DISCORD_MESSAGE_CONTENT": "on"})
    assert link(lines, "Add citebot to a server:")["client_id"] == ["YOUR_APPLICATION_ID"]
    assert any("Message Content Intent: on" in line for line in lines)


def test_a_bad_application_id_is_one_line_naming_it() -> None:
    result = citebot("manifest", "discord", env={"DISCORD_APPLICATION_ID": "my-bot"})
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "citebot: DISCORD_APPLICATION_ID: must be the application's id (digits), got 'my-bot'"
    )


async def test_the_commands_are_the_workers_and_discords_spec_takes_them(
    harness: Harness,
) -> None:
    _, commands = printed(env={})
    assert body_errors("PUT", COMMANDS, commands) == {}
    [synced] = harness.sim.requests_to(f"PUT {COMMANDS}")
    assert synced.status == 200
    assert synced.json == commands
    assert [command["name"] for command in commands] == [
        "ask",
        "citebot",
        "Check with sources",
        "Check with sources privately",
    ]
    [citebot_command] = [c for c in commands if c["name"] == "citebot"]
    settings, answers, report, forget_me = citebot_command["options"]
    assert [option["name"] for option in settings["options"]] == ["show", "set", "unset", "history"]
    assert [option["name"] for option in answers["options"]] == ["list", "add", "remove"]
    assert (report["name"], report["type"], forget_me["name"], forget_me["type"]) == (
        "report",
        1,
        "forget-me",
        1,
    )
    [period] = report["options"]
    assert [(c["name"], c["value"]) for c in period["choices"]] == [
        ("today (UTC)", "today"),
        ("last 7 days", "7d"),
        ("last 30 days", "30d"),
    ]
    assert citebot_command.get("default_member_permissions") is None  # forget-me is everyone's
