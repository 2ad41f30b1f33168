"""A Slack workspace on loopback: the Web API under ``/api/`` and Socket Mode's websocket.

The real slack_sdk / slack-bolt clients talk to it over HTTP and a websocket exactly as they
would to slack.com (``AsyncWebClient(base_url=sim.base_url)``). Every call is recorded, every
message lands in a channel model a test can read as a person would (``sim.thread(...)``), and
failures are injected per method (``sim.fail_next``) or to streams (``sim.expire_after_appends``).
Slack's rate tiers are enforced (``tests.sim.slack.tiers``; ``enforce_tiers=False`` turns them
off for capacity benchmarks, ``time_scale`` shrinks their windows for fast tests) and every 429
sent is counted per method (``sim.ratelimited``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Mapping
from typing import Any

import aiohttp
from aiohttp import web

from tests.patience import PATIENCE
from tests.sim.slack.assistant import Prompts
from tests.sim.slack.delivery import Delivering
from tests.sim.slack.interactions import Interactions
from tests.sim.slack.model import Ack, Call, Delivery, Message, Workspace
from tests.sim.slack.people import People
from tests.sim.slack.tiers import SLACK_TIERS, Tier, TierLimits, retry_after_header
from tests.sim.slack.views import StoredView, Triggers
from tests.sim.slack.webapi import ApiError, Identity, WebApi

__all__ = ["SlackSim"]

_JSON_FIELDS = ("blocks", "attachments", "metadata", "chunks")


class SlackSim(People, Interactions, Delivering):
    """Start with ``async with SlackSim() as sim``; point clients at ``sim.base_url``.

    ``tiers`` replaces Slack's rate table (method -> :class:`Tier`), ``time_scale`` multiplies
    every window, ``enforce_tiers=False`` admits everything.
    """

    def __init__(
        self,
        *,
        bot_token: str = "xoxb-sim-bot",
        app_token: str = "xapp-sim-app",
        me: Identity | None = None,
        user: str = "U0ALICE",
        tiers: Mapping[str, Tier] = SLACK_TIERS,
        enforce_tiers: bool = True,
        time_scale: float = 1.0,
    ) -> None:
        self.bot_token, self.app_token = bot_token, app_token
        self.bot_token_revoked = False
        """Set by :meth:`uninstall`: Slack answers the bot token ``token_revoked``."""
        self.limits = TierLimits(tiers=tiers, enabled=enforce_tiers, time_scale=time_scale)
        self.me = me or Identity()
        self.user = user
        self.workspace = Workspace()
        self.triggers = Triggers()
        self.api = WebApi(
            workspace=self.workspace,
            me=self.me,
            socket_url=self._issue_ticket,
            triggers=self.triggers,
        )
        self.views = self.api.views
        self._init_delivery()
        self.calls: list[Call] = []
        self.acks: list[Ack] = []
        self.envelopes: list[dict[str, Any]] = []
        self.responses: list[dict[str, Any]] = []
        self.http_target: tuple[str, str] | None = None
        self._failures: dict[str, deque[tuple[str, int, float | None]]] = defaultdict(deque)
        self._cuts: Counter[str] = Counter()
        self._tickets: set[str] = set()
        self._sockets: dict[int, web.WebSocketResponse] = {}
        self._transports: dict[int, asyncio.Transport] = {}
        self._socket_count = 0
        self.sent_to: dict[str, int] = {}
        """Which Socket Mode connection each envelope went to (connections are numbered from 0
        in the order they opened)."""
        self._turn = 0
        self._events: dict[str, tuple[dict[str, Any], int]] = {}
        self._event_count = 0
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------------------
    async def __aenter__(self) -> SlackSim:
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._web_api)
        app.router.add_get("/link/", self._socket)
        app.router.add_post("/respond/{n}", self._respond)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: object) -> None:
        for ws in list(self._sockets.values()):
            await ws.close(code=aiohttp.WSCloseCode.GOING_AWAY)
        if self._session:
            await self._session.close()
        if self._runner:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/"

    def _issue_ticket(self) -> str:
        ticket = uuid.uuid4().hex
        self._tickets.add(ticket)
        return f"ws://127.0.0.1:{self.port}/link/?ticket={ticket}"

    def _touch(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    # -- what a test reads ---------------------------------------------------------------------
    def calls_to(self, *methods: str) -> list[Call]:
        return [c for c in self.calls if c.method in methods]

    @property
    def ratelimited(self) -> Counter[str]:
        """How many 429s each method was answered (the tiers' and injected ones)."""
        return Counter(c.method for c in self.calls if c.status == 429)

    def thread(self, channel: str, ts: str) -> list[Message]:
        """The thread as a person sees it: the parent, then every reply in order."""
        return self.workspace.thread(channel, ts)

    def bot_replies(self, channel: str, ts: str) -> list[Message]:
        return [m for m in self.thread(channel, ts) if m.is_bot and m.ts != ts]

    def statuses(self, channel: str, thread_ts: str) -> list[str]:
        """Every status set on the thread; ``""`` marks a clear (a reply clears it)."""
        return self.api.statuses.get((channel, thread_ts), [])

    def ephemerals(self, user: str | None = None) -> list[Message]:
        return [m for m in self.workspace.ephemerals if user in (None, m.ephemeral_to)]

    def loading_messages(self, channel: str, thread_ts: str) -> list[str]:
        """The rotating loading messages last set with the thread's status."""
        return self.api.assistant.loading.get((channel, thread_ts), [])

    def prompts(self, channel: str) -> Prompts | None:
        """The suggested prompts shown in the app's DM ``channel``, if any."""
        return self.api.assistant.prompts.get(channel)

    def title(self, channel: str, thread_ts: str) -> str | None:
        return self.api.assistant.titles.get((channel, thread_ts))

    def home(self, user: str) -> StoredView | None:
        """The App Home tab ``user`` sees, if the app published one."""
        view_id = self.views.home.get(user)
        return self.views.by_id[view_id] if view_id else None

    def modals(self, user: str) -> list[StoredView]:
        """The modals open in front of ``user``, the top one last."""
        return [self.views.by_id[v] for v in self.views.modals.get(user, [])]

    async def wait_for(self, predicate: Callable[[], object], within: float = PATIENCE) -> None:
        """Wait until ``predicate()`` holds, checking on every change here (and every 20 ms,
        for conditions on things outside the sim)."""
        deadline = asyncio.get_running_loop().time() + within
        while not predicate():
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError("the Slack sim never reached the awaited state")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.02))

    @property
    def connections(self) -> set[int]:
        """The Socket Mode connections open now."""
        return set(self._sockets)

    async def wait_connections(self, count: int = 1, within: float = PATIENCE) -> None:
        await self.wait_for(lambda: len(self._sockets) >= count, within)

    async def acked(self, delivery: Delivery, within: float = PATIENCE) -> None:
        wanted = set(delivery.envelope_ids)
        await self.wait_for(lambda: wanted <= {a.envelope_id for a in self.acks}, within)

    # -- injection -----------------------------------------------------------------------------
    def fail_next(
        self,
        method: str,
        error: str = "ratelimited",
        *,
        status: int | None = None,
        retry_after: float | None = 1,
        times: int = 1,
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail (429 + Retry-After for ratelimited)."""
        code = status or (429 if error == "ratelimited" else 200)
        for _ in range(times):
            self._failures[method].append((error, code, retry_after))

    def cut_next(self, method: str, *, times: int = 1) -> None:
        """Drop the connection of the next ``times`` calls of ``method`` without an answer, as
        a network failure would (the client gets no HTTP response at all)."""
        self._cuts[method] += times

    async def disconnect(self, reason: str = "refresh_requested", grace: float = 5.0) -> int:
        """Slack retires every live connection: a ``disconnect`` message, a moment for the app
        to open a new one and leave, then the close. Returns how many the sim had to close."""
        live = dict(self._sockets)
        for ws in live.values():
            await ws.send_json(
                {"type": "disconnect", "reason": reason, "debug_info": {"host": "sim"}}
            )
        with contextlib.suppress(TimeoutError):
            await self.wait_for(lambda: not live.keys() & self._sockets.keys(), grace)
        stayed = live.keys() & self._sockets.keys()
        for index in stayed:
            await live[index].close()
        await self.wait_for(lambda: not live.keys() & self._sockets.keys())
        return len(stayed)

    async def drop(self) -> None:
        """Every live connection dies without a close frame (a network cut)."""
        live = dict(self._transports)
        for transport in live.values():
            transport.abort()
        await self.wait_for(lambda: not live.keys() & self._sockets.keys())

    @property
    def expire_after_appends(self) -> int | None:
        return self.api.expire_after_appends

    @expire_after_appends.setter
    def expire_after_appends(self, appends: int | None) -> None:
        """Streams drop once they hold this many appends (a deterministic stand-in for ~5 min)."""
        self.api.expire_after_appends = appends

    # -- the Web API ---------------------------------------------------------------------------
    async def _web_api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if self._cuts[method] > 0:
            self._cuts[method] -= 1
            at = asyncio.get_running_loop().time()
            self.calls.append(
                Call(
                    method=method,
                    args={},
                    at=at,
                    ok=False,
                    error="cut",
                    status=0,
                    token_kind=None,
                    response={},
                )
            )
            assert request.transport is not None
            request.transport.abort()
            raise web.HTTPServiceUnavailable
        args: dict[str, Any] = dict(request.query)
        if request.can_read_body:
            if request.content_type == "application/json":
                args.update(await request.json())
            else:
                args.update((await request.post()).items())
        for key in _JSON_FIELDS:
            if isinstance(args.get(key), str):
                with contextlib.suppress(ValueError):
                    args[key] = json.loads(args[key])
        token = args.pop("token", None)
        auth = request.headers.get("Authorization", "")
        if auth.startswith("Bearer "):
            token = auth.removeprefix("Bearer ")
        kind = {self.bot_token: "bot", self.app_token: "app"}.get(str(token)) if token else None
        status, body, headers = self._answer(method, args, token, kind)
        self.calls.append(
            Call(
                method=method,
                args=args,
                at=asyncio.get_running_loop().time(),
                ok=bool(body["ok"]),
                error=body.get("error"),
                status=status,
                token_kind=kind,
                response=body,
            )
        )
        self._touch()
        return web.json_response(body, status=status, headers=headers)

    def _answer(
        self, method: str, args: dict[str, Any], token: object, kind: str | None
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        if self._failures[method]:
            error, status, retry_after = self._failures[method].popleft()
            headers = {"Retry-After": str(int(retry_after))} if retry_after is not None else {}
            return status, {"ok": False, "error": error}, headers
        handler = self.api.handler(method)
        if handler is None:
            return 404, {"ok": False, "error": "unknown_method"}, {}
        if token is None:
            return 200, {"ok": False, "error": "not_authed"}, {}
        if kind is None:
            return 200, {"ok": False, "error": "invalid_auth"}, {}
        if kind == "bot" and self.bot_token_revoked:
            return 200, {"ok": False, "error": "token_revoked"}, {}
        if (kind == "app") != (method == "apps.connections.open"):
            return 200, {"ok": False, "error": "not_allowed_token_type"}, {}
        wait = self.limits.admit(
            method, team=self.me.team_id, channel=args.get("channel") or args.get("channel_id")
        )
        if wait is not None:
            return (
                429,
                {"ok": False, "error": "ratelimited"},
                {"Retry-After": retry_after_header(wait)},
            )
        try:
            return 200, {"ok": True, **handler(args)}, {}
        except ApiError as refused:
            body: dict[str, Any] = {"ok": False, "error": refused.error, **refused.fields}
            if refused.detail:
                body["response_metadata"] = {"messages": [f"[ERROR] {refused.detail}"]}
            return 200, body, {}
