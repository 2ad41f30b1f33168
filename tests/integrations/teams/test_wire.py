"""citebot's one way out to Teams, against the simulator: every call carries the bot's token
(none with ``TEAMS_AUTH=off``), a 401 is met once with a new token, Teams' 429 waits its
``Retry-After`` (412, 502 and 504 a growing wait), a wait longer than the caller takes fails
at once, and an activity past 100 KB in UTF-16 never leaves."""

from __future__ import annotations

import httpx
import pytest

from integrations.teams.auth import BotTokens
from integrations.teams.wire import TeamsRefused, TeamsWire, TooLarge
from tests.integrations.teams.conftest import APP_PASSWORD
from tests.sim.teams import SimConversation, TeamsSim


@pytest.fixture
def chat(teams: TeamsSim) -> SimConversation:
    return teams.personal_chat(teams.add_person("Alice Archer"))


@pytest.fixture
def slept() -> list[float]:
    return []


@pytest.fixture
def paced(
    http: httpx.AsyncClient, tokens: BotTokens, teams: TeamsSim, slept: list[float]
) -> TeamsWire:
    """The wire, its waits recorded (and the simulator's clock moved on by them) instead of
    slept."""

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        teams.advance(seconds)

    return TeamsWire(http=http, tokens=tokens, graph_url=teams.graph_url, sleep=sleep)


async def test_every_call_carries_the_bots_token(
    teams: TeamsSim, wire: TeamsWire, chat: SimConversation
) -> None:
    sent = await wire.send(teams.service_url, chat.id, {"type": "message", "text": "Grace."})
    await wire.update(teams.service_url, chat.id, sent, {"type": "message", "text": "Grace!"})
    await wire.delete(teams.service_url, chat.id, sent)
    assert [(r.method, r.status, r.token) for r in teams.requests if "/v3/" in r.path] == [
        ("POST", 201, True),
        ("PUT", 200, True),
        ("DELETE", 200, True),
    ]
    assert teams.bot_messages(chat) == []
    assert len(teams.identity.tokens_issued) == 1


async def test_a_429_waits_its_retry_after_and_a_401_gets_a_new_token(
    teams: TeamsSim, paced: TeamsWire, chat: SimConversation, slept: list[float]
) -> None:
    teams.refuse_next("POST", 429, "Throttled", retry_after=2)
    teams.refuse_next("POST", 401, "Unauthorized")
    teams.refuse_next("POST", 502, "BadGateway")
    await paced.send(teams.service_url, chat.id, {"type": "message", "text": "Grace."})
    assert [m.text for m in teams.bot_messages(chat)] == ["Grace."]
    assert slept[0] == 2.0
    assert len(slept) == 2
    assert 3.2 <= slept[1] <= 4.8, "the third try waits 4 s, jittered"
    assert len(teams.identity.tokens_issued) == 2, "the 401 asked for a new token"


async def test_a_wait_longer_than_the_caller_takes_fails_at_once(
    teams: TeamsSim, paced: TeamsWire, chat: SimConversation, slept: list[float]
) -> None:
    teams.refuse_next("POST", 429, "Throttled", retry_after=120)
    with pytest.raises(TeamsRefused) as refused:
        await paced.send(teams.service_url, chat.id, {"type": "message", "text": "Grace."})
    assert (refused.value.status, refused.value.code) == (429, "Throttled")
    assert slept == []


async def test_four_refusals_in_a_row_are_a_refusal(
    teams: TeamsSim, paced: TeamsWire, chat: SimConversation
) -> None:
    teams.refuse_next("POST", 429, "Throttled", count=4, retry_after=1)
    with pytest.raises(TeamsRefused):
        await paced.send(teams.service_url, chat.id, {"type": "message", "text": "Grace."})
    assert teams.bot_messages(chat) == []


async def test_an_activity_past_100_kb_in_utf16_never_leaves(
    teams: TeamsSim, wire: TeamsWire, chat: SimConversation
) -> None:
    with pytest.raises(TooLarge):
        await wire.send(teams.service_url, chat.id, {"type": "message", "text": "é" * 52_000})
    assert teams.requests_to("POST", chat.id) == []


async def test_with_authentication_off_no_token_is_asked_for_or_sent(
    http: httpx.AsyncClient,
) -> None:
    async with TeamsSim(require_tokens=False, app_password=APP_PASSWORD) as teams:
        chat = teams.personal_chat(teams.add_person("Alice Archer"))
        wire = TeamsWire(http=http, tokens=None, graph_url=teams.graph_url)
        await wire.send(teams.service_url, chat.id, {"type": "message", "text": "Grace."})
        assert [r.token for r in teams.requests_to("POST", chat.id)] == [False]
        assert teams.identity.tokens_issued == []
        teams.assert_valid()
