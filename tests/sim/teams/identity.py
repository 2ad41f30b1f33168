"""Who signs what in the simulated Bot Framework: the keys that sign Teams' activities to the
bot (served as OpenID metadata and a JWKS, as login.botframework.com serves them), and the
login service that gives the bot its own tokens (client credentials, as
login.microsoftonline.com does), checked on every call the bot makes.

From learn.microsoft.com/azure/bot-service/rest-api/bot-framework-rest-connector-authentication:
an activity's token is RS256, ``iss`` ``https://api.botframework.com``, ``aud`` the bot's app
id, a ``serviceurl`` claim equal to the activity's ``serviceUrl``, signed with a key of the
OpenID metadata's ``jwks_uri`` whose ``endorsements`` hold the channel (``msteams``); the bot's
token is asked for with ``grant_type=client_credentials``, its app id and secret and the scope
``https://api.botframework.com/.default``, and answered ``{"token_type": "Bearer",
"expires_in": 3600, "ext_expires_in": 3600, "access_token": ...}``. A bad secret is AAD's
``401 invalid_client`` (AADSTS7000215); a call without a valid token, the connector's ``401
{"message": "Authorization has been denied for this request."}``.
"""

from __future__ import annotations

import base64
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

__all__ = [
    "BOT_FRAMEWORK",
    "BOT_SCOPE",
    "GRAPH",
    "GRAPH_SCOPE",
    "Identity",
    "SimKey",
    "TokenRefused",
]

BOT_FRAMEWORK = "https://api.botframework.com"
"""The issuer of activities' tokens, and the audience of the bot's own."""
BOT_SCOPE = BOT_FRAMEWORK + "/.default"
GRAPH = "https://graph.microsoft.com"
GRAPH_SCOPE = GRAPH + "/.default"
DENIED = {"message": "Authorization has been denied for this request."}


class TokenRefused(Exception):
    """The login service refuses a token request: ``status`` and AAD's error body."""

    def __init__(self, status: int, error: str, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.body = {"error": error, "error_description": description}


@cache
def _private(kid: str) -> rsa.RSAPrivateKey:
    """One RSA key per key id for the whole test run: making one costs a tenth of a second."""
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@dataclass(eq=False)
class SimKey:
    """An RSA key pair; ``endorsements``: the channels it may sign for."""

    kid: str
    endorsements: tuple[str, ...] = ("msteams",)

    @property
    def private(self) -> rsa.RSAPrivateKey:
        return _private(self.kid)

    def jwk(self) -> dict[str, Any]:
        numbers = self.private.public_key().public_numbers()
        return {
            "kty": "RSA",
            "use": "sig",
            "kid": self.kid,
            "x5t": self.kid,
            "n": _b64(numbers.n),
            "e": _b64(numbers.e),
            "endorsements": list(self.endorsements),
        }


def _b64(number: int) -> str:
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Identity:
    """The bot's registration (app id, secret, tenant), the activity signing keys and the
    login service's own key; ``clock`` is the simulator's Unix time (its tokens expire by it)."""

    def __init__(
        self,
        *,
        app_id: str,
        app_password: str,
        tenant_id: str,
        clock: Callable[[], float],
        token_lifetime: int = 3600,
    ) -> None:
        self.app_id = app_id
        self.app_password = app_password
        self.tenant_id = tenant_id
        self.clock = clock
        self.token_lifetime = token_lifetime
        self.keys: list[SimKey] = [SimKey(kid="sim-signing-1")]
        """The JWKS, in order; the last signs."""
        self.stranger = SimKey(kid="sim-stranger")
        """A key nobody published: what a forger signs with."""
        self.login = SimKey(kid="sim-login")
        self.tokens_issued: list[dict[str, Any]] = []
        self.metadata_reads = 0
        self.keys_reads = 0
        self._rotations = 1

    # -- activities' tokens --------------------------------------------------------------

    def rotate(self, *, drop_old: bool = False) -> SimKey:
        """A new signing key, published in the JWKS and signing from now on; ``drop_old``
        removes the others from the JWKS too."""
        self._rotations += 1
        key = SimKey(kid=f"sim-signing-{self._rotations}")
        self.keys = [key] if drop_old else [*self.keys, key]
        return key

    def jwks(self) -> dict[str, Any]:
        self.keys_reads += 1
        return {"keys": [key.jwk() for key in self.keys]}

    def openid(self, base: str) -> dict[str, Any]:
        self.metadata_reads += 1
        return {
            "issuer": BOT_FRAMEWORK,
            "authorization_endpoint": "https://invalid.botframework.com",
            "jwks_uri": f"{base}/v1/.well-known/keys",
            "id_token_signing_alg_values_supported": ["RS256"],
            "token_endpoint_auth_methods_supported": ["private_key_jwt"],
        }

    def activity_token(
        self,
        service_url: str,
        *,
        key: SimKey | None = None,
        audience: str | None = None,
        issuer: str = BOT_FRAMEWORK,
        lifetime: int = 3600,
        age: int = 0,
    ) -> str:
        """A token Teams would send with an activity (the current key's unless ``key``);
        ``age`` seconds old, so a test can send an expired one. Signed by the real clock: the
        bot checks it by its own."""
        signer = key or self.keys[-1]
        now = int(time.time()) - age
        claims = {
            "iss": issuer,
            "aud": audience if audience is not None else self.app_id,
            "serviceurl": service_url,
            "nbf": now - 5,
            "iat": now - 5,
            "exp": now + lifetime,
        }
        return jwt.encode(claims, signer.private, algorithm="RS256", headers={"kid": signer.kid})

    # -- the bot's own tokens ------------------------------------------------------------

    def issue(self, tenant: str, form: dict[str, str]) -> dict[str, Any]:
        """The login service's answer to a client-credentials request for ``tenant``."""
        if form.get("grant_type") != "client_credentials":
            raise TokenRefused(400, "unsupported_grant_type", "AADSTS70003: grant_type")
        if form.get("client_id") != self.app_id:
            raise TokenRefused(400, "unauthorized_client", "AADSTS700016: unknown application")
        if form.get("client_secret") != self.app_password:
            raise TokenRefused(401, "invalid_client", "AADSTS7000215: Invalid client secret")
        scope = form.get("scope")
        if scope not in (BOT_SCOPE, GRAPH_SCOPE):
            raise TokenRefused(400, "invalid_scope", f"AADSTS70011: scope {scope!r}")
        if scope == GRAPH_SCOPE and tenant == "botframework.com":
            raise TokenRefused(400, "invalid_request", "AADSTS90009: a tenant is needed")
        now = int(self.clock())
        claims = {
            "aud": BOT_FRAMEWORK if scope == BOT_SCOPE else GRAPH,
            "iss": f"https://sts.windows.net/{self.tenant_id}/",
            "appid": self.app_id,
            "tid": self.tenant_id if tenant == "botframework.com" else tenant,
            "nbf": now,
            "iat": now,
            "exp": now + self.token_lifetime,
            "jti": uuid.uuid4().hex,
        }
        self.tokens_issued.append(claims)
        token = jwt.encode(
            claims, self.login.private, algorithm="RS256", headers={"kid": self.login.kid}
        )
        return {
            "token_type": "Bearer",
            "expires_in": self.token_lifetime,
            "ext_expires_in": self.token_lifetime,
            "access_token": token,
        }

    def bearer(self, header: str | None, *, audience: str) -> dict[str, Any] | None:
        """The claims of a call's ``Authorization: Bearer`` token, if the login service gave
        it to this bot for ``audience`` and it has not expired (by the simulator's clock);
        None otherwise."""
        if not header or not header.startswith("Bearer "):
            return None
        try:
            claims: dict[str, Any] = jwt.decode(
                header.removeprefix("Bearer "),
                self.login.private.public_key(),
                algorithms=["RS256"],
                audience=audience,
                options={"verify_exp": False, "verify_nbf": False, "verify_iat": False},
            )
        except jwt.InvalidTokenError:
            return None
        if claims.get("appid") != self.app_id or claims.get("exp", 0) <= self.clock():
            return None
        return claims
