"""A place: a server, workspace or group (``discord:GUILD_ID``, ``slack:TEAM_ID``,
``telegram:CHAT_ID``), or one of its channels (``discord:GUILD_ID/CHANNEL_ID``).

A thread or forum post is in its parent channel: the adapters pass the parent. Telegram's topics
are in their group, so a Telegram place is its chat alone (a group's id is negative).

How each platform writes its places' ids is its registry entry's (:class:`PlaceIds`); whoever
reads a place from outside text (``citebot settings``, ``citebot report``, a settings document)
is handed every platform's :class:`PlaceForms` by the composition root, so nothing here loads
the registry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.places.refused import SettingRefused

__all__ = ["NO_FORMS", "Place", "PlaceForms", "PlaceIds"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceIds:
    """How a platform writes the ids of its places (``citebot settings``' PLACE): patterns of
    its server's and its channel's ids, and their names in a PLACE's written form."""

    server: str
    """A regular expression the server's (workspace's, group's) id matches whole."""
    server_name: str
    """``GUILD_ID``, ``TEAM_ID``, ``CHAT_ID``."""
    channel: str | None = None
    """Its channels' ids; None where a place is its server alone (a Telegram group)."""
    channel_name: str | None = None
    upper: bool = False
    """Ids written in capitals (Slack's): a lower-case one is read as its capitals."""
    handoff: str | None = None
    """A regular expression whom "Ask a person" may reach matches whole (the ``handoff``
    setting: a role's or a group's id, ``admins``), in capitals where :attr:`upper`; None:
    nobody, the platform has no way to notify them."""
    handoff_names: tuple[str, ...] = ()
    """How those are written, for an admin who wrote something else (``ROLE_ID``)."""

    def forms(self, platform: str) -> tuple[str, ...]:
        """How a place of ``platform`` is written (``discord:GUILD_ID``...)."""
        server = f"{platform}:{self.server_name}"
        if self.channel is None:
            return (server,)
        return server, f"{server}/{self.channel_name}"


@dataclass(frozen=True, slots=True)
class Place:
    """Ids as the platform sends them; read one from outside text with
    :meth:`PlaceForms.parse`."""

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


@dataclass(frozen=True, slots=True)
class PlaceForms:
    """Every platform that has places, with how it writes their ids (the registry's, handed
    over by ``bot.platforms.place_forms``)."""

    ids: Mapping[str, PlaceIds] = field(default_factory=dict)

    def __contains__(self, platform: object) -> bool:
        return platform in self.ids

    def forms(self, platform: str | None = None) -> tuple[str, ...]:
        """How a place of ``platform`` is written (every platform's when None or unknown)."""
        chosen = [platform] if platform is not None and platform in self.ids else sorted(self.ids)
        return tuple(form for name in chosen for form in self.ids[name].forms(name))

    def handoff(self, platform: str) -> tuple[str, tuple[str, ...]]:
        """The pattern whom ``platform``'s "Ask a person" may reach matches, and how those are
        written; a pattern nothing matches where it has none."""
        ids = self.ids.get(platform)
        if ids is None or ids.handoff is None:
            return r"(?!)", ()
        return ids.handoff, ids.handoff_names

    def help(self) -> str:
        """Every platform's form in one line, for a command's help
        (``discord:GUILD_ID[/CHANNEL_ID] or telegram:CHAT_ID``)."""
        shown = [
            f"{name}:{ids.server_name}" + (f"[/{ids.channel_name}]" if ids.channel else "")
            for name, ids in sorted(self.ids.items())
        ]
        return " or ".join([", ".join(shown[:-1]), shown[-1]] if len(shown) > 1 else shown)

    def parse(self, text: str) -> Place:
        """A place as an admin or operator writes it; :class:`SettingRefused` naming it and
        the forms a place takes when it is none."""
        written = text.strip()
        platform, colon, rest = written.partition(":")
        platform = platform.lower()
        server, slash, channel = rest.partition("/")
        ids = self.ids.get(platform)
        if ids is not None and ids.upper:
            server, channel = server.upper(), channel.upper()
        if (
            ids is None
            or not colon
            or not re.fullmatch(ids.server, server)
            or (slash and (ids.channel is None or not re.fullmatch(ids.channel, channel)))
        ):
            forms = self.forms(platform)
            raise SettingRefused(lambda wording: wording.not_a_place(written, forms))
        return Place(platform, server, channel if slash else None)


NO_FORMS = PlaceForms()
"""No platform's forms: no place is read, and no ``handoff`` is anyone."""
