"""The Teams simulator refuses what Teams refuses: activities reach the bot signed as the Bot
Framework signs them (keys in its OpenID metadata, endorsed for msteams); the bot's calls need
the login service's token; Teams' per-conversation pace answers 429 with Retry-After; a
channel's replies land in the thread they answer."""

from __future__ import annotations

from typing import Any

import httpx
import jwt
import pytest

from tests.integrations.teams.conftest import APP_PASSWORD, Endpoint
from tests.sim.teams import TeamsSim


async def _token(http: httpx.AsyncClient, teams: TeamsSim, **form: str) -> httpx.Response:
    asked = {
        "grant_type": "client_credentials",
        "client_id": teams.app_id,
        "client_secret": APP_PASSWORD,
        "scope": "https://api.botframework.com/.default",
    } | form
    return await http.post(teams.token_url.replace("{tenant}", "botframework.com"), data=asked)


async def _bearer(http: httpx.AsyncClient, teams: TeamsSim) -> dict[str, str]:
    token = (await _token(http, teams)).json()["access_token"]
    return {"Authorization": f"Bearer {token}"}


async def test_an_activity_reaches_the_bot_signed_by_a_key_the_metadata_lists(
    teams: TeamsSim, endpoint: Endpoint, http: httpx.AsyncClient
) -> None:
    alice = teams.add_person("Alice Archer")
    chat = teams.personal_chat(alice)
    _, delivered = await teams.say(alice, chat, "What is grace?")
    assert delivered.status == 200
    (activity, authorization), *_ = endpoint.received
    assert activity["text"] == "What is grace?"
    assert activity["conversation"]["conversationType"] == "personal"
    metadata = (await http.get(teams.openid_url)).json()
    keys = (await http.get(metadata["jwks_uri"])).json()["keys"]
    assert authorization is not None
    token = authorization.removeprefix("Bearer ")
    kid = jwt.get_unverified_header(token)["kid"]
    (key,) = [k for k in keys if k["kid"] == kid]
    assert key["endorsements"] == ["msteams"]
    claims = jwt.decode(
        token,
        jwt.PyJWK(key).key,
        algorithms=metadata["id_token_signing_alg_values_supported"],
        audience=teams.app_id,
        issuer=metadata["issuer"],
    )
    assert claims["serviceurl"] == activity["serviceUrl"] == teams.service_url


async def test_the_bot_gets_a_token_only_with_its_secret(
    teams: TeamsSim, http: httpx.AsyncClient
) -> None:
    refused = await _token(http, teams, client_secret="guessed")
    assert refused.status_code == 401
    assert refused.json()["error"] == "invalid_client"
    assert APP_PASSWORD not in refused.text
    given = (await _token(http, teams)).json()
    assert (given["token_type"], given["expires_in"]) == ("Bearer", 3600)
    wrong_scope = await _token(http, teams, scope="https://example.org/.default")
    assert wrong_scope.status_code == 400


async def test_a_call_without_the_bots_token_is_denied_and_changes_nothing(
    teams: TeamsSim, http: httpx.AsyncClient
) -> None:
    alice = teams.add_person("Alice Archer")
    chat = teams.personal_chat(alice)
    url = f"{teams.base_url}/v3/conversations/{chat.id}/activities"
    denied = await http.post(url, json={"type": "message", "text": "hi"})
    assert denied.status_code == 401
    assert denied.json() == {"message": "Authorization has been denied for this request."}
    assert teams.bot_messages(chat) == []
    assert [str(v) for v in teams.take_violations()] == [
        f"POST /v3/conversations/{chat.id}/activities: no valid bearer token"
    ]
    sent = await http.post(
        url, json={"type": "message", "text": "hi"}, headers=await _bearer(http, teams)
    )
    assert sent.status_code == 201
    assert [m.text for m in teams.bot_messages(chat)] == ["hi"]


async def test_an_expired_token_is_denied(teams: TeamsSim, http: httpx.AsyncClient) -> None:
    alice = teams.add_person("Alice Archer")
    chat = teams.personal_chat(alice)
    headers = await _bearer(http, teams)
    teams.advance(3601)
    url = f"{teams.base_url}/v3/conversations/{chat.id}/activities"
    assert (
        await http.post(url, json={"type": "message", "text": "x"}, headers=headers)
    ).status_code == 401
    assert len(teams.take_violations()) == 1


async def test_eight_sends_in_a_second_to_one_conversation_meet_a_429_with_retry_after(
    teams: TeamsSim, http: httpx.AsyncClient
) -> None:
    alice = teams.add_person("Alice Archer")
    chat, other = teams.personal_chat(alice), teams.personal_chat(teams.add_person("Bob Baker"))
    headers = await _bearer(http, teams)

    async def send(conversation_id: str) -> httpx.Response:
        url = f"{teams.base_url}/v3/conversations/{conversation_id}/activities"
        return await http.post(url, json={"type": "message", "text": "x"}, headers=headers)

    statuses = [(await send(chat.id)).status_code for _ in range(7)]
    assert statuses == [201] * 7
    throttled = await send(chat.id)
    assert throttled.status_code == 429
    assert throttled.headers["Retry-After"] == "1"
    assert (await send(other.id)).status_code == 201, "the pace is per conversation"
    teams.advance(1.0)
    assert (await send(chat.id)).status_code == 201, "seven a second"
    assert (await send(chat.id)).status_code == 429, "and eight in two seconds"
    teams.advance(1.1)
    assert (await send(chat.id)).status_code == 201
    assert teams.take_violations() == [], "a 429 is Teams' doing, not the bot's"


async def test_a_reply_lands_in_the_thread_of_the_channel_post_it_answers(
    teams: TeamsSim, endpoint: Endpoint, http: httpx.AsyncClient
) -> None:
    owner = teams.add_person("Olivia Owner")
    team = teams.add_team("Parish", owners=[owner], channels=["General", "Questions"])
    channel = team.channels[1]
    post, _ = await teams.mention(owner, channel, "What is grace?")
    activity, _ = endpoint.received[-1]
    assert activity["conversation"]["id"] == f"{channel.id};messageid={post.id}"
    assert activity["text"] == "<at>citebot</at> What is grace?"
    assert activity["entities"][-1]["mentioned"]["id"] == f"28:{teams.app_id}"
    assert activity["channelData"]["team"]["id"] == team.id
    headers = await _bearer(http, teams)
    conversation = activity["conversation"]["id"]
    reply: dict[str, Any] = {"type": "message", "text": "Grace is a gift."}
    url = f"{teams.base_url}/v3/conversations/{conversation}/activities"
    assert (await http.post(url, json=reply, headers=headers)).status_code == 201
    url = f"{teams.base_url}/v3/conversations/{channel.id}/activities/{post.id}"
    assert (await http.post(url, json=reply, headers=headers)).status_code == 201
    assert [m.text for m in teams.replies(post)] == ["Grace is a gift.", "Grace is a gift."]


@pytest.mark.parametrize("removed", ["team", "chat"])
async def test_a_bot_removed_is_told_so_and_its_messages_go_nowhere(
    teams: TeamsSim, endpoint: Endpoint, http: httpx.AsyncClient, removed: str
) -> None:
    owner = teams.add_person("Olivia Owner")
    team = teams.add_team("Parish", owners=[owner])
    chat = teams.group_chat("Choir", [owner])
    if removed == "team":
        await teams.remove_bot_from_team(team, by=owner)
        conversation = team.channels[0]
    else:
        await teams.remove_bot_from_chat(chat, by=owner)
        conversation = chat
    install, update = (activity for activity, _ in endpoint.received[-2:])
    assert install["type"] == "installationUpdate"
    assert install["action"] == "remove"
    assert update["membersRemoved"] == [{"id": f"28:{teams.app_id}", "name": "citebot"}]
    url = f"{teams.base_url}/v3/conversations/{conversation.id}/activities"
    gone = await http.post(
        url, json={"type": "message", "text": "x"}, headers=await _bearer(http, teams)
    )
    assert (gone.status_code, gone.json()["error"]["code"]) == (403, "BotNotInConversationRoster")
    assert teams.bot_messages(conversation) == []
