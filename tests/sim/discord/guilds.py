"""The guilds of the simulated Discord, as the gateway sends them (GUILD_CREATE)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.sim.discord.world import World

__all__ = [
    "CREATE_PUBLIC_THREADS",
    "EVERYONE_PERMISSIONS",
    "INTERACTION_PERMISSIONS",
    "guild_payload",
]

CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
# VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, READ_MESSAGE_HISTORY and the two thread permissions.
EVERYONE_PERMISSIONS = (
    (1 << 10)
    | (1 << 11)
    | (1 << 14)
    | (1 << 16)
    | (SEND_MESSAGES_IN_THREADS)
    | CREATE_PUBLIC_THREADS
)
INTERACTION_PERMISSIONS = (1 << 15) | (1 << 14) | (1 << 17)
"""ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE: what an app may use where its bot is not a
member (receiving-and-responding.mdx, app_permissions)."""


def guild_payload(sim: World, guild_id: int) -> dict[str, Any]:
    """GUILD_CREATE for one guild: its channels and threads, the bot as a member, @everyone's
    permissions (a channel without thread permission denies them in an overwrite)."""
    deny = [{"id": str(guild_id), "type": 0, "allow": "0", "deny": str(CREATE_PUBLIC_THREADS)}]
    channels: list[dict[str, Any]] = []
    threads: list[dict[str, Any]] = []
    for channel in sim.channels.values():
        if channel.guild_id != guild_id:
            continue
        data = channel.payload()
        if not channel.can_create_threads:
            data["permission_overwrites"] = deny
        (threads if channel.is_thread else channels).append(data)
    member = sim.bot.member()
    return {
        "id": str(guild_id),
        "name": sim.guild_names.get(guild_id, "Sim Guild"),
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(sim.user.id),
        "features": [],
        "emojis": [],
        "stickers": [],
        "roles": [
            {
                "id": str(guild_id),
                "name": "@everyone",
                "color": 0,
                "hoist": False,
                "position": 0,
                "permissions": str(EVERYONE_PERMISSIONS),
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        ],
        "channels": channels,
        "threads": threads,
        "members": [member],
        "member_count": 2,
        "large": False,
        "unavailable": False,
        "joined_at": member["joined_at"],
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "afk_timeout": 300,
        "afk_channel_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "application_id": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
    }
