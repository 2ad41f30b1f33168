"""A cards message Discord refuses (400): which of its embeds it names, so that only those
are left out and the other cards still go (and are edited later on the same terms)."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

import discord

from bot.render.ports import Payload

__all__ = ["log_refused", "part", "refused_embeds"]

log = logging.getLogger(__name__)

_REFUSED_EMBED = re.compile(r"^In embeds\.([0-9]+)\b", re.MULTILINE)


def part(payload: Payload, embeds: list[int]) -> Payload:
    """``payload`` with only the embeds at these indexes (all of a payload without embeds)."""
    if "embeds" not in payload:
        return payload
    return {**payload, "embeds": [payload["embeds"][index] for index in embeds]}


def refused_embeds(error: discord.HTTPException, count: int) -> set[int]:
    """The embeds a 400 names (``errors.embeds.N`` of a 50035 body, as discord.py words it:
    ``In embeds.N.url: ...``); empty when it names none, or one the message did not have."""
    named = {int(index) for index in _REFUSED_EMBED.findall(error.text)}
    return named if named and max(named) < count else set()


def log_refused(embeds: Sequence[Payload], error: discord.HTTPException) -> None:
    for embed in embeds:
        log.warning(
            "Discord refused the card %r (%s %s): %s",
            embed.get("title"),
            error.status,
            error.code,
            error.text.replace("\n", " "),
        )
