"""``citebot manifest slack``: the app manifest an admin pastes at api.slack.com/apps ("Create
New App", "From an app manifest"), written from Slack's variables as they are, with no token.

It declares everything this package listens to and calls: the bot scopes, the bot events (the
uninstall's two among them), the "Check with sources" message shortcut, ``/citebot`` (and its
``forget-me``), interactivity, the App Home's Home and Messages tabs, and
``features.agent_view`` (the agent messaging experience, the only one new apps may use since
2026). With ``SLACK_REQUEST_URL`` set the app is an HTTP one, every request
URL that address; otherwise it runs in Socket Mode (no public address, ``SLACK_APP_TOKEN``).
A signing secret without an app token asks for HTTP mode, which needs that URL: one line says
so. The manifest's words are English, as Slack shows an app's names to everyone alike.
Checked against the JSON schema Slack publishes (``tests/sim/slack/spec``).
"""

from __future__ import annotations

import json
from typing import Any

from bot.i18n.wording import WORDING
from config import SettingsError
from integrations.slack.admin import COMMAND
from integrations.slack.check import CHECK_CALLBACK
from integrations.slack.forgetting import FORGET_COMMAND
from integrations.slack.settings import SlackSettings

__all__ = ["BOT_EVENTS", "BOT_SCOPES", "slack_manifest"]

BOT_SCOPES = (
    "app_mentions:read",  # app_mention
    "assistant:write",  # suggested prompts and thread titles in the agent view
    "channels:history",  # message.channels: follow-ups, auto-answers; a thread read back
    "chat:write",  # answers, cards, notes; the loading status (setStatus)
    "commands",  # /citebot and the message shortcut
    "groups:history",  # the same in private channels
    "im:history",  # message.im; whether a conversation with citebot is new
    "users:read",  # each person's language, who is an admin, an author's name
)
BOT_EVENTS = (
    "app_context_changed",
    "app_home_opened",
    "app_mention",
    "app_uninstalled",  # the workspace's data deleted; sent only to subscribers
    "message.channels",
    "message.groups",
    "message.im",
    "tokens_revoked",  # the bot token revoked: the same
)
DESCRIPTION = "Answers with sources, inside the places where people already talk."
AGENT_DESCRIPTION = (
    "Ask a question and citebot answers with its sources: every footnote links to the page it "
    "comes from, and each quote is checked on its page."
)


def slack_manifest(environment: SlackSettings) -> str:
    """The manifest as JSON (Slack takes JSON or YAML); :class:`SettingsError` when HTTP mode
    is asked for without ``SLACK_REQUEST_URL``."""
    url = environment.request_url
    if url is None and environment.signing_secret and not environment.app_token:
        raise SettingsError(
            "SLACK_REQUEST_URL: HTTP mode (SLACK_SIGNING_SECRET without SLACK_APP_TOKEN) needs "
            "the public https address of this worker's /slack/events"
        )
    at = {"request_url": url} if url else {}
    command: dict[str, Any] = {
        "command": COMMAND,
        "description": "citebot's settings here (admins); forget-me deletes your data",
        "usage_hint": f"[{FORGET_COMMAND}]",
        "should_escape": False,
    }
    if url:
        command["url"] = url
    manifest = {
        "_metadata": {"major_version": 1, "minor_version": 1},
        "display_information": {"name": "citebot", "description": DESCRIPTION},
        "features": {
            "app_home": {
                "home_tab_enabled": True,
                "messages_tab_enabled": True,
                "messages_tab_read_only_enabled": False,
            },
            "bot_user": {"display_name": "citebot", "always_online": True},
            "agent_view": {"agent_description": AGENT_DESCRIPTION},
            "shortcuts": [
                {
                    "name": WORDING.check_with_sources(),
                    "type": "message",
                    "callback_id": CHECK_CALLBACK,
                    "description": "What do the sources say about this message's claim?",
                }
            ],
            "slash_commands": [command],
        },
        "oauth_config": {"scopes": {"bot": list(BOT_SCOPES)}},
        "settings": {
            "event_subscriptions": {**at, "bot_events": list(BOT_EVENTS)},
            "interactivity": {"is_enabled": True, **at},
            "org_deploy_enabled": False,
            "socket_mode_enabled": url is None,
            "token_rotation_enabled": False,
        },
    }
    return json.dumps(manifest, indent=2, ensure_ascii=False)
