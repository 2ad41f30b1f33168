"""What the REST routes share: the sim behind a request, its JSON body, and message edits.

An edit (by the bot token or an interaction's webhook) may set only SUPPRESS_EMBEDS and
IS_COMPONENTS_V2 in ``flags``: Discord documents exactly these for Edit Message and Edit
Webhook Message (which Edit Original Interaction Response and Edit Followup Message "function
the same" as). It does not document the refusal's wording, so this one is the simulator's.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.sim.discord.events import announce
from tests.sim.discord.model import SUPPRESS_EMBEDS, SimMessage
from tests.sim.discord.validation import form_errors, invalid_form_body
from tests.sim.discord.wire import SIM, discord_error, json_response

if TYPE_CHECKING:
    from tests.sim.discord.sim import DiscordSim

__all__ = [
    "EDIT_FLAGS",
    "edit",
    "invalid",
    "read_json",
    "sim_of",
    "unknown_message",
]

IS_COMPONENTS_V2 = 1 << 15
EDIT_FLAGS = SUPPRESS_EMBEDS | IS_COMPONENTS_V2


def sim_of(request: web.Request) -> DiscordSim:
    sim: DiscordSim = request.app[SIM]
    return sim


async def read_json(request: web.Request) -> dict[str, Any]:
    body = await request.read()
    return json.loads(body) if body else {}


def invalid(errors: dict[str, Any]) -> web.Response:
    return json_response(invalid_form_body(errors), status=400)


def unknown_message() -> web.Response:
    return discord_error(404, 10008, "Unknown Message")


def _edit_flag_errors(body: dict[str, Any]) -> dict[str, Any]:
    flags = body.get("flags")
    if flags is None or not int(flags) & ~EDIT_FLAGS:
        return {}
    message = "Only SUPPRESS_EMBEDS (4) and IS_COMPONENTS_V2 (32768) can be set on an edit."
    return {"flags": {"_errors": [{"code": "MESSAGE_FLAGS_INVALID", "message": message}]}}


async def edit(request: web.Request, message: SimMessage) -> web.Response:
    """An edit of ``message`` by its webhook or the bot: validated, applied, announced."""
    body = await read_json(request)
    if errors := _edit_flag_errors(body) or form_errors(body):
        return invalid(errors)
    message.apply(body, create=False)
    await announce(sim_of(request), message, "MESSAGE_UPDATE")
    return json_response(message.payload())
