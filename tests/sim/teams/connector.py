"""The Bot Framework's connector and login service on loopback, as the bot reaches them: the
activities a bot sends to a conversation (``POST /v3/conversations/{id}/activities``, a reply
``.../activities/{replyToId}``, ``PUT`` an edit, ``DELETE``), the roster
(``/members``, ``/pagedmembers``, ``/members/{id}``), a team's details and channels
(``/v3/teams/{id}``, ``/conversations``), Microsoft Graph's members of a team or chat (with
their roles: a team's owners are only there), the OpenID metadata and keys, and the token
endpoint (``/{tenant}/oauth2/v2.0/token``).

Sources: learn.microsoft.com/azure/bot-service/rest-api/bot-framework-rest-connector-api-
reference (the routes), microsoftteams/platform/bots/how-to/get-teams-context (the roster, a
page of 50 to 500 members, ``userRole``; team details; the channels, General's name null),
microsoftteams/platform/bots/how-to/update-and-delete-bot-messages (edits and deletes of the
bot's own messages), graph/api/team-list-members and chat-list-members (``roles``: ``owner``,
``guest``; an app reads them with the resource-specific permissions its manifest asks for).
Every call needs the bot's token (:mod:`tests.sim.teams.identity`); the connector's errors are
``{"error": {"code", "message"}}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.sim.teams.identity import BOT_FRAMEWORK, DENIED, GRAPH, TokenRefused
from tests.sim.teams.model import SimConversation, SimMessage, SimPerson, SimTeam
from tests.sim.teams.rules import Refused
from tests.sim.teams.streams import stream_info, take_stream_activity

if TYPE_CHECKING:
    from tests.sim.teams.sim import TeamsSim

__all__ = ["SIM", "conversation_of", "routes"]

SIM: web.AppKey[TeamsSim] = web.AppKey("teams-sim")


def routes(app: web.Application) -> None:
    add = app.router.add_route
    add("GET", "/v1/.well-known/openidconfiguration", _openid)
    add("GET", "/v1/.well-known/keys", _keys)
    add("POST", "/{tenant}/oauth2/v2.0/token", _token)
    add("POST", "/v3/conversations/{conversation}/activities", _send)
    add("POST", "/v3/conversations/{conversation}/activities/{activity}", _send)
    add("PUT", "/v3/conversations/{conversation}/activities/{activity}", _edit)
    add("DELETE", "/v3/conversations/{conversation}/activities/{activity}", _delete)
    add("GET", "/v3/conversations/{conversation}/members", _members)
    add("GET", "/v3/conversations/{conversation}/pagedmembers", _paged)
    add("GET", "/v3/conversations/{conversation}/pagedMembers", _paged)
    add("GET", "/v3/conversations/{conversation}/members/{member}", _member)
    add("GET", "/v3/teams/{team}", _team)
    add("GET", "/v3/teams/{team}/conversations", _channels)
    add("GET", "/graph/v1.0/teams/{group}/members", _graph_team)
    add("GET", "/graph/v1.0/chats/{chat}/members", _graph_chat)


def _error(status: int, code: str, message: str) -> web.Response:
    return web.json_response(Refused(status, code, message).body(), status=status)


async def _openid(request: web.Request) -> web.Response:
    sim = request.app[SIM]
    return web.json_response(sim.identity.openid(sim.base_url))


async def _keys(request: web.Request) -> web.Response:
    return web.json_response(request.app[SIM].identity.jwks())


async def _token(request: web.Request) -> web.Response:
    sim = request.app[SIM]
    form = {key: str(value) for key, value in (await request.post()).items()}
    try:
        return web.json_response(sim.identity.issue(request.match_info["tenant"], form))
    except TokenRefused as refused:
        return web.json_response(refused.body, status=refused.status)


def _authorized(request: web.Request, audience: str = BOT_FRAMEWORK) -> bool:
    sim = request.app[SIM]
    header = request.headers.get("Authorization")
    if not sim.require_tokens:
        return True
    return sim.identity.bearer(header, audience=audience) is not None


def conversation_of(sim: TeamsSim, written: str) -> tuple[SimConversation | None, str | None]:
    """The conversation an id names, and the thread's root message id it names (a channel's
    ``;messageid=``)."""
    base, _, thread = written.partition(";messageid=")
    return sim.conversations.get(base), thread or None


async def _send(request: web.Request) -> web.Response:
    sim = request.app[SIM]
    reply_to = request.match_info.get("activity")
    return await sim.received(
        request, lambda body, c, thread: _post(sim, body, c, thread, reply_to)
    )


def _post(
    sim: TeamsSim,
    body: dict[str, Any],
    conversation: SimConversation,
    thread: str | None,
    reply_to: str | None,
) -> tuple[int, dict[str, Any]]:
    info = stream_info(body)
    if info is not None:
        return take_stream_activity(sim, conversation, body, info)
    if body.get("type") == "typing":
        sim.typing.append((conversation, sim.now()))
        return 200, {}
    root = thread or reply_to or body.get("replyToId")
    message = sim.show(conversation, body, thread=str(root) if root else None)
    return 201, {"id": message.id}


async def _edit(request: web.Request) -> web.Response:
    sim = request.app[SIM]
    target = request.match_info["activity"]

    def edit(
        body: dict[str, Any], conversation: SimConversation, thread: str | None
    ) -> tuple[int, dict[str, Any]]:
        message = _own(conversation, target)
        if message.stream is not None and message.stream.open:
            raise Refused(400, "BadRequest", "a message still streaming is not edited")
        message.edits.append(message.activity)
        sim.apply(message, body)
        return 200, {"id": message.id}

    return await sim.received(request, edit)


async def _delete(request: web.Request) -> web.Response:
    sim = request.app[SIM]
    target = request.match_info["activity"]

    def delete(
        body: dict[str, Any], conversation: SimConversation, thread: str | None
    ) -> tuple[int, dict[str, Any]]:
        _own(conversation, target).deleted = True
        return 200, {}

    return await sim.received(request, delete, has_body=False)


def _own(conversation: SimConversation, message_id: str) -> SimMessage:
    message = conversation.message(message_id)
    if message is None or message.deleted:
        raise Refused(404, "ActivityNotFoundInConversation", "The activity was not found")
    if not message.from_bot:
        raise Refused(403, "Forbidden", "A bot edits and deletes its own messages only")
    return message


async def _members(request: web.Request) -> web.Response:
    found = _roster(request)
    if isinstance(found, web.Response):
        return found
    return web.json_response([person.member() for person in found.roster])


async def _paged(request: web.Request) -> web.Response:
    found = _roster(request)
    if isinstance(found, web.Response):
        return found
    size = min(500, max(50, int(request.query.get("pageSize", "200") or 200)))
    start = int(request.query.get("continuationToken", "0") or 0)
    people = found.roster[start : start + size]
    page: dict[str, Any] = {"members": [person.member() for person in people]}
    if start + size < len(found.roster):
        page["continuationToken"] = str(start + size)
    return web.json_response(page)


async def _member(request: web.Request) -> web.Response:
    found = _roster(request)
    if isinstance(found, web.Response):
        return found
    wanted = request.match_info["member"]
    for person in found.roster:
        if wanted in (person.id, person.aad_object_id):
            return web.json_response(person.member())
    return _error(404, "MemberNotFoundInConversation", "The member was not found")


def _denied(request: web.Request, audience: str = BOT_FRAMEWORK) -> web.Response | None:
    """The call recorded; Teams' 401 (Graph's own for Graph) when it lacks the bot's token."""
    request.app[SIM].record(request, {})
    if _authorized(request, audience):
        return None
    if audience == GRAPH:
        return web.json_response({"error": {"code": "InvalidAuthenticationToken"}}, status=401)
    return web.json_response(DENIED, status=401)


def _roster(request: web.Request) -> SimConversation | web.Response:
    denied = _denied(request)
    if denied is not None:
        return denied
    conversation, _ = conversation_of(request.app[SIM], request.match_info["conversation"])
    if conversation is None:
        return _error(404, "ConversationNotFound", "Conversation not found.")
    if not conversation.installed:
        return _error(403, "BotNotInConversationRoster", "The bot isn't part of the roster.")
    return conversation


async def _team(request: web.Request) -> web.Response:
    found = _team_of(request)
    return found if isinstance(found, web.Response) else web.json_response(found.details())


async def _channels(request: web.Request) -> web.Response:
    found = _team_of(request)
    if isinstance(found, web.Response):
        return found
    listed = [{"id": c.id, "name": None if c.id == found.id else c.name} for c in found.channels]
    return web.json_response({"conversations": listed})


def _team_of(request: web.Request) -> SimTeam | web.Response:
    denied = _denied(request)
    if denied is not None:
        return denied
    team = request.app[SIM].teams.get(request.match_info["team"])
    if team is None or not team.bot_installed:
        return _error(404, "TeamNotFound", "Team not found.")
    return team


async def _graph_team(request: web.Request) -> web.Response:
    group = request.match_info["group"]
    team = next((t for t in request.app[SIM].teams.values() if t.aad_group_id == group), None)
    if team is None or not team.bot_installed:
        return _graph(request, None)
    return _graph(request, [(p, "owner" if p in team.owners else None) for p in team.members])


async def _graph_chat(request: web.Request) -> web.Response:
    chat = request.app[SIM].conversations.get(request.match_info["chat"])
    if chat is None or chat.kind != "groupChat" or not chat.bot_installed:
        return _graph(request, None)
    return _graph(request, [(person, "owner") for person in chat.members])


def _graph(
    request: web.Request, members: list[tuple[SimPerson, str | None]] | None
) -> web.Response:
    """Graph's list of members with their roles (a guest's ``guest``); 403 where the app is
    not installed (its resource-specific permissions are granted at install)."""
    denied = _denied(request, GRAPH)
    if denied is not None:
        return denied
    if members is None:
        return web.json_response({"error": {"code": "Forbidden"}}, status=403)
    value = [
        {
            "@odata.type": "#microsoft.graph.aadUserConversationMember",
            "id": f"member-{person.aad_object_id}",
            "roles": ["guest"] if person.role == "guest" else [role] if role else [],
            "displayName": person.name,
            "userId": person.aad_object_id,
            "tenantId": person.tenant_id,
        }
        for person, role in members
    ]
    return web.json_response({"value": value})
