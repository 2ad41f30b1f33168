"""Interactions and their webhook: the callback, followups, and the original response's edits.

Routes are authorised by the interaction's token (live for 15 minutes), not the bot's. A modal
(callback type 9) is kept on the interaction for the person to fill in; a modal submission
cannot be answered with another. Where the app is used by a user's install alone (its bot not a
member), an interaction takes five followups at most, the sixth refused with 40094
(receiving-and-responding.mdx, Create Followup Message; opcodes-and-status-codes.mdx).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.sim.discord.events import announce
from tests.sim.discord.messages import edit, invalid, read_json, sim_of, unknown_message
from tests.sim.discord.model import EPHEMERAL, LOADING, SimInteraction, SimMessage
from tests.sim.discord.validation import form_errors
from tests.sim.discord.wire import discord_error, json_response

if TYPE_CHECKING:
    from tests.sim.discord.sim import DiscordSim

__all__ = ["FOLLOWUPS_WITHOUT_BOT", "add_interaction_routes"]

FOLLOWUPS_WITHOUT_BOT = 5
MODAL_SUBMIT = 5


def _live(sim: DiscordSim, token: str) -> SimInteraction | web.Response:
    interaction = sim.interactions.get(token)
    if (
        interaction is None
        or interaction.expired
        or (time.monotonic() - interaction.created > sim.interaction_token_ttl)
    ):
        return discord_error(401, 50027, "Invalid Webhook Token")
    return interaction


def _create_in(
    sim: DiscordSim, interaction: SimInteraction, body: dict[str, Any], flags: int
) -> SimMessage:
    message = sim.add_message(
        interaction.channel, sim.bot, body, interaction=interaction, flags=flags
    )
    return message


async def callback(request: web.Request) -> web.StreamResponse:
    sim = sim_of(request)
    interaction = sim.interactions.get(request.match_info["token"])
    if (
        interaction is None
        or str(interaction.id) != request.match_info["interaction_id"]
        or (time.monotonic() - interaction.created > sim.ack_deadline)
    ):
        return discord_error(404, 10062, "Unknown interaction")
    if interaction.response_type is not None:
        return discord_error(400, 40060, "Interaction has already been acknowledged.")
    body = await read_json(request)
    kind, data = body.get("type"), body.get("data") or {}
    flags = int(data.get("flags") or 0) & EPHEMERAL
    message: SimMessage | None = None
    if kind in (4, 7) and (errors := form_errors(data)):
        return invalid(errors)
    if kind == 5:
        message = _create_in(sim, interaction, {"content": ""}, flags | LOADING)
    elif kind == 4:
        message = _create_in(sim, interaction, data, flags)
    elif kind == 7 and interaction.message is not None:
        message = interaction.message
        message.apply(data, create=False)
        await announce(sim, message, "MESSAGE_UPDATE")
    elif kind == 6:
        message = interaction.message
    elif kind == 9 and interaction.type != MODAL_SUBMIT:
        interaction.modal = data
    elif kind not in (6, 7):
        return invalid_response(kind)
    interaction.response_type = kind
    interaction.acks.append(body)
    interaction.original = message
    interaction.ephemeral = bool(flags)
    if message is not None and kind in (4, 5):
        await announce(sim, message)
    if request.query.get("with_response", "").lower() not in ("1", "true"):
        return web.Response(status=204)
    result: dict[str, Any] = {
        "interaction": {
            "id": str(interaction.id),
            "type": interaction.type,
            "response_message_id": str(message.id) if message else None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(flags),
        }
    }
    if message is not None:
        result["resource"] = {"type": kind, "message": message.payload()}
    return json_response(result)


def invalid_response(kind: Any) -> web.Response:
    return invalid(
        {
            "type": {
                "_errors": [
                    {
                        "code": "BASE_TYPE_CHOICES",
                        "message": f"Value must be one of ... (got {kind})",
                    }
                ]
            }
        }
    )


def _webhook(request: web.Request) -> SimInteraction | web.Response:
    """The interaction an interaction webhook URL (application id + token) names, if live."""
    sim = sim_of(request)
    if request.match_info["application_id"] != str(sim.application_id):
        return discord_error(404, 10015, "Unknown Webhook")
    return _live(sim, request.match_info["token"])


def _webhook_message(request: web.Request) -> tuple[SimInteraction, SimMessage] | web.Response:
    sim = sim_of(request)
    live = _webhook(request)
    if isinstance(live, web.Response):
        return live
    wanted = request.match_info["message_id"]
    if wanted == "@original":
        message = live.original
    else:
        message = sim.messages.get(int(wanted)) if wanted.isdigit() else None
        if message is not None and message.interaction is not live:
            message = None
    if message is None:
        return unknown_message()
    return live, message


async def get_webhook_message(request: web.Request) -> web.Response:
    found = _webhook_message(request)
    if isinstance(found, web.Response):
        return found
    return json_response(found[1].payload())


async def edit_webhook_message(request: web.Request) -> web.Response:
    found = _webhook_message(request)
    if isinstance(found, web.Response):
        return found
    return await edit(request, found[1])


async def followup(request: web.Request) -> web.Response:
    sim = sim_of(request)
    live = _webhook(request)
    if isinstance(live, web.Response):
        return live
    if live.response_type is None:
        return discord_error(404, 10015, "Unknown Webhook")
    if live.user_install_only and live.followups >= FOLLOWUPS_WITHOUT_BOT:
        return discord_error(
            400, 40094, "This interaction has hit the maximum number of follow up messages"
        )
    body = await read_json(request)
    if errors := form_errors(body):
        return invalid(errors)
    if not (body.get("content") or body.get("embeds") or body.get("components")):
        return discord_error(400, 50006, "Cannot send an empty message")
    live.followups += 1
    original = live.original
    if original is not None and original.loading:
        # Discord resolves a deferred "thinking" response with the first followup.
        original.apply(body, create=False)
        message = original
        await announce(sim, message, "MESSAGE_UPDATE")
    else:
        message = _create_in(sim, live, body, int(body.get("flags") or 0) & EPHEMERAL)
        await announce(sim, message)
    if request.query.get("wait", "").lower() not in ("1", "true"):
        return web.Response(status=204)
    return json_response(message.payload())


def add_interaction_routes(app: web.Application, prefix: str) -> None:
    r = app.router
    r.add_post(prefix + "/interactions/{interaction_id}/{token}/callback", callback)
    hook = prefix + "/webhooks/{application_id}/{token}"
    r.add_post(hook, followup)
    r.add_get(hook + "/messages/{message_id}", get_webhook_message)
    r.add_patch(hook + "/messages/{message_id}", edit_webhook_message)
