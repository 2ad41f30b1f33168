"""A place: a server, workspace or group (``discord:GUILD_ID``, ``slack:TEAM_ID``,
``telegram:CHAT_ID``), or one of its channels (``discord:GUILD_ID/CHANNEL_ID``).

A thread or forum post is in its parent channel: the adapters pass the parent. Telegram's topics
are in their group, so a Telegram place is its chat alone (a group's id is negative).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.places.refused import SettingRefused
from bot.platforms import PlaceIds, load_platform, platform_names

__all__ = ["Place", "handoff_targets", "has_places", "parse_place", "place_forms"]


def has_places(platform: str) -> bool:
    """Whether ``platform`` is registered, the worker runs it and its registry entry says how
    its places' ids are written (the terminal has no places)."""
    return _ids(platform) is not None


def _ids(platform: str) -> PlaceIds | None:
    if platform not in platform_names():
        return None
    described = load_platform(platform)
    return described.place_ids if described.runs else None


def handoff_targets(platform: str) -> tuple[str, tuple[str, ...]]:
    """The pattern whom ``platform``'s "Ask a person" may reach matches, and how those are
    written; a pattern nothing matches where it has none."""
    ids = _ids(platform)
    if ids is None or ids.handoff is None:
        return r"(?!)", ()
    return ids.handoff, ids.handoff_names


def place_forms(platform: str | None = None) -> tuple[str, ...]:
    """How a place of ``platform`` is written (every platform's when None or unknown)."""
    platforms = [platform] if platform and has_places(platform) else _with_places()
    forms = []
    for name in platforms:
        ids = _ids(name)
        assert ids is not None
        forms.append(f"{name}:{ids.server_name}")
        if ids.channel is not None:
            forms.append(f"{name}:{ids.server_name}/{ids.channel_name}")
    return tuple(forms)


def _with_places() -> list[str]:
    return [name for name in platform_names() if has_places(name)]


@dataclass(frozen=True, slots=True)
class Place:
    """Ids as the platform sends them; build one from outside text with :func:`parse_place`."""

    platform: str
    server: str
    channel: str | None = None

    def __str__(self) -> str:
        channel = f"/{self.channel}" if self.channel is not None else ""
        return f"{self.platform}:{self.server}{channel}"

    @property
    def server_place(self) -> Place:
        """The server, workspace or group this place is in (itself when it is one)."""
        return Place(self.platform, self.server)


def parse_place(text: str) -> Place:
    """A place as an admin or operator writes it; :class:`SettingRefused` naming it and the
    forms a place takes when it is none."""
    written = text.strip()
    platform, colon, rest = written.partition(":")
    platform = platform.lower()
    server, slash, channel = rest.partition("/")
    ids = _ids(platform)
    if ids is not None and ids.upper:
        server, channel = server.upper(), channel.upper()
    if (
        ids is None
        or not colon
        or not re.fullmatch(ids.server, server)
        or (slash and (ids.channel is None or not re.fullmatch(ids.channel, channel)))
    ):
        forms = place_forms(platform)
        raise SettingRefused(lambda wording: wording.not_a_place(written, forms))
    return Place(platform, server, channel if slash else None)
