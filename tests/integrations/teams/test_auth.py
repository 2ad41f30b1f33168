"""citebot's Teams authentication against the simulated Bot Framework: an activity is taken only
with a token the OpenID metadata's keys signed, endorsed for msteams, for this bot, from the
Bot Framework, not expired, naming the activity's serviceUrl; the keys are read once and again
on a rotation (not for every made-up key id); the bot's own token is asked for once and
renewed before it expires, and its secret never shows in an error."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from integrations.teams.auth import (
    REFETCH,
    ActivityTokens,
    BotTokens,
    KeysUnavailable,
    TokenUnavailable,
    Unauthorized,
)
from tests.integrations.teams.conftest import APP_PASSWORD
from tests.sim.teams import TeamsSim
from tests.sim.teams.identity import SimKey


def activity(teams: TeamsSim) -> dict[str, Any]:
    return {"type": "message", "channelId": "msteams", "serviceUrl": teams.service_url}


def bearer(token: str) -> str:
    return f"Bearer {token}"


async def test_teams_signed_activity_is_taken(teams: TeamsSim, checker: ActivityTokens) -> None:
    token = teams.identity.activity_token(teams.service_url)
    claims = await checker.check(bearer(token), activity(teams))
    assert claims["aud"] == teams.app_id
    assert claims["iss"] == "https://api.botframework.com"


@pytest.mark.parametrize(
    ("forge", "reason"),
    [
        ("no header", "no bearer token"),
        ("basic", "no bearer token"),
        ("not a jwt", "not a JWT"),
        ("a stranger's key", "signed by a key the OpenID metadata does not list"),
        ("another bot", "InvalidAudienceError"),
        ("another issuer", "InvalidIssuerError"),
        ("expired", "ExpiredSignatureError"),
        ("another service", "its serviceurl is not the activity's"),
    ],
)
async def test_a_token_that_does_not_hold_is_refused_saying_why(
    teams: TeamsSim, checker: ActivityTokens, forge: str, reason: str
) -> None:
    identity, url = teams.identity, teams.service_url
    header: str | None = {
        "no header": None,
        "basic": "Basic dXNlcjpwYXNz",
        "not a jwt": "Bearer not.a.token",
        "a stranger's key": bearer(identity.activity_token(url, key=identity.stranger)),
        "another bot": bearer(identity.activity_token(url, audience="someone-else")),
        "another issuer": bearer(identity.activity_token(url, issuer="https://evil.example")),
        "expired": bearer(identity.activity_token(url, lifetime=3600, age=3600 + 301)),
        "another service": bearer(identity.activity_token("https://elsewhere.example/")),
    }[forge]
    with pytest.raises(Unauthorized) as refused:
        await checker.check(header, activity(teams))
    assert str(refused.value) == reason
    if header and header.startswith("Bearer ") and len(header) > 20:
        assert header.removeprefix("Bearer ") not in str(refused.value)


async def test_five_minutes_of_clock_skew_are_taken(
    teams: TeamsSim, checker: ActivityTokens
) -> None:
    token = teams.identity.activity_token(teams.service_url, lifetime=3600, age=3600 + 200)
    assert await checker.check(bearer(token), activity(teams))


async def test_a_key_not_endorsed_for_teams_signs_nothing_for_teams(
    teams: TeamsSim, checker: ActivityTokens
) -> None:
    key = SimKey(kid="sim-webchat", endorsements=("webchat",))
    teams.identity.keys.append(key)
    token = teams.identity.activity_token(teams.service_url, key=key)
    with pytest.raises(Unauthorized, match="not endorsed for 'msteams'"):
        await checker.check(bearer(token), activity(teams))


async def test_the_keys_are_read_once_and_again_when_they_rotate(
    teams: TeamsSim, http: httpx.AsyncClient
) -> None:
    now = [0.0]
    checker = ActivityTokens(
        app_id=teams.app_id, openid_url=teams.openid_url, http=http, clock=lambda: now[0]
    )
    first = teams.identity.activity_token(teams.service_url)
    await asyncio.gather(*(checker.check(bearer(first), activity(teams)) for _ in range(10)))
    assert (teams.identity.metadata_reads, teams.identity.keys_reads) == (1, 1)
    teams.identity.rotate(drop_old=True)
    now[0] += REFETCH
    rotated = teams.identity.activity_token(teams.service_url)
    await checker.check(bearer(rotated), activity(teams))
    assert teams.identity.keys_reads == 2
    forged = teams.identity.activity_token(teams.service_url, key=SimKey(kid="made-up"))
    for _ in range(5):
        with pytest.raises(Unauthorized):
            await checker.check(bearer(forged), activity(teams))
    assert teams.identity.keys_reads == 2, "made-up key ids fetch the keys once a REFETCH"
    now[0] += REFETCH
    with pytest.raises(Unauthorized):
        await checker.check(bearer(forged), activity(teams))
    assert teams.identity.keys_reads == 3


async def test_without_the_keys_nothing_is_taken(teams: TeamsSim, http: httpx.AsyncClient) -> None:
    checker = ActivityTokens(app_id=teams.app_id, openid_url="http://127.0.0.1:9/openid", http=http)
    with pytest.raises(KeysUnavailable):
        await checker.check(bearer(teams.identity.activity_token(teams.service_url)), {})


async def test_the_bots_token_is_asked_for_once_and_renewed_before_it_expires(
    teams: TeamsSim, tokens: BotTokens
) -> None:
    first = await asyncio.gather(*(tokens.bot_framework() for _ in range(5)))
    assert len(set(first)) == 1
    assert len(teams.identity.tokens_issued) == 1
    teams.advance(3600 - 301)
    assert await tokens.bot_framework() == first[0]
    teams.advance(2)
    assert await tokens.bot_framework() != first[0]
    assert len(teams.identity.tokens_issued) == 2
    graph = await tokens.graph(teams.tenant_id)
    assert teams.identity.tokens_issued[-1]["aud"] == "https://graph.microsoft.com"
    assert graph != first[0]


async def test_a_wrong_secret_gets_no_token_and_is_never_shown(
    teams: TeamsSim, http: httpx.AsyncClient
) -> None:
    tokens = BotTokens(
        app_id=teams.app_id,
        password=SecretStr("wrong-" + APP_PASSWORD),
        token_url=teams.token_url,
        bot_tenant="botframework.com",
        http=http,
    )
    with pytest.raises(TokenUnavailable) as refused:
        await tokens.bot_framework()
    assert str(refused.value) == "401 invalid_client"
    assert APP_PASSWORD not in repr(refused.value)
