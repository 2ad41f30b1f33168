"""``citebot manifest discord``: what an admin sets up in Discord's Developer Portal, the links
that add citebot to a server or to one's account, and the commands as the worker registers
them. Needs no token: read from the variables as they are (``DISCORD_APPLICATION_ID`` names the
application in the links; without it they say where to put it)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import discord

from integrations.discord.commands import declared_tree
from integrations.discord.settings import DiscordSettings
from integrations.discord.syncing import command_payloads

__all__ = ["PERMISSIONS", "install_url", "manifest"]

_PERMISSIONS = {
    "View Channels": "view_channel",
    "Send Messages": "send_messages",
    "Send Messages in Threads": "send_messages_in_threads",
    "Create Public Threads": "create_public_threads",
    "Embed Links": "embed_links",
    "Read Message History": "read_message_history",
}
PERMISSIONS = discord.Permissions(**dict.fromkeys(_PERMISSIONS.values(), True))
"""What the bot does in a server: reads its channels and threads, answers, opens a thread on
an answer for its cards (embeds), and reads a thread back for a follow-up (as the Developer
Portal names them)."""
AUTHORIZE = "https://discord.com/oauth2/authorize"
PLACEHOLDER = "YOUR_APPLICATION_ID"


def install_url(application_id: str, *, to_user: bool) -> str:
    """The link that adds the app to a server (``integration_type`` 0: the bot and its
    commands, with :data:`PERMISSIONS`) or to a person's account (1: the commands alone)."""
    if to_user:
        mine = {"client_id": application_id, "scope": "applications.commands"}
        return f"{AUTHORIZE}?{urlencode({**mine, 'integration_type': 1})}"
    query: dict[str, str | int] = {
        "client_id": application_id,
        "scope": "applications.commands bot",
        "permissions": PERMISSIONS.value,
        "integration_type": 0,
    }
    return f"{AUTHORIZE}?{urlencode(query)}"


def manifest(environment: DiscordSettings) -> str:
    application = environment.application_id or PLACEHOLDER
    named = ", ".join(_PERMISSIONS)
    intent = (
        "on (DISCORD_MESSAGE_CONTENT=on: follow-ups without a mention, forum posts answered)"
        if environment.message_content
        else "off (DISCORD_MESSAGE_CONTENT=off; turn both on for follow-ups without a mention)"
    )
    lines = [
        "In the Developer Portal (https://discord.com/developers/applications), your app:",
        "- Installation > Installation Contexts: Guild Install and User Install",
        f"- Installation > Guild Install: scopes applications.commands and bot; permissions "
        f"{PERMISSIONS.value} ({named})",
        "- Installation > User Install: scope applications.commands",
        f"- Bot > Privileged Gateway Intents > Message Content Intent: {intent}",
        "",
        f"Add citebot to a server: {install_url(application, to_user=False)}",
        f"Add citebot to your account: {install_url(application, to_user=True)}",
    ]
    if environment.application_id is None:
        lines.append(
            f"({PLACEHOLDER}: set DISCORD_APPLICATION_ID, or read it in General Information)"
        )
    lines += [
        "",
        "The commands (the worker registers them when they change; citebot sync-commands now),",
        f"as PUT /applications/{application}/commands takes them:",
        json.dumps(command_payloads(declared_tree()), indent=2, ensure_ascii=False),
    ]
    return "\n".join(lines)
