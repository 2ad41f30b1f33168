"""Registering the commands with Discord, and only when what Discord has differs from ours.

Discord allows about 200 command creations a day per guild, so a worker that restarts often
must not sync on every boot: it compares the registered commands (a GET, which is free; asked
with their whole localization dictionaries) with the local definitions and PUTs only on a
difference. ``citebot sync-commands`` forces a PUT. The payloads are the ones ``citebot manifest
discord`` prints.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from integrations.discord.commands import localized_names
from integrations.discord.wire import DiscordWire

log = logging.getLogger(__name__)

__all__ = ["command_payloads", "sync_commands_now", "sync_if_changed"]


def command_payloads(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """Every command as Discord's bulk overwrite takes it, message commands named in every
    language citebot speaks."""
    payloads = []
    for command in tree.get_commands():
        payload = command.to_dict(tree)
        names = localized_names(command.name)
        if names:
            payload["name_localizations"] = names
        payloads.append(payload)
    return payloads


def _shape(commands: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    """What makes two command lists the same for Discord users (ids and versions aside)."""

    def options(items: Sequence[Mapping[str, Any]]) -> tuple[Any, ...]:
        return tuple(
            (
                o["name"],
                o["type"],
                o.get("description", ""),
                bool(o.get("required")),
                tuple((c["name"], c["value"]) for c in o.get("choices") or ()),
                options(o.get("options") or []),
            )
            for o in items
        )

    def permissions(value: object) -> str | None:
        return None if value is None else str(value)

    return sorted(
        (
            c["name"],
            c.get("type") or 1,
            c.get("description") or "",
            tuple(sorted((c.get("name_localizations") or {}).items())),
            tuple(sorted(c.get("integration_types") or [0])),
            tuple(sorted(c.get("contexts") or [0, 1, 2])),
            permissions(c.get("default_member_permissions")),
            options(c.get("options") or []),
        )
        for c in commands
    )


async def sync_commands_now(client: discord.Client, tree: app_commands.CommandTree[Any]) -> int:
    """Register every command, whatever Discord has; how many."""
    assert client.application_id is not None
    local = command_payloads(tree)
    await client.http.bulk_upsert_global_commands(client.application_id, payload=local)
    log.info("commands synced: %s", ", ".join(c["name"] for c in local))
    return len(local)


async def sync_if_changed(
    client: discord.Client, tree: app_commands.CommandTree[Any], wire: DiscordWire
) -> bool:
    """Sync the global commands when they differ from Discord's; True when it synced."""
    assert client.application_id is not None
    remote = await wire.commands(client.application_id)
    if _shape(command_payloads(tree)) == _shape(remote):
        log.info("commands unchanged; not syncing")
        return False
    await sync_commands_now(client, tree)
    return True
