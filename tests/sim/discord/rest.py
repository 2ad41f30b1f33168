"""The REST routes under ``/api/v10``: login, gateway, commands, interactions, messages, threads.

A middleware records every request, answers injected 429s and enforces per-route buckets with
the X-RateLimit-* headers discord.py reads. Errors carry Discord's codes and wording.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.sim.discord.model import EPHEMERAL, LOADING, ChannelType, SimInteraction, SimMessage
from tests.sim.discord.validation import form_errors, invalid_form_body, thread_name_errors
from tests.sim.discord.wire import (
    SIM,
    Bucket,
    RecordedRequest,
    discord_error,
    json_response,
    too_many_requests,
)

if TYPE_CHECKING:
    from tests.sim.discord.sim import DiscordSim

__all__ = ["add_rest_routes"]

PREFIX = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_BUCKETS = {  # template prefix -> (bucket name, major parameter, limit, per seconds)
    "/channels/{channel_id}/messages/{message_id}/threads": ("threads", "channel_id", 10, 10.0),
    "/channels/{channel_id}/messages": ("channel-messages", "channel_id", 5, 5.0),
    "/webhooks/{application_id}/{token}": ("interaction-webhook", "token", 5, 2.0),
}
_OPEN = ("/interactions/", "/webhooks/")  # routes authorised by their token, not the bot's


def _sim(request: web.Request) -> DiscordSim:
    sim: DiscordSim = request.app[SIM]
    return sim


def _template(request: web.Request) -> str:
    return request.match_info.route.resource.canonical.removeprefix(PREFIX)  # type: ignore[union-attr]


def _bucket(sim: DiscordSim, request: web.Request, template: str) -> Bucket | None:
    if request.method == "GET" or not sim.enforce_buckets:
        return None
    for prefix, (name, major, limit, per) in _BUCKETS.items():
        if template.startswith(prefix):
            key = (name, request.match_info[major])
            if key not in sim.buckets:
                sim.buckets[key] = Bucket(name, limit, per)
            return sim.buckets[key]
    return None


async def _answer(
    sim: DiscordSim, request: web.Request, template: str, handler: Handler
) -> web.StreamResponse:
    for rule in sim.rules:
        if rule.count > 0 and rule.matches(request.method, template):
            rule.count -= 1
            if rule.error is not None:
                return discord_error(*rule.error)
            return too_many_requests(rule.retry_after, bucket="injected", is_global=rule.is_global)
    authorized = request.headers.get("Authorization") == f"Bot {sim.token}"
    if not template.startswith(_OPEN) and not authorized:
        return discord_error(401, 0, "401: Unauthorized")
    bucket = _bucket(sim, request, template)
    now = time.monotonic()
    if bucket is not None and (wait := bucket.take(now)) is not None:
        return too_many_requests(wait, bucket=bucket.name)
    response = await handler(request)
    if bucket is not None:
        response.headers.update(bucket.headers(now))
    return response


@web.middleware
async def _record(request: web.Request, handler: Handler) -> web.StreamResponse:
    if not request.path.startswith(PREFIX):
        return await handler(request)
    sim = _sim(request)
    body = await request.read()
    template = _template(request) if request.match_info.route.resource else request.path
    at = time.monotonic()
    response = await _answer(sim, request, template, handler)
    sim.requests.append(
        RecordedRequest(
            method=request.method,
            route=template,
            path=request.path.removeprefix(PREFIX),
            query=dict(request.query),
            json=json.loads(body) if body else None,
            at=at,
            status=response.status,
            reply_body=_body(response),
            authorized=request.headers.get("Authorization") == f"Bot {sim.token}",
        )
    )
    async with sim.changed:
        sim.changed.notify_all()
    return response


def _body(response: web.StreamResponse) -> bytes:
    body = response.body if isinstance(response, web.Response) else None
    return body if isinstance(body, bytes) else b""


async def _json(request: web.Request) -> dict[str, Any]:
    body = await request.read()
    return json.loads(body) if body else {}


def _invalid(errors: dict[str, Any]) -> web.Response:
    return json_response(invalid_form_body(errors), status=400)


def _unknown_message() -> web.Response:
    return discord_error(404, 10008, "Unknown Message")


def _wrong_channel_type() -> web.Response:
    return discord_error(400, 50024, "Cannot execute action on this channel type")


# -- login and gateway -----------------------------------------------------------------------


async def users_me(request: web.Request) -> web.Response:
    sim = _sim(request)
    return json_response(
        {
            **sim.bot.payload(),
            "verified": True,
            "mfa_enabled": False,
            "locale": "en-US",
            "email": None,
        }
    )


async def application_me(request: web.Request) -> web.Response:
    sim = _sim(request)
    return json_response(
        {
            "id": str(sim.application_id),
            "name": sim.bot.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": sim.user.payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
            "summary": "",
            "bot": sim.bot.payload(),
            "rpc_origins": [],
            "tags": [],
        }
    )


async def gateway_bot(request: web.Request) -> web.Response:
    sim = _sim(request)
    return json_response(
        {
            "url": sim.gateway_url,
            "shards": sim.shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }
    )


async def gateway(request: web.Request) -> web.Response:
    return json_response({"url": _sim(request).gateway_url})


# -- application commands ----------------------------------------------------------------------


async def put_commands(request: web.Request) -> web.Response:
    sim = _sim(request)
    sim.command_puts += 1
    sim.commands = {}
    for command in await _json(request):  # type: ignore[attr-defined]
        previous = sim.commands.get(command["name"], {})
        sim.commands[command["name"]] = {
            **command,
            "id": previous.get("id", str(sim.ids())),
            "application_id": str(sim.application_id),
            "version": str(sim.ids()),
            "type": command.get("type", 1),
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "options": command.get("options", []),
            "description": command.get("description", ""),
        }
    return json_response(list(sim.commands.values()))


async def get_commands(request: web.Request) -> web.Response:
    return json_response(list(_sim(request).commands.values()))


# -- interactions and their webhook --------------------------------------------------------------


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
    sim = _sim(request)
    interaction = sim.interactions.get(request.match_info["token"])
    if (
        interaction is None
        or str(interaction.id) != request.match_info["interaction_id"]
        or (time.monotonic() - interaction.created > sim.ack_deadline)
    ):
        return discord_error(404, 10062, "Unknown interaction")
    if interaction.response_type is not None:
        return discord_error(400, 40060, "Interaction has already been acknowledged.")
    body = await _json(request)
    kind, data = body.get("type"), body.get("data") or {}
    flags = int(data.get("flags") or 0) & EPHEMERAL
    message: SimMessage | None = None
    if kind in (4, 7) and (errors := form_errors(data)):
        return _invalid(errors)
    if kind == 5:
        message = _create_in(sim, interaction, {"content": ""}, flags | LOADING)
    elif kind == 4:
        message = _create_in(sim, interaction, data, flags)
    elif kind == 7 and interaction.message is not None:
        message = interaction.message
        message.apply(data, create=False)
        await sim.announce(message, "MESSAGE_UPDATE")
    elif kind == 6:
        message = interaction.message
    elif kind not in (6, 7):
        return invalid_response(kind)
    interaction.response_type = kind
    interaction.acks.append(body)
    interaction.original = message
    interaction.ephemeral = bool(flags)
    if message is not None and kind in (4, 5):
        await sim.announce(message)
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
    return _invalid(
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
    sim = _sim(request)
    if request.match_info["application_id"] != str(sim.application_id):
        return discord_error(404, 10015, "Unknown Webhook")
    return _live(sim, request.match_info["token"])


def _webhook_message(request: web.Request) -> tuple[SimInteraction, SimMessage] | web.Response:
    sim = _sim(request)
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
        return _unknown_message()
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
    return await _edit(request, found[1])


async def _edit(request: web.Request, message: SimMessage) -> web.Response:
    """An edit of ``message`` by its webhook or the bot: validated, applied, announced."""
    body = await _json(request)
    if errors := form_errors(body):
        return _invalid(errors)
    message.apply(body, create=False)
    await _sim(request).announce(message, "MESSAGE_UPDATE")
    return json_response(message.payload())


async def followup(request: web.Request) -> web.Response:
    sim = _sim(request)
    live = _webhook(request)
    if isinstance(live, web.Response):
        return live
    if live.response_type is None:
        return discord_error(404, 10015, "Unknown Webhook")
    body = await _json(request)
    if errors := form_errors(body):
        return _invalid(errors)
    if not (body.get("content") or body.get("embeds") or body.get("components")):
        return discord_error(400, 50006, "Cannot send an empty message")
    original = live.original
    if original is not None and original.loading:
        # Discord resolves a deferred "thinking" response with the first followup.
        original.apply(body, create=False)
        message = original
        await sim.announce(message, "MESSAGE_UPDATE")
    else:
        message = _create_in(sim, live, body, int(body.get("flags") or 0) & EPHEMERAL)
        await sim.announce(message)
    if request.query.get("wait", "").lower() not in ("1", "true"):
        return web.Response(status=204)
    return json_response(message.payload())


# -- channels, messages, threads (the bot token) ---------------------------------------------------


async def get_channel(request: web.Request) -> web.Response:
    channel = _sim(request).channels.get(int(request.match_info["channel_id"]))
    if channel is None:
        return discord_error(404, 10003, "Unknown Channel")
    return json_response(channel.payload())


def _channel_message(request: web.Request) -> SimMessage | web.Response:
    sim = _sim(request)
    channel = sim.channels.get(int(request.match_info["channel_id"]))
    if channel is None:
        return discord_error(404, 10003, "Unknown Channel")
    message = sim.messages.get(int(request.match_info["message_id"]))
    if message is None or message.channel_id != channel.id or message.ephemeral:
        return _unknown_message()
    return message


async def create_message(request: web.Request) -> web.Response:
    sim = _sim(request)
    channel = sim.channels.get(int(request.match_info["channel_id"]))
    if channel is None:
        return discord_error(404, 10003, "Unknown Channel")
    if channel.type == ChannelType.FORUM:
        return _wrong_channel_type()
    body = await _json(request)
    if errors := form_errors(body):
        return _invalid(errors)
    if not (body.get("content") or body.get("embeds") or body.get("components")):
        return discord_error(400, 50006, "Cannot send an empty message")
    message = sim.add_message(
        channel, sim.bot, {**body, "flags": int(body.get("flags") or 0) & ~EPHEMERAL}
    )
    await sim.announce(message)
    return json_response(message.payload())


async def get_message(request: web.Request) -> web.Response:
    found = _channel_message(request)
    return found if isinstance(found, web.Response) else json_response(found.payload())


async def edit_message(request: web.Request) -> web.Response:
    found = _channel_message(request)
    if isinstance(found, web.Response):
        return found
    if found.author.id != _sim(request).bot.id:
        return discord_error(403, 50005, "Cannot edit a message authored by another user")
    return await _edit(request, found)


async def start_thread(request: web.Request) -> web.Response:
    sim = _sim(request)
    found = _channel_message(request)
    if isinstance(found, web.Response):
        return found
    channel = sim.channels[found.channel_id]
    if channel.guild_id is None or channel.is_thread or channel.type != ChannelType.TEXT:
        return _wrong_channel_type()
    if not channel.can_create_threads:
        return discord_error(403, 50013, "Missing Permissions")
    if found.thread_id is not None:
        return discord_error(400, 160004, "A thread has already been created for this message")
    body = await _json(request)
    if errors := thread_name_errors(body.get("name")):
        return _invalid(errors)
    thread = sim._channel(
        ChannelType.PUBLIC_THREAD,
        body["name"],
        guild=True,
        parent_id=channel.id,
        owner_id=sim.bot.id,
    )
    # A thread started from a message takes the message's id.
    del sim.channels[thread.id]
    thread.id = found.id
    sim.channels[thread.id] = thread
    found.thread_id = thread.id
    data = {**thread.payload(), "newly_created": True}
    await sim.dispatch("THREAD_CREATE", data, guild_id=channel.guild_id, intent=1)
    return json_response(thread.payload(), status=201)


def add_rest_routes(app: web.Application, sim: DiscordSim) -> None:
    app.middlewares.append(_record)
    r = app.router
    r.add_get(PREFIX + "/users/@me", users_me)
    r.add_get(PREFIX + "/oauth2/applications/@me", application_me)
    r.add_get(PREFIX + "/gateway/bot", gateway_bot)
    r.add_get(PREFIX + "/gateway", gateway)
    for path in (
        "/applications/{application_id}/commands",
        "/applications/{application_id}/guilds/{guild_id}/commands",
    ):
        r.add_put(PREFIX + path, put_commands)
        r.add_get(PREFIX + path, get_commands)
    r.add_post(PREFIX + "/interactions/{interaction_id}/{token}/callback", callback)
    hook = PREFIX + "/webhooks/{application_id}/{token}"
    r.add_post(hook, followup)
    r.add_get(hook + "/messages/{message_id}", get_webhook_message)
    r.add_patch(hook + "/messages/{message_id}", edit_webhook_message)
    r.add_get(PREFIX + "/channels/{channel_id}", get_channel)
    r.add_post(PREFIX + "/channels/{channel_id}/messages", create_message)
    r.add_get(PREFIX + "/channels/{channel_id}/messages/{message_id}", get_message)
    r.add_patch(PREFIX + "/channels/{channel_id}/messages/{message_id}", edit_message)
    r.add_post(PREFIX + "/channels/{channel_id}/messages/{message_id}/threads", start_thread)
