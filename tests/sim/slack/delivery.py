"""How the simulated Slack delivers to the app, and what it makes of the app's answers.

Over Socket Mode each delivery is an envelope (``events_api``, ``interactive``,
``slash_commands``) that the app acknowledges with its ``envelope_id``; over HTTP it is a
signed POST whose response is the acknowledgement. An acknowledgement may carry a payload
(https://docs.slack.dev/apis/events-api/using-socket-mode, "acknowledge with a payload"), and
Slack acts on it as it documents: a slash command's ``text`` (or ``blocks``) is shown to the
user who typed it, only to them unless ``response_type`` is ``in_channel``
(https://docs.slack.dev/interactivity/implementing-slash-commands); a view submission's
``response_action`` ``errors`` keeps the modal open with the errors under their blocks,
``update`` replaces it, ``clear`` closes every modal, and no payload closes it
(https://docs.slack.dev/surfaces/modals, "Handling submissions"). A ``response_url`` post is
shown the same way as a slash command's answer.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable
from typing import Any

import aiohttp
from aiohttp import web

from tests.sim.slack.http_events import signed_delivery
from tests.sim.slack.model import Ack, Message, Workspace
from tests.sim.slack.views import Views
from tests.sim.slack.webapi import Identity

__all__ = ["Delivering", "Target"]

ACCEPTS_PAYLOAD = frozenset({"interactive", "slash_commands"})

Target = tuple[str, str, str | None]
"""Where a slash command's or a response URL's answer shows: (user, channel, thread_ts)."""


class Delivering:
    """The delivering side of :class:`tests.sim.slack.SlackSim` (mixed in)."""

    me: Identity
    port: int
    workspace: Workspace
    views: Views
    acks: list[Ack]
    responses: list[dict[str, Any]]
    envelopes: list[dict[str, Any]]
    sent_to: dict[str, int]
    http_target: tuple[str, str] | None
    _tickets: set[str]
    _sockets: dict[int, web.WebSocketResponse]
    _transports: dict[int, asyncio.Transport]
    _socket_count: int
    _turn: int
    _session: aiohttp.ClientSession | None
    _touch: Callable[[], None]
    wait_connections: Callable[..., Any]

    def _init_delivery(self) -> None:
        self._pending: dict[str, tuple[str, dict[str, Any]]] = {}
        """Each delivery awaiting its acknowledgement: its kind and payload."""
        self._targets: dict[str, Target] = {}
        """Each response URL's (and slash command's) user, channel and thread."""

    # -- Socket Mode ---------------------------------------------------------------------------
    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if request.query.get("ticket") not in self._tickets:
            return web.Response(status=401)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        index, self._socket_count = self._socket_count, self._socket_count + 1
        self._sockets[index] = ws
        assert request.transport is not None
        self._transports[index] = request.transport
        await ws.send_json(
            {
                "type": "hello",
                "num_connections": len(self._sockets),
                "debug_info": {"host": "sim", "approximate_connection_time": 18060},
                "connection_info": {"app_id": self.me.app_id},
            }
        )
        self._touch()
        try:
            async for frame in ws:
                if frame.type == aiohttp.WSMsgType.TEXT:
                    data = json.loads(frame.data)
                    if "envelope_id" in data:
                        self._acknowledged(data["envelope_id"], index, data.get("payload"))
        finally:
            self._sockets.pop(index, None)
            self._transports.pop(index, None)
            self._touch()
        return ws

    def _acknowledged(self, envelope_id: str, connection: int, payload: Any) -> None:
        self.acks.append(
            Ack(
                envelope_id=envelope_id,
                connection=connection,
                payload=payload,
                at=asyncio.get_running_loop().time(),
            )
        )
        pending = self._pending.pop(envelope_id, None)
        if pending is not None and isinstance(payload, dict) and payload:
            self._act_on(pending[0], pending[1], payload)
        elif pending is not None and pending[1].get("type") == "view_submission":
            self.views.close(str(pending[1]["view"]["id"]))
        self._touch()

    async def _send(
        self,
        kind: str,
        payload: dict[str, Any],
        *,
        to_all: bool,
        retry_attempt: int = 0,
        via: int | None = None,
    ) -> tuple[str, ...]:
        """Deliver to one connection in turn (``via``: that one, as a test directs it; Slack
        picks one itself), or ``to_all`` of them."""
        if self.http_target:
            return (await self._post_http(kind, payload, retry_attempt),)
        await self.wait_connections(1)
        if to_all:
            targets = sorted(self._sockets.items())
        elif via is not None:
            targets = [(via, self._sockets[via])]
        else:
            order = sorted(self._sockets)
            pick = order[self._turn % len(order)]
            targets = [(pick, self._sockets[pick])]
            self._turn += 1
        ids = []
        for index, ws in targets:
            envelope: dict[str, Any] = {
                "envelope_id": str(uuid.uuid4()),
                "payload": payload,
                "type": kind,
                "accepts_response_payload": kind in ACCEPTS_PAYLOAD,
            }
            if kind == "events_api":
                envelope["retry_attempt"] = retry_attempt
                envelope["retry_reason"] = "timeout" if retry_attempt else ""
            self.envelopes.append(envelope)
            self.sent_to[envelope["envelope_id"]] = index
            self._pending[envelope["envelope_id"]] = (kind, payload)
            await ws.send_json(envelope)
            ids.append(envelope["envelope_id"])
        return tuple(ids)

    async def _post_http(self, kind: str, payload: dict[str, Any], retry_attempt: int) -> str:
        """Deliver like the Events API / interactivity over HTTP, signed with the secret."""
        assert self.http_target
        assert self._session
        url, secret = self.http_target
        body, headers = signed_delivery(kind, payload, secret, retry_attempt)
        delivery_id = str(uuid.uuid4())
        async with self._session.post(url, data=body, headers=headers) as response:
            answer = await response.read()
            if response.status == 200:
                self._pending[delivery_id] = (kind, payload)
                said = json.loads(answer) if answer.strip().startswith(b"{") else None
                self._acknowledged(delivery_id, -1, said)
        return delivery_id

    # -- what Slack makes of an answer -----------------------------------------------------------
    def _act_on(self, kind: str, delivered: dict[str, Any], said: dict[str, Any]) -> None:
        if kind == "slash_commands":
            key = str(delivered["response_url"]).rsplit("/", 1)[-1]
            self._show_reply(self._targets[key], said)
        elif delivered.get("type") == "view_submission":
            view = self.views.by_id[str(delivered["view"]["id"])]
            action = said.get("response_action")
            if action == "errors":
                view.errors = {str(k): str(v) for k, v in dict(said.get("errors") or {}).items()}
            elif action == "update":
                self.views.update(view.id, said["view"])
            elif action == "clear":
                for view_id in list(self.views.modals.get(view.user, [])):
                    self.views.close(view_id)
            else:
                self.views.close(view.id)

    def _show_reply(self, target: Target, said: dict[str, Any]) -> None:
        """A slash command's answer, or a response URL's post: only its user sees it unless it
        is ``in_channel``."""
        user, channel, thread_ts = target
        message = Message(
            channel=channel,
            ts=self.workspace.next_ts(),
            user=self.me.bot_user_id,
            thread_ts=thread_ts,
            bot_id=self.me.bot_id,
            text=said.get("text"),
            blocks=said.get("blocks"),
            ephemeral_to=None if said.get("response_type") == "in_channel" else user,
        )
        if message.ephemeral_to is None:
            self.workspace.add_channel(channel, "channel")
            self.workspace.post(message)
        else:
            self.workspace.ephemerals.append(message)

    def _response_url(self, target: Target) -> str:
        """A response URL for an interaction whose answers show at ``target``."""
        key = uuid.uuid4().hex
        self._targets[key] = target
        return f"http://127.0.0.1:{self.port}/respond/{key}"

    async def _respond(self, request: web.Request) -> web.Response:
        said = await request.json()
        self.responses.append(said)
        target = self._targets.get(request.match_info["n"])
        if target is not None:
            self._show_reply(target, said)
        self._touch()
        return web.Response(text="ok")
