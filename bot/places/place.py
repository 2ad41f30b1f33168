"""A place: a server, workspace or group (``discord:GUILD_ID``, ``slack:TEAM_ID``,
``telegram:CHAT_ID``), or one of its channels (``discord:GUILD_ID/CHANNEL_ID``).

A thread or forum post is in its parent channel: the adapters pass the parent. Telegram's topics
are in their group, so a Telegram place is its chat alone (a group's id is negative).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.places.refused import SettingRefused
from bot.platforms import load_platform, platform_names

__all__ = ["Place", "has_places", "parse_place", "place_forms"]


@dataclass(frozen=True, slots=True)
class _Shape:
    server: re.Pattern[str]
    channel: re.Pattern[str] | None
    server_name: str
    channel_name: str | None = None
    upper: bool = False
    """Ids written in capitals (Slack's); a lower-case one is read as its capitals."""


_SNOWFLAKE = re.compile(r"[0-9]{1,20}")
_SHAPES = {
    "discord": _Shape(_SNOWFLAKE, _SNOWFLAKE, "GUILD_ID", "CHANNEL_ID"),
    "slack": _Shape(
        re.compile(r"[TE][A-Z0-9]{2,}"),
        re.compile(r"[CGD][A-Z0-9]{2,}"),
        "TEAM_ID",
        "CHANNEL_ID",
        upper=True,
    ),
    "telegram": _Shape(re.compile(r"-?[0-9]{1,20}"), None, "CHAT_ID"),
}
"""How each platform writes the ids of its places: its descriptor in the registry is where they
belong, and where the lead may move them; a platform without one here has no places yet."""


def has_places(platform: str) -> bool:
    """Whether ``platform`` is registered and the worker runs it, so that its servers and
    channels are places (the terminal's are not), and its ids' shape is known."""
    return platform in _SHAPES and platform in platform_names() and load_platform(platform).runs


def place_forms(platform: str | None = None) -> tuple[str, ...]:
    """How a place of ``platform`` is written (every platform's when None or unknown)."""
    platforms = [platform] if platform and has_places(platform) else _with_places()
    forms = []
    for name in platforms:
        shape = _SHAPES[name]
        forms.append(f"{name}:{shape.server_name}")
        if shape.channel is not None:
            forms.append(f"{name}:{shape.server_name}/{shape.channel_name}")
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
    shape = _SHAPES.get(platform) if has_places(platform) else None
    if shape is not None and shape.upper:
        server, channel = server.upper(), channel.upper()
    if (
        shape is None
        or not colon
        or not shape.server.fullmatch(server)
        or (slash and (shape.channel is None or not shape.channel.fullmatch(channel)))
    ):
        forms = place_forms(platform)
        raise SettingRefused(lambda wording: wording.not_a_place(written, forms))
    return Place(platform, server, channel if slash else None)
