"""The REST routes under ``/api/v10``: login, gateway, commands, interactions, messages, threads.

A middleware records every request, answers injected 429s, enforces per-route buckets with the
X-RateLimit-* headers discord.py reads, and refuses any body the official OpenAPI spec refuses
(:mod:`tests.sim.discord.schema`) before a route sees it. Errors carry Discord's codes and
wording. The interaction and webhook routes are in :mod:`tests.sim.discord.interactions`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.sim.discord.events import announce
from tests.sim.discord.interactions import add_interaction_routes
from tests.sim.discord.messages import edit, invalid, read_json, sim_of, unknown_message
from tests.sim.discord.model import EPHEMERAL, ChannelType, SimChannel, SimMessage
from tests.sim.discord.schema import body_errors
from tests.sim.discord.validation import form_errors
from tests.sim.discord.wire import (
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


def _template(request: web.Request) -> str:
    """The matched route's template, or the path of a request no route matched."""
    resource = request.match_info.route.resource
    return resource.canonical.removeprefix(PREFIX) if resource is not None else request.path


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
    sim: DiscordSim, request: web.Request, template: str, payload: Any, handler: Handler
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
    if payload is not None and (errors := body_errors(request.method, template, payload)):
        response: web.StreamResponse = invalid(errors)
    else:
        response = await handler(request)
    if bucket is not None:
        response.headers.update(bucket.headers(now))
    return response


@web.middleware
async def _record(request: web.Request, handler: Handler) -> web.StreamResponse:
    if not request.path.startswith(PREFIX):
        return await handler(request)
    sim = sim_of(request)
    body = await request.read()
    template = _template(request)
    payload = json.loads(body) if body else None
    at = time.monotonic()
    response = await _answer(sim, request, template, payload, handler)
    sim.requests.append(
        RecordedRequest(
            method=request.method,
            route=template,
            path=request.path.removeprefix(PREFIX),
            query=dict(request.query),
            json=payload,
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


def _wrong_channel_type() -> web.Response:
    return discord_error(400, 50024, "Cannot execute action on this channel type")


def _channel(sim: DiscordSim, request: web.Request) -> SimChannel | web.Response:
    """The channel a bot-token route names; where the bot is not a member (a guild that only
    a user's install reaches, a group DM), Discord answers 50001 Missing Access."""
    channel = sim.channels.get(int(request.match_info["channel_id"]))
    if channel is None:
        return discord_error(404, 10003, "Unknown Channel")
    if not sim.bot_sees(channel):
        return discord_error(403, 50001, "Missing Access")
    return channel


# -- login and gateway -----------------------------------------------------------------------


async def users_me(request: web.Request) -> web.Response:
    sim = sim_of(request)
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
    sim = sim_of(request)
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
    sim = sim_of(request)
    return json_response(
        {
            "url": sim.gateway_url,
            "shards": sim.shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": sim.session_starts,
                "reset_after": 86_400_000,
                "max_concurrency": sim.max_concurrency,
            },
        }
    )


async def gateway(request: web.Request) -> web.Response:
    return json_response({"url": sim_of(request).gateway_url})


# -- application commands ----------------------------------------------------------------------


async def put_commands(request: web.Request) -> web.Response:
    """Overwrite every command, as Discord stores them: a message command's description an
    empty string, ``integration_types`` GUILD_INSTALL and ``contexts`` every context when a
    command leaves them out (application-commands.mdx)."""
    sim = sim_of(request)
    sim.command_puts += 1
    previous = sim.commands
    sim.commands = {}
    commands: list[dict[str, Any]] = json.loads(await request.read())  # a list, not an object
    for command in commands:
        sim.commands[command["name"]] = {
            **command,
            "id": previous.get(command["name"], {}).get("id", str(sim.ids())),
            "application_id": str(sim.application_id),
            "version": str(sim.ids()),
            "type": command.get("type") or 1,
            "default_member_permissions": command.get("default_member_permissions"),
            "dm_permission": True,
            "nsfw": bool(command.get("nsfw")),
            "options": command.get("options") or [],
            "description": command.get("description") or "",
            "integration_types": command.get("integration_types") or [0],
            "contexts": command.get("contexts") or [0, 1, 2],
        }
    return json_response([_localized(c, with_all=True) for c in sim.commands.values()])


async def get_commands(request: web.Request) -> web.Response:
    """Without ``with_localizations=true`` Discord leaves the localization dictionaries out."""
    with_all = request.query.get("with_localizations", "").lower() == "true"
    commands = sim_of(request).commands.values()
    return json_response([_localized(command, with_all=with_all) for command in commands])


def _localized(item: dict[str, Any], *, with_all: bool) -> dict[str, Any]:
    kept = {
        key: value
        for key, value in item.items()
        if with_all or key not in ("name_localizations", "description_localizations")
    }
    if "options" in kept:
        kept["options"] = [_localized(option, with_all=with_all) for option in kept["options"]]
    return kept


# -- channels, messages, threads (the bot token) ---------------------------------------------------


async def get_channel(request: web.Request) -> web.Response:
    channel = _channel(sim_of(request), request)
    if isinstance(channel, web.Response):
        return channel
    return json_response(channel.payload())


def _channel_message(request: web.Request) -> SimMessage | web.Response:
    sim = sim_of(request)
    channel = _channel(sim, request)
    if isinstance(channel, web.Response):
        return channel
    message = sim.messages.get(int(request.match_info["message_id"]))
    if message is None or message.channel_id != channel.id or message.ephemeral:
        return unknown_message()
    return message


async def create_message(request: web.Request) -> web.Response:
    sim = sim_of(request)
    channel = _channel(sim, request)
    if isinstance(channel, web.Response):
        return channel
    if channel.type == ChannelType.FORUM:
        return _wrong_channel_type()
    body = await read_json(request)
    if errors := form_errors(body):
        return invalid(errors)
    if not (body.get("content") or body.get("embeds") or body.get("components")):
        return discord_error(400, 50006, "Cannot send an empty message")
    message = sim.add_message(
        channel, sim.bot, {**body, "flags": int(body.get("flags") or 0) & ~EPHEMERAL}
    )
    await announce(sim, message)
    return json_response(message.payload())


async def get_message(request: web.Request) -> web.Response:
    found = _channel_message(request)
    return found if isinstance(found, web.Response) else json_response(found.payload())


async def edit_message(request: web.Request) -> web.Response:
    found = _channel_message(request)
    if isinstance(found, web.Response):
        return found
    if found.author.id != sim_of(request).bot.id:
        return discord_error(403, 50005, "Cannot edit a message authored by another user")
    return await edit(request, found)


async def start_thread(request: web.Request) -> web.Response:
    sim = sim_of(request)
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
    body = await read_json(request)
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
    add_interaction_routes(app, PREFIX)
    r.add_get(PREFIX + "/channels/{channel_id}", get_channel)
    r.add_post(PREFIX + "/channels/{channel_id}/messages", create_message)
    r.add_get(PREFIX + "/channels/{channel_id}/messages/{message_id}", get_message)
    r.add_patch(PREFIX + "/channels/{channel_id}/messages/{message_id}", edit_message)
    r.add_post(PREFIX + "/channels/{channel_id}/messages/{message_id}/threads", start_thread)
