"""What the gateway tells the bot when a person acts: an INTERACTION_CREATE for a command or a
click, and a message event, its content redacted as Discord does without MESSAGE_CONTENT."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.sim.discord.model import ChannelType, SimInteraction, SimMessage

if TYPE_CHECKING:
    from tests.sim.discord.sim import DiscordSim

__all__ = ["announce", "interaction_create"]

GUILD_MESSAGES = 1 << 9
DM_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15


def interaction_create(
    sim: DiscordSim, interaction: SimInteraction, data: dict[str, Any], locale: str
) -> dict[str, Any]:
    """The payload as Discord documents it for a guild channel or a DM."""
    channel = interaction.channel
    payload: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(sim.application_id),
        "type": interaction.type,
        "token": interaction.token,
        "version": 1,
        "data": data,
        "channel_id": str(channel.id),
        "channel": channel.payload(),
        "app_permissions": str(sim.app_permissions(channel)),
        "locale": locale,
        "entitlements": [],
        "attachment_size_limit": 10485760,
        "context": 1 if channel.type == ChannelType.DM else 0,
    }
    if channel.guild_id is not None:
        payload.update(
            guild_id=str(channel.guild_id),
            member=interaction.user.member(),
            guild={"id": str(channel.guild_id), "locale": "en-US", "features": []},
            guild_locale="en-US",
            authorizing_integration_owners={"0": str(channel.guild_id)},
        )
    else:
        payload.update(
            user=interaction.user.payload(), authorizing_integration_owners={"0": str(sim.guild_id)}
        )
    if interaction.message is not None:
        payload["message"] = interaction.message.payload()
    return payload


async def announce(sim: DiscordSim, message: SimMessage, event: str = "MESSAGE_CREATE") -> None:
    """Tell the gateway, redacting content the way Discord does without MESSAGE_CONTENT."""
    if message.ephemeral:
        return
    channel = sim.channels[message.channel_id]
    intent = DM_MESSAGES if channel.guild_id is None else GUILD_MESSAGES
    data = message.payload()
    if channel.guild_id is not None:
        data["member"] = message.author.member()
    for session in [*sim.sessions, *sim.resumable.values()]:
        if not session.identified or not session.wants(channel.guild_id):
            continue
        if not session.intents & intent:
            continue
        visible = (
            session.intents & MESSAGE_CONTENT
            or channel.guild_id is None
            or message.author.id == sim.bot.id
            or any(u.id == sim.bot.id for u in message.mentions)
        )
        body = data if visible else {**data, "content": "", "embeds": [], "components": []}
        await session.dispatch(event, body)
