"""What the simulated Discord holds: channels, messages, interactions, and who would be pinged.

A user's view of a channel is :meth:`SimChannel.visible`: public messages plus the ephemeral ones
shown to that user, each with its current content/embeds/components (edits applied).
"""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

__all__ = [
    "MANAGE_GUILD",
    "MEMBER_PERMISSIONS",
    "ChannelType",
    "SimChannel",
    "SimInteraction",
    "SimMessage",
    "SimUser",
    "Snowflakes",
    "iso",
]

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 64
SUPPRESS_EMBEDS = 4
LOADING = 128
MANAGE_GUILD = 1 << 5
MEMBER_PERMISSIONS = 2248473465835073
"""A member's permissions in a channel as interactions carry them: no Manage Server."""


class ChannelType:
    TEXT = 0
    DM = 1
    GROUP_DM = 3
    PUBLIC_THREAD = 11
    FORUM = 15


class Snowflakes:
    """Real-looking, increasing snowflakes (discord.py derives ``created_at`` from them)."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


@dataclass(kw_only=True)
class SimUser:
    id: int
    name: str
    bot: bool = False
    permissions: int = MEMBER_PERMISSIONS
    """What the member may do in a guild's channels (interactions carry it resolved)."""

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    def member(self) -> dict[str, Any]:
        return {
            "user": self.payload(),
            "roles": [],
            "joined_at": iso(time.time() - 86400),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "permissions": str(self.permissions),
            "nick": None,
            "avatar": None,
        }


_MENTION = re.compile(r"<@!?(\d+)>|<@&(\d+)>|@(everyone|here)")
_BARE_URL = re.compile(r"(?<![<(])https?://[^\s<>)]+|\]\((https?://[^\s<>)]+)\)")


def pings(content: str, allowed: dict[str, Any] | None) -> list[str]:
    """The mentions in ``content`` that would notify someone under ``allowed_mentions``."""
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse", []))
    users = {str(u) for u in (allowed or {}).get("users", [])}
    roles = {str(r) for r in (allowed or {}).get("roles", [])}
    found = []
    for match in _MENTION.finditer(content):
        user, role, crowd = match.groups()
        if (
            (user and ("users" in parse or user in users))
            or (role and ("roles" in parse or role in roles))
            or (crowd and "everyone" in parse)
        ):
            found.append(match.group(0))
    return found


def previews(content: str, flags: int) -> list[str]:
    """URLs Discord would unfurl into a link preview (none with SUPPRESS_EMBEDS)."""
    if flags & SUPPRESS_EMBEDS:
        return []
    return [m.group(1) or m.group(0) for m in _BARE_URL.finditer(content)]


@dataclass(kw_only=True)
class SimMessage:
    id: int
    channel_id: int
    guild_id: int | None
    author: SimUser
    content: str = ""
    sent_embeds: list[dict[str, Any]] = field(default_factory=list)
    """The embeds as sent and stored; :attr:`embeds` is what a person sees."""
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    created: float = field(default_factory=time.time)
    edited: float | None = None
    edits: int = 0
    history: list[str] = field(default_factory=list)
    pinged: list[str] = field(default_factory=list)
    allowed_mentions: list[dict[str, Any] | None] = field(default_factory=list)
    webhook_id: int | None = None
    interaction: SimInteraction | None = None
    thread_id: int | None = None
    mentions: list[SimUser] = field(default_factory=list)
    reply_to: SimMessage | None = None
    """The message this one replies to (Discord's ``message_reference``)."""

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """The embeds a person sees: Discord deduplicates embeds by URL, so of several sharing
        a ``url`` only the first is shown."""
        shown: list[dict[str, Any]] = []
        urls: set[object] = set()
        for embed in self.sent_embeds:
            url = embed.get("url")
            if url is not None and url in urls:
                continue
            urls.add(url)
            shown.append(embed)
        return shown

    @property
    def link_previews(self) -> list[str]:
        return previews(self.content, self.flags)

    def buttons(self) -> list[dict[str, Any]]:
        return [item for row in self.components for item in row.get("components", [])]

    def apply(self, body: dict[str, Any], *, create: bool) -> None:
        """Apply a create/edit body; every write re-parses mentions, as Discord does."""
        if body.get("embeds") is not None:
            self.sent_embeds = body["embeds"]
        for key in ("content", "components"):
            if key in body and body[key] is not None:
                setattr(self, key, body[key])
        if "flags" in body and body["flags"] is not None:
            keep = self.flags & (EPHEMERAL | LOADING) if not create else 0
            self.flags = keep | int(body["flags"])
        if not create:
            self.flags &= ~LOADING
            self.edits += 1
            self.edited = time.time()
        self.history.append(self.content)
        allowed = body.get("allowed_mentions")
        self.allowed_mentions.append(allowed)
        if "content" in body:
            self.pinged.extend(pings(self.content, allowed))

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 0 if self.interaction is None or self.interaction.type == 3 else 20,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created),
            "edited_timestamp": iso(self.edited) if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [],
            "attachments": [],
            "embeds": self.sent_embeds,
            "pinned": False,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction.id),
                "type": self.interaction.type,
                "user": self.interaction.user.payload(),
                "authorizing_integration_owners": {},
            }
        if self.thread_id is not None:
            data["position"] = 0
        if self.reply_to is not None:
            data["type"] = 19
            data["message_reference"] = {
                "type": 0,
                "message_id": str(self.reply_to.id),
                "channel_id": str(self.reply_to.channel_id),
                **({"guild_id": str(self.guild_id)} if self.guild_id is not None else {}),
            }
            data["referenced_message"] = {**self.reply_to.payload(), "referenced_message": None}
        return data


@dataclass(kw_only=True)
class SimChannel:
    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    can_create_threads: bool = True
    recipient: SimUser | None = None
    messages: list[SimMessage] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        return self.type == ChannelType.PUBLIC_THREAD

    def visible(self, viewer: int | None = None) -> list[SimMessage]:
        return [
            m
            for m in self.messages
            if not m.ephemeral
            or (
                viewer is not None and m.interaction is not None and m.interaction.user.id == viewer
            )
        ]

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "flags": 0,
        }
        if self.type in (ChannelType.DM, ChannelType.GROUP_DM):
            assert self.recipient is not None
            data = {
                "id": str(self.id),
                "type": self.type,
                "flags": 0,
                "recipients": [self.recipient.payload()],
                "last_message_id": None,
            }
            if self.type == ChannelType.GROUP_DM:
                data.update(name=self.name, icon=None, owner_id=str(self.recipient.id))
            return data
        data.update(
            guild_id=str(self.guild_id),
            position=0,
            permission_overwrites=[],
            nsfw=False,
            parent_id=str(self.parent_id) if self.parent_id else None,
            rate_limit_per_user=0,
            topic=None,
            last_message_id=None,
        )
        if self.type == ChannelType.FORUM:
            data.update(
                available_tags=[],
                default_reaction_emoji=None,
                default_sort_order=None,
                default_forum_layout=0,
                default_thread_rate_limit_per_user=0,
            )
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=len(self.messages),
                member_count=1,
                total_message_sent=len(self.messages),
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso(time.time()),
                    "locked": False,
                    "create_timestamp": iso(time.time()),
                },
            )
        return data


@dataclass(kw_only=True)
class SimInteraction:
    id: int
    token: str
    type: int
    user: SimUser
    channel: SimChannel
    created: float
    response_type: int | None = None
    original: SimMessage | None = None
    ephemeral: bool = False
    expired: bool = False
    acks: list[dict[str, Any]] = field(default_factory=list)
    message: SimMessage | None = None
    owners: dict[str, str] = field(default_factory=dict)
    """``authorizing_integration_owners``: only ``"1"`` where the app is used by a user's
    install without its bot (then five followups at most)."""
    modal: dict[str, Any] | None = None
    """The modal the app answered with (callback type 9), for the person to fill in."""
    followups: int = 0
    delivered: dict[str, Any] = field(default_factory=dict, repr=False)
    """The INTERACTION_CREATE it came in, to send again (:meth:`People.redeliver`)."""

    @property
    def user_install_only(self) -> bool:
        return set(self.owners) == {"1"}
