"""The slash commands, and syncing them only when what Discord has differs from ours.

Discord allows about 200 command creations a day per guild, so a worker that restarts often
must not sync on every boot: it compares the registered commands (a GET, which is free) with
the local definitions and PUTs only on a difference. ``citebot sync-commands`` forces a PUT.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

__all__ = ["AskHandler", "add_ask_command", "sync_if_changed"]

AskHandler = Callable[[discord.Interaction, str, bool | None], Awaitable[None]]
"""Given the question and whether the asker chose a private answer (None: they did not say)."""


def add_ask_command(tree: app_commands.CommandTree[Any], handler: AskHandler) -> None:
    """``/ask question:<text> private:<bool>``, answered by ``handler``."""

    @tree.command(name="ask", description="Ask a question; the answer cites its sources")
    @app_commands.describe(
        question="What you want to know",
        private="Only you see the answer (no thread); by default as this server's admins chose",
    )
    async def ask(
        interaction: discord.Interaction, question: str, private: bool | None = None
    ) -> None:
        await handler(interaction, question, private)

    del ask


def _shape(commands: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What makes two command lists the same for Discord users (ids and versions aside)."""

    def options(items: list[dict[str, Any]]) -> tuple[Any, ...]:
        return tuple(
            (
                o["name"],
                o["type"],
                o.get("description", ""),
                bool(o.get("required")),
                options(o.get("options") or []),
            )
            for o in items
        )

    return sorted(
        (c["name"], c.get("type", 1), c.get("description", ""), options(c.get("options") or []))
        for c in commands
    )


async def sync_if_changed(client: discord.Client, tree: app_commands.CommandTree[Any]) -> bool:
    """Sync the global commands when they differ from Discord's; True when it synced."""
    assert client.application_id is not None
    local = [command.to_dict(tree) for command in tree.get_commands()]
    remote = await client.http.get_global_commands(client.application_id)
    if _shape(local) == _shape(list(remote)):  # type: ignore[arg-type]
        log.info("slash commands unchanged; not syncing")
        return False
    await tree.sync()
    log.info("slash commands synced (%d)", len(local))
    return True
