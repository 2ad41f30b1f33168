"""``citebot manifest teams``: the Teams app manifest (``manifest.json``) an admin zips with two
icons and uploads (Developer Portal, the Teams CLI's ``teams app create`` and ``update``, or a
tenant's admin center), written from Teams' variables as they are, with no secret.

It declares what the adapter serves: the bot (personal chats, teams, group chats) with its
commands, the "Check with sources" message action (a message extension command in the
``message`` context: a message's "..." menu), and the resource-specific permissions a team's
owner (or a chat's member) grants at install so the bot may read who owns a team
(``TeamMember.Read.Group``) and who is in a chat (``ChatMember.Read.Chat``) through Microsoft
Graph, since the Bot Framework's roster does not say. ``validDomains`` is empty: citebot opens
no tab or web dialog. The words are English. Checked against the JSON schema Microsoft
publishes (``tests/sim/teams/spec``).
"""

from __future__ import annotations

import json
from importlib.metadata import version
from typing import Any

from bot.i18n.wording import WORDING
from config import SettingsError
from integrations.teams.settings import TeamsSettings

__all__ = ["CHECK_COMMAND", "COMMANDS", "MANIFEST_VERSION", "teams_manifest"]

MANIFEST_VERSION = "1.29"
CHECK_COMMAND = "checkWithSources"
"""The message action's ``commandId``, as the bot's invokes carry it."""
COMMANDS = ("help", "settings", "report", "forget-me")
"""The bot's commands, as a person writes them after a mention (or alone in a personal
chat)."""
SHORT = "Answers with sources"
FULL = (
    "Ask citebot a question and it answers with its sources: every [n] in the answer opens the "
    "passage it stands for, checked on its page. In a personal chat the answer streams; in a "
    'channel or group chat, mention citebot. Use "Check with sources" on any message to check '
    "what it says."
)


def teams_manifest(environment: TeamsSettings) -> str:
    """The manifest as JSON; :class:`SettingsError` when ``TEAMS_APP_ID`` (the bot's id, which
    the manifest names) or ``TEAMS_DEVELOPER_URL`` (the support, privacy and terms page every
    Teams app links) is missing."""
    if environment.app_id is None:
        raise SettingsError("TEAMS_APP_ID: the manifest names the bot by its Microsoft app id")
    if environment.developer_url is None:
        raise SettingsError(
            "TEAMS_DEVELOPER_URL: every Teams app links a page about it (support, privacy, "
            "terms of use)"
        )
    app, page = environment.app_id, environment.developer_url
    words = WORDING
    described = {
        "help": words.help_command(),
        "settings": words.settings_command(),
        "report": words.report_command(),
        "forget-me": words.forget_me_command(),
    }

    def commands(*names: str) -> list[dict[str, str]]:
        return [{"title": name, "description": described[name]} for name in names]

    manifest: dict[str, Any] = {
        "$schema": (
            "https://developer.microsoft.com/json-schemas/teams/"
            f"v{MANIFEST_VERSION}/MicrosoftTeams.schema.json"
        ),
        "manifestVersion": MANIFEST_VERSION,
        "version": _semver(version("citebot")),
        "id": app,
        "developer": {
            "name": "citebot",
            "websiteUrl": page,
            "privacyUrl": page,
            "termsOfUseUrl": page,
        },
        "name": {"short": "citebot", "full": "citebot: answers with sources"},
        "description": {"short": SHORT, "full": FULL},
        "icons": {"color": "color.png", "outline": "outline.png"},
        "accentColor": "#4464EE",
        "bots": [
            {
                "botId": app,
                "scopes": ["personal", "team", "groupChat"],
                "isNotificationOnly": False,
                "supportsFiles": False,
                "commandLists": [
                    {"scopes": ["personal"], "commands": commands("help", "forget-me")},
                    {"scopes": ["team", "groupChat"], "commands": commands(*COMMANDS)},
                ],
            }
        ],
        "composeExtensions": [
            {
                "botId": app,
                "commands": [
                    {
                        "id": CHECK_COMMAND,
                        "type": "action",
                        "title": words.check_with_sources(),
                        "description": "Check what a message says against the sources",
                        "context": ["message"],
                        "fetchTask": True,
                    }
                ],
            }
        ],
        "permissions": ["identity", "messageTeamMembers"],
        "validDomains": [],
        "webApplicationInfo": {"id": app, "resource": f"api://botid-{app}"},
        "authorization": {
            "permissions": {
                "resourceSpecific": [
                    {"name": "TeamMember.Read.Group", "type": "Application"},
                    {"name": "ChatMember.Read.Chat", "type": "Application"},
                ]
            }
        },
    }
    return json.dumps(manifest, indent=2, ensure_ascii=False)


def _semver(installed: str) -> str:
    """The distribution's version as Teams takes it: three numbers (``0.1.0.dev3`` is
    ``0.1.0``)."""
    numbers = ["".join(c for c in part if c.isdigit()) or "0" for part in installed.split(".")[:3]]
    return ".".join([*numbers, "0", "0"][:3])
