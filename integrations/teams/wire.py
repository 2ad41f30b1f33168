"""The one way out to Teams: every call the bot makes (to the connector at an activity's
``serviceUrl``, and to Microsoft Graph) goes through one Teams SDK HTTP client
(``microsoft_teams.common.http.Client``, which the SDK's API clients share) and this module's
middleware on it, which

- measures each activity before it leaves: at most 100 KB in UTF-16, or :class:`TooLarge`
  (Teams would answer 413);
- attaches the bot's token (:class:`~integrations.teams.auth.BotTokens`; none when
  ``TEAMS_AUTH`` is off), and on a 401 forgets the tokens and tries once more with new ones;
- honours Teams' 429 and its ``Retry-After`` (and retries 412, 502 and 504, which the
  rate-limit page asks for too), with a growing, jittered wait when none is given, at most
  :data:`TRIES` times and never a wait longer than ``longest_wait``: past it the call fails
  with :class:`TeamsRefused`, which the caller turns into what a person reads.

Activities are read with the SDK's models (``ActivityParams``) before they are sent, so what
leaves is what the SDK can say.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from microsoft_teams.api.activities import ActivityParams
from microsoft_teams.api.clients import ConversationClient, TeamClient
from microsoft_teams.api.models import TeamDetails, TeamsChannelAccount
from microsoft_teams.common.http import Client, ClientOptions
from microsoft_teams.common.http.client import MiddlewareContext, MiddlewareNext
from pydantic import TypeAdapter

from bot.render.ports import Payload
from integrations.teams.auth import BotTokens
from integrations.teams.limits import ACTIVITY_BYTES, utf16_bytes

__all__ = ["TRIES", "TeamsRefused", "TeamsWire", "TooLarge"]

TRIES = 4
"""Attempts of one call that Teams throttles or fails in passing."""
RETRIED = frozenset({412, 429, 502, 504})
_ACTIVITY: TypeAdapter[Any] = TypeAdapter(ActivityParams)


class TeamsRefused(Exception):
    """Teams refused a call: ``status``, and its error ``code`` (``BotNotInConversationRoster``,
    ``ContentStreamNotAllowed``, ``Throttled``...)."""

    def __init__(self, status: int, code: str, message: str = "") -> None:
        super().__init__(f"{status} {code}: {message}"[:300])
        self.status = status
        self.code = code


class TooLarge(Exception):
    """An activity past Teams' 100 KB (UTF-16); not sent."""


def _wait(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds (a number or an HTTP date), if given."""
    given = response.headers.get("retry-after", "").strip()
    if given.replace(".", "", 1).isdigit():
        return float(given)
    when = email.utils.parsedate_tz(given) if given else None
    return max(0.0, email.utils.mktime_tz(when) - time.time()) if when else None


def _refused(response: httpx.Response) -> TeamsRefused:
    try:
        error = response.json().get("error") or {}
    except (ValueError, AttributeError):
        error = {}
    code = str(error.get("code", "")) if isinstance(error, dict) else ""
    message = str(error.get("message", "")) if isinstance(error, dict) else ""
    return TeamsRefused(response.status_code, code or response.reason_phrase, message)


class _Guard:
    """The middleware every call passes (the SDK client's ``Middleware``)."""

    def __init__(
        self,
        tokens: BotTokens | None,
        *,
        longest_wait: float,
        sleep: Callable[[float], Awaitable[None]],
    ) -> None:
        self._tokens = tokens
        self._longest_wait = longest_wait
        self._sleep = sleep

    async def send(self, context: MiddlewareContext, next: MiddlewareNext) -> httpx.Response:
        if context.json is not None and utf16_bytes(context.json) > ACTIVITY_BYTES:
            raise TooLarge(f"{utf16_bytes(context.json)} bytes in UTF-16")
        renewed = False
        for attempt in range(TRIES):
            try:
                return await next()
            except httpx.HTTPStatusError as error:
                response = error.response
                if response.status_code == 401 and self._tokens is not None and not renewed:
                    self._tokens.forget()
                    renewed = True
                    continue
                if response.status_code not in RETRIED or attempt == TRIES - 1:
                    raise _refused(response) from None
                wait = _wait(response)
                if wait is None:
                    wait = min(self._longest_wait, 2.0**attempt) * random.uniform(0.8, 1.2)
                if wait > self._longest_wait:
                    raise _refused(response) from None
                await self._sleep(wait)
        raise AssertionError("unreachable: the last attempt returns or raises")


class TeamsWire:
    """The bot's calls to Teams, each through one guarded SDK client."""

    def __init__(
        self,
        *,
        http: httpx.AsyncClient,
        tokens: BotTokens | None,
        graph_url: str,
        longest_wait: float = 30.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._tokens = tokens
        token = tokens.bot_framework if tokens is not None else None
        self.client = Client(ClientOptions(token=token), _http=http)
        self.client.use(_Guard(tokens, longest_wait=longest_wait, sleep=sleep))
        self._graph_url = graph_url.rstrip("/")
        self._conversations: dict[str, ConversationClient] = {}

    def conversations(self, service_url: str) -> ConversationClient:
        """The SDK's conversation client for one ``serviceUrl`` (Teams' region of a
        conversation), on the guarded HTTP client."""
        key = service_url.rstrip("/")
        if key not in self._conversations:
            self._conversations[key] = ConversationClient(key, self.client)
        return self._conversations[key]

    async def send(
        self,
        service_url: str,
        conversation_id: str,
        activity: Payload,
        *,
        reply_to: str | None = None,
    ) -> str:
        """Post ``activity`` to the conversation (in reply to ``reply_to``); its id (a
        stream's first activity: the stream's id)."""
        params = _ACTIVITY.validate_python(activity)
        activities = self.conversations(service_url).activities_client
        if reply_to is None:
            sent = await activities.create(conversation_id, params)
        else:
            sent = await activities.reply(conversation_id, reply_to, params)
        return str(sent.id)

    async def update(
        self, service_url: str, conversation_id: str, activity_id: str, activity: Payload
    ) -> None:
        params = _ACTIVITY.validate_python(activity)
        activities = self.conversations(service_url).activities_client
        await activities.update(conversation_id, activity_id, params)

    async def delete(self, service_url: str, conversation_id: str, activity_id: str) -> None:
        activities = self.conversations(service_url).activities_client
        await activities.delete(conversation_id, activity_id)

    async def member(
        self, service_url: str, conversation_id: str, member_id: str
    ) -> TeamsChannelAccount | None:
        """One person of the conversation's roster (their ``userRole``); None when they are
        not in it."""
        try:
            found = await self.conversations(service_url).members_client.get_by_id(
                conversation_id, member_id
            )
        except TeamsRefused as refused:
            if refused.status == 404:
                return None
            raise
        return found

    async def team(self, service_url: str, team_id: str) -> TeamDetails:
        return await TeamClient(service_url, self.client).get_by_id(team_id)

    async def team_owners(self, tenant: str, group_id: str) -> set[str]:
        """The Entra object ids of a team's owners (Graph; the roster does not say)."""
        assert self._tokens is not None, "Graph needs the bot's own token"
        tokens = self._tokens
        url = f"{self._graph_url}/teams/{group_id}/members"
        reply = await self.client.get(url, token=lambda: tokens.graph(tenant))
        return {
            str(member.get("userId"))
            for member in reply.json().get("value", [])
            if "owner" in (member.get("roles") or [])
        }
