"""The Bot Framework's authentication, both ways (learn.microsoft.com/azure/bot-service/
rest-api/bot-framework-rest-connector-authentication).

In, :class:`ActivityTokens` checks the JWT on every activity Teams posts: a bearer token,
RS256 (the metadata's ``id_token_signing_alg_values_supported``), signed by a key of the
OpenID metadata's ``jwks_uri`` whose ``endorsements`` name the activity's channel, issued by
the metadata's issuer (``https://api.botframework.com``), for the bot's app id, not expired
(five minutes of clock skew, "industry-standard"), its ``serviceurl`` the activity's
``serviceUrl``. The keys are kept for a day; a token signed by a key not yet known fetches
them again (a rotation), at most once in ten seconds, one fetch for all the activities
waiting.

Out, :class:`BotTokens` asks the login service for the bot's own tokens (client credentials,
scope ``https://api.botframework.com/.default``; Microsoft Graph's for a team's tenant) and
keeps each until five minutes before it expires, one request at a time.

No token, secret or key reaches a log or an error: a refusal says which check failed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx
import jwt
from pydantic import SecretStr

__all__ = [
    "BOT_SCOPE",
    "GRAPH_SCOPE",
    "ActivityTokens",
    "BotTokens",
    "KeysUnavailable",
    "TokenUnavailable",
    "Unauthorized",
]

log = logging.getLogger(__name__)

BOT_SCOPE = "https://api.botframework.com/.default"
GRAPH_SCOPE = "https://graph.microsoft.com/.default"
LEEWAY = 300
"""Seconds of clock skew allowed on a token's times ("Industry-standard clock-skew is 5
minutes")."""
KEYS_TTL = 24 * 3600.0
"""How long the signing keys are kept (the Bot Builder SDK keeps them five days)."""
REFETCH = 10.0
"""At most one fetch of the keys this often for a key not yet known: a forger's made-up key
ids cost Microsoft's endpoint two small reads every ten seconds, and a real rotation waits
no longer than that."""
MARGIN = 300.0
"""A token is renewed this long before it expires."""
_LONGEST_TOKEN = 16 * 1024
"""Characters of the longest token read: a header is no place for megabytes."""


class Unauthorized(Exception):
    """The activity's token does not hold; ``str()`` says which check failed (no token)."""


class KeysUnavailable(Exception):
    """The signing keys could not be read: nothing can be checked now (answer 503, and Teams
    delivers the activity again)."""


class TokenUnavailable(Exception):
    """The login service gave the bot no token; ``str()`` names its error code, never the
    secret."""


@dataclass(frozen=True, slots=True)
class _Keys:
    issuer: str
    algorithms: tuple[str, ...]
    keys: Mapping[str, tuple[jwt.PyJWK, tuple[str, ...] | None]]
    """kid -> the key and its endorsements (None: the JWKS gives none)."""
    read_at: float


class ActivityTokens:
    """Checks the token on each activity Teams posts to the bot."""

    def __init__(
        self,
        *,
        app_id: str,
        openid_url: str,
        http: httpx.AsyncClient,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._app_id = app_id
        self._openid_url = openid_url
        self._http = http
        self._clock = clock
        self._keys: _Keys | None = None
        self._last_fetch = -float("inf")
        self._lock = asyncio.Lock()

    async def check(self, authorization: str | None, activity: Mapping[str, Any]) -> dict[str, Any]:
        """The token's claims if it holds for ``activity``; :class:`Unauthorized` if not,
        :class:`KeysUnavailable` when the keys cannot be read."""
        scheme, _, token = (authorization or "").partition(" ")
        if scheme != "Bearer" or not token or len(token) > _LONGEST_TOKEN:
            raise Unauthorized("no bearer token")
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError:
            raise Unauthorized("not a JWT") from None
        kid = str(header.get("kid", ""))
        keys = await self._current(kid)
        found = keys.keys.get(kid)
        if found is None:
            raise Unauthorized("signed by a key the OpenID metadata does not list")
        if header.get("alg") not in keys.algorithms:
            raise Unauthorized("an algorithm the OpenID metadata does not allow")
        key, endorsements = found
        channel = str(activity.get("channelId", ""))
        if endorsements is not None and channel not in endorsements:
            raise Unauthorized(f"the key is not endorsed for {channel!r}")
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                key,
                algorithms=list(keys.algorithms),
                audience=self._app_id,
                issuer=keys.issuer,
                leeway=LEEWAY,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.InvalidTokenError as error:
            raise Unauthorized(type(error).__name__) from None
        claimed = str(claims.get("serviceurl", claims.get("serviceUrl", ""))).rstrip("/")
        if claimed != str(activity.get("serviceUrl", "")).rstrip("/"):
            raise Unauthorized("its serviceurl is not the activity's")
        return claims

    async def _current(self, kid: str) -> _Keys:
        """The keys, fetched when there are none, they are old, or ``kid`` is new (at most
        once a :data:`REFETCH`); one fetch at a time."""
        async with self._lock:
            now = self._clock()
            keys = self._keys
            stale = keys is None or now - keys.read_at > KEYS_TTL
            unknown = keys is not None and kid not in keys.keys
            if stale or (unknown and now - self._last_fetch >= REFETCH):
                self._last_fetch = now
                try:
                    self._keys = keys = await self._fetch(now)
                except (httpx.HTTPError, ValueError, KeyError, TypeError) as error:
                    log.warning("Teams' signing keys could not be read: %s", type(error).__name__)
                    if keys is None or stale:
                        raise KeysUnavailable(type(error).__name__) from None
            assert keys is not None
            return keys

    async def _fetch(self, now: float) -> _Keys:
        metadata = (await self._http.get(self._openid_url)).raise_for_status().json()
        jwks = (await self._http.get(str(metadata["jwks_uri"]))).raise_for_status().json()
        keys: dict[str, tuple[jwt.PyJWK, tuple[str, ...] | None]] = {}
        for entry in jwks["keys"]:
            try:
                key = jwt.PyJWK(entry)
            except jwt.PyJWKError:
                continue  # a key of a kind PyJWT does not read signs nothing we take
            endorsed = entry.get("endorsements")
            keys[str(entry.get("kid"))] = (key, tuple(endorsed) if endorsed is not None else None)
        algorithms = tuple(metadata.get("id_token_signing_alg_values_supported") or ("RS256",))
        return _Keys(str(metadata["issuer"]), algorithms, keys, now)


@dataclass(frozen=True, slots=True)
class _Token:
    value: str
    renew_at: float


class BotTokens:
    """The bot's own tokens: the Bot Framework's for the connector, Graph's per tenant."""

    def __init__(
        self,
        *,
        app_id: str,
        password: SecretStr,
        token_url: str,
        bot_tenant: str,
        http: httpx.AsyncClient,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``token_url`` may hold ``{tenant}``; the connector's tokens come from
        ``bot_tenant`` (``botframework.com`` for a multi-tenant bot)."""
        self._app_id = app_id
        self._password = password
        self._token_url = token_url
        self._bot_tenant = bot_tenant
        self._http = http
        self._clock = clock
        self._tokens: dict[tuple[str, str], _Token] = {}
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}

    async def bot_framework(self) -> str:
        return await self.token(BOT_SCOPE, self._bot_tenant)

    async def graph(self, tenant: str) -> str:
        return await self.token(GRAPH_SCOPE, tenant)

    def forget(self) -> None:
        """Drop every token (a service refused one: 401); each next call asks anew."""
        self._tokens.clear()

    async def token(self, scope: str, tenant: str) -> str:
        key = (scope, tenant)
        cached = self._tokens.get(key)
        if cached is not None and self._clock() < cached.renew_at:
            return cached.value
        async with self._locks.setdefault(key, asyncio.Lock()):
            cached = self._tokens.get(key)
            if cached is not None and self._clock() < cached.renew_at:
                return cached.value
            fresh = await self._ask(scope, tenant)
            self._tokens[key] = fresh
            return fresh.value

    async def _ask(self, scope: str, tenant: str) -> _Token:
        form = {
            "grant_type": "client_credentials",
            "client_id": self._app_id,
            "client_secret": self._password.get_secret_value(),
            "scope": scope,
        }
        asked = self._clock()
        try:
            reply = await self._http.post(self._token_url.replace("{tenant}", tenant), data=form)
            body = reply.json()
        except (httpx.HTTPError, ValueError) as error:
            raise TokenUnavailable(type(error).__name__) from None
        if reply.status_code != 200 or not isinstance(body, dict) or "access_token" not in body:
            code = body.get("error") if isinstance(body, dict) else None
            raise TokenUnavailable(f"{reply.status_code} {code or 'no token'}")
        lifetime = float(body.get("expires_in", 3600))
        margin = min(MARGIN, lifetime / 2)
        return _Token(str(body["access_token"]), asked + lifetime - margin)
