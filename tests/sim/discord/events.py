"""What the gateway tells the bot when a person acts: an INTERACTION_CREATE for a command, a
click or a modal filled in, and a message event, its content redacted as Discord does without
MESSAGE_CONTENT (and none at all from where the bot is not a member)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.sim.discord.model import ChannelType, SimChannel, SimInteraction, SimMessage

if TYPE_CHECKING:
    from tests.sim.discord.world import World

__all__ = ["GUILDS", "MESSAGE_CONTENT", "announce", "interaction_create", "modal_submission"]

GUILDS = 1 << 0
GUILD_MESSAGES = 1 << 9
DM_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15


def _context(channel: SimChannel) -> int:
    """GUILD (0), BOT_DM (1) or PRIVATE_CHANNEL (2: group DMs, DMs between users)."""
    return {ChannelType.DM: 1, ChannelType.GROUP_DM: 2}.get(channel.type, 0)


def interaction_create(
    sim: World, interaction: SimInteraction, data: dict[str, Any], locale: str
) -> dict[str, Any]:
    """The payload as Discord documents it for a guild channel (joined or not), a DM with the
    bot or a group DM."""
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
        "context": _context(channel),
        "authorizing_integration_owners": interaction.owners,
    }
    if channel.guild_id is not None:
        payload.update(
            guild_id=str(channel.guild_id),
            member=interaction.user.member(),
            guild={"id": str(channel.guild_id), "locale": "en-US", "features": []},
            guild_locale="en-US",
        )
    else:
        payload.update(user=interaction.user.payload())
    if interaction.message is not None:
        payload["message"] = interaction.message.payload()
    return payload


def modal_submission(modal: dict[str, Any], values: dict[str, str | None]) -> dict[str, Any]:
    """MODAL_SUBMIT's data for ``modal`` filled in with ``values`` (by ``custom_id``): each Label
    with its component's ``value`` (a radio group's chosen value, a text input's text), as
    components/reference.mdx shows it. What the client would not let through raises."""
    components: list[dict[str, Any]] = []
    for index, label in enumerate(modal["components"]):
        inner = label["component"]
        value = values.get(inner["custom_id"])
        required = inner.get("required")
        if inner["type"] == 21:  # radio group: required unless said otherwise
            offered = [option["value"] for option in inner["options"]]
            if value is None and required is not False:
                raise AssertionError(f"{inner['custom_id']} must be chosen")
            if value is not None and value not in offered:
                raise AssertionError(f"{value!r} is not among {offered}")
            answered: dict[str, Any] = {"value": value}
        elif inner["type"] == 4:  # text input: required unless said otherwise
            text = value or ""
            if not text and required is not False:
                raise AssertionError(f"{inner['custom_id']} must be filled in")
            most = inner.get("max_length") or 4000
            if len(text) > most:
                raise AssertionError(f"{inner['custom_id']} takes at most {most} characters")
            answered = {"value": text}
        else:
            raise AssertionError(
                f"the simulator cannot fill in a component of type {inner['type']}"
            )
        components.append(
            {
                "type": 18,
                "id": 2 * index + 1,
                "component": {
                    "type": inner["type"],
                    "id": 2 * index + 2,
                    "custom_id": inner["custom_id"],
                    **answered,
                },
            }
        )
    return {"custom_id": modal["custom_id"], "components": components}


async def announce(sim: World, message: SimMessage, event: str = "MESSAGE_CREATE") -> None:
    """Tell the gateway, redacting content the way Discord does without MESSAGE_CONTENT;
    nothing of a channel the bot is not in."""
    if message.ephemeral:
        return
    channel = sim.channels[message.channel_id]
    if not sim.bot_sees(channel):
        return
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
