"""Microsoft Teams' side of a bot, on loopback: the Bot Framework's connector, its login
service and its signing keys, and the people, teams and chats around one bot.

Start it with ``async with TeamsSim() as teams``, set ``teams.bot_url`` to the bot's
``/api/messages``, and point the bot at ``teams.openid_url`` (``TEAMS_OPENID_URL``),
``teams.token_url`` (``TEAMS_TOKEN_URL``) and ``teams.graph_url`` (``TEAMS_GRAPH_URL``); it
replies to each activity's ``serviceUrl``, this server. People act through
:class:`tests.sim.teams.people.People` (``teams.say``, ``teams.mention``, ``teams.feedback``,
``teams.check_with_sources``, ``teams.add_bot_to_team``...); what they see is read with
``teams.bot_messages(conversation)`` and each :class:`~tests.sim.teams.model.SimMessage`
(``text``, ``citations``, ``popup(n)``, ``ai_label``, ``feedback``), a stream's updates with
``teams.streams``. Every request is checked (:mod:`.rules`, :mod:`.streams`, :mod:`.pace`):
``teams.violations`` lists what Teams would have refused or shown broken, and
``teams.assert_valid()`` fails a test that sent any.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from tests.sim.teams.connector import SIM, conversation_of, routes
from tests.sim.teams.identity import BOT_FRAMEWORK, DENIED, Identity
from tests.sim.teams.model import SimConversation, SimMessage, SimStream
from tests.sim.teams.pace import Pace, RateLimits
from tests.sim.teams.people import People
from tests.sim.teams.rules import Refused, check_activity

__all__ = ["RecordedRequest", "TeamsSim", "Violation"]

TEAMS_LIMITS = RateLimits()
ROSTER = "The bot isn't part of the conversation roster."
Handler = Callable[[dict[str, Any], SimConversation, "str | None"], tuple[int, dict[str, Any]]]


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    body: dict[str, Any]
    status: int
    reply: dict[str, Any]
    at: float
    token: bool
    """Whether it carried a bearer token."""


@dataclass(frozen=True)
class Violation:
    """What Teams would refuse, or show broken: the bot that sent it should not have."""

    request: str
    problem: str

    def __str__(self) -> str:
        return f"{self.request}: {self.problem}"


@dataclass
class _Injected:
    method: str
    refused: Refused
    count: int
    retry_after: int | None


class TeamsSim(People):
    """One bot and the tenant around it.

    ``require_tokens=False`` takes the bot's calls without a token (a bot run with
    ``TEAMS_AUTH=off``); ``rate_limits=None`` turns Teams' per-conversation pace off;
    ``stream_interval`` and ``stream_seconds`` are a stream's pace and lifetime, in seconds of
    the simulator's clock, which :meth:`advance` moves on without waiting (and by which the
    bot's tokens expire); ``frozen``: only :meth:`advance` moves it, so a test decides what
    is too soon.
    """

    def __init__(
        self,
        *,
        app_id: str = "00000000-0000-4000-8000-00000000b075",
        app_password: str = "sim-app-secret-not-for-logs",
        tenant_id: str = "00000000-0000-4000-8000-0000000ten7",
        require_tokens: bool = True,
        rate_limits: RateLimits | None = TEAMS_LIMITS,
        stream_interval: float = 1.0,
        stream_seconds: float = 120.0,
        token_lifetime: int = 3600,
        frozen: bool = False,
    ) -> None:
        super().__init__(frozen=frozen)
        self.app_id = app_id
        self.tenant_id = tenant_id
        self.identity = Identity(
            app_id=app_id,
            app_password=app_password,
            tenant_id=tenant_id,
            clock=self.unix_time,
            token_lifetime=token_lifetime,
        )
        self.require_tokens = require_tokens
        self.pace = Pace(rate_limits) if rate_limits is not None else None
        self.stream_interval = stream_interval
        self.stream_seconds = stream_seconds
        self.streams: dict[str, SimStream] = {}
        self.typing: list[tuple[SimConversation, float]] = []
        self.requests: list[RecordedRequest] = []
        self.violations: list[Violation] = []
        self.bot_url = ""
        """The bot's ``/api/messages``; set by the test."""
        self._injected: list[_Injected] = []
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------------------

    async def __aenter__(self) -> TeamsSim:
        app = web.Application()
        app[SIM] = self
        routes(app)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close_client()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def openid_url(self) -> str:
        return self.base_url + "/v1/.well-known/openidconfiguration"

    @property
    def token_url(self) -> str:
        return self.base_url + "/{tenant}/oauth2/v2.0/token"

    @property
    def graph_url(self) -> str:
        return self.base_url + "/graph/v1.0"

    # -- the connector's way in ----------------------------------------------------------

    async def received(
        self, request: web.Request, handle: Handler, *, has_body: bool = True
    ) -> web.Response:
        """One call to a conversation: token, conversation, body, Teams' rules, an injected
        refusal, the pace, then ``handle``; recorded, and a violation kept for what the bot
        should not have sent."""
        raw = await request.read() if has_body else b""
        name = f"{request.method} {request.path}"
        try:
            body = json.loads(raw) if raw else {}
            if not isinstance(body, dict):
                raise ValueError("not an object")
        except ValueError:
            return self._answer(request, {}, self._refuse(name, Refused(400, "BadSyntax", "JSON")))
        if self.require_tokens and not self.identity.bearer(
            request.headers.get("Authorization"), audience=BOT_FRAMEWORK
        ):
            self.violations.append(Violation(name, "no valid bearer token"))
            return self._answer(request, body, (401, DENIED))
        conversation, thread = conversation_of(self, request.match_info["conversation"])
        try:
            if conversation is None:
                raise Refused(404, "ConversationNotFound", "Conversation not found.")
            if not conversation.installed:
                # the bot was removed: Teams' doing, which the bot must take in its stride
                removed = Refused(
                    403, "BotNotInConversationRoster", "The bot is not in the roster."
                )
                return self._answer(request, body, _refusal(removed))
            refused = check_activity(body) if has_body else []
            for problem in refused:
                self.violations.append(Violation(name, problem.message))
            if refused:
                return self._answer(request, body, _refusal(refused[0]))
            injected = self._take_injected(request.method)
            if injected is not None:
                return self._answer(request, body, _refusal(injected.refused), injected.retry_after)
            wait = self.pace.take(conversation.id, self.now()) if self.pace else None
            if wait is not None:
                throttled = Refused(429, "Throttled", "Too many requests to this conversation")
                return self._answer(request, body, _refusal(throttled), wait)
            status, reply = handle(body, conversation, thread)
            if "error" in reply:
                self.violations.append(Violation(name, str(reply["error"])))
        except Refused as refused_now:
            status, reply = self._refuse(name, refused_now)
            retry = 1 if refused_now.status == 429 else None
            return self._answer(request, body, (status, reply), retry)
        return self._answer(request, body, (status, reply))

    def _refuse(self, name: str, refused: Refused) -> tuple[int, dict[str, Any]]:
        self.violations.append(Violation(name, refused.message))
        return _refusal(refused)

    def _answer(
        self,
        request: web.Request,
        body: dict[str, Any],
        answer: tuple[int, dict[str, Any]],
        retry_after: int | None = None,
    ) -> web.Response:
        status, reply = answer
        self.record(request, body, status=status, reply=reply)
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
        return web.json_response(reply, status=status, headers=headers)

    def record(
        self,
        request: web.Request,
        body: dict[str, Any],
        *,
        status: int = 200,
        reply: dict[str, Any] | None = None,
    ) -> None:
        self.requests.append(
            RecordedRequest(
                method=request.method,
                path=request.path,
                body=body,
                status=status,
                reply=reply or {},
                at=self.now(),
                token="Authorization" in request.headers,
            )
        )
        self.touch()

    def _take_injected(self, method: str) -> _Injected | None:
        for rule in self._injected:
            if rule.count > 0 and rule.method == method:
                rule.count -= 1
                return rule
        return None

    # -- what the bot's activities become ------------------------------------------------

    def show(
        self,
        conversation: SimConversation,
        body: dict[str, Any],
        *,
        thread: str | None = None,
        message_id: str | None = None,
        stream: SimStream | None = None,
    ) -> SimMessage:
        """The bot's message as the conversation shows it from now on."""
        root = conversation.message(thread) if thread else None
        if conversation.kind == "channel" and root is not None and root.thread is not None:
            root = root.thread  # a reply to a reply is in the same thread
        message = SimMessage(
            id=message_id or self.new_id(),
            conversation=conversation,
            sender=None,
            thread=root if conversation.kind == "channel" else None,
            reply_to=thread,
            stream=stream,
        )
        self.apply(message, body)
        conversation.messages.append(message)
        return message

    def apply(self, message: SimMessage, body: dict[str, Any]) -> None:
        message.activity = copy.deepcopy(body)
        message.text = str(body.get("text") or "")
        self.touch()

    # -- injected failures and what a test reads ------------------------------------------

    def refuse_next(
        self,
        method: str,
        status: int,
        code: str,
        message: str = "",
        *,
        count: int = 1,
        retry_after: int | None = None,
    ) -> None:
        """The next ``count`` connector calls of ``method`` (``POST``, ``PUT``...) get this
        error (a 429 with ``retry_after``: Teams' throttling)."""
        refused = Refused(status, code, message or code)
        self._injected.append(_Injected(method, refused, count, retry_after))

    def bot_messages(self, conversation: SimConversation) -> list[SimMessage]:
        """The bot's messages a person sees there, in order (threads' replies included)."""
        return [m for m in conversation.messages if m.from_bot and not m.deleted]

    def replies(self, root: SimMessage) -> list[SimMessage]:
        """A channel thread's replies, in order."""
        return [m for m in root.conversation.messages if m.thread is root and not m.deleted]

    def take_violations(self) -> list[Violation]:
        taken, self.violations = self.violations, []
        return taken

    def assert_valid(self) -> None:
        """No request broke a rule, and every message the bot left shows each ``[n]`` with its
        citation and each citation with its ``[n]``."""
        broken = [
            Violation(f"message {m.id}", problem)
            for conversation in self.conversations.values()
            for m in self.bot_messages(conversation)
            if m.stream is None or not m.stream.open
            for problem in m.unmatched()
        ]
        everything = [*self.violations, *broken]
        assert not everything, "what Teams would refuse or show broken:\n" + "\n".join(
            f"  {v}" for v in everything
        )

    def requests_to(self, method: str, path_part: str = "") -> list[RecordedRequest]:
        return [r for r in self.requests if r.method == method and path_part in r.path]


def _refusal(refused: Refused) -> tuple[int, dict[str, Any]]:
    return refused.status, refused.body()
