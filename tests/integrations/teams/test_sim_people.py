"""What the simulator tells a bot about people, and what people do: the roster with each
person's ``userRole`` (a page of at least 50), a team's details and channels, its owners
only through Graph (with Graph's own token, where the bot is installed); 👍/👎 with the
feedback form as ``message/submitAction`` (answered empty), "Check with sources" from a
message's menu as ``composeExtension/fetchTask`` with the message (answered with a dialog or
a message), a card's ``messageBack`` button."""

from __future__ import annotations

import json
from typing import Any

import pytest

from integrations.teams.wire import TeamsRefused, TeamsWire
from tests.integrations.teams.conftest import Endpoint
from tests.integrations.teams.test_sim_citations import cited
from tests.sim.teams import TeamsSim


async def test_the_roster_gives_each_persons_role_and_the_team_its_details(
    teams: TeamsSim, wire: TeamsWire
) -> None:
    owner, member = teams.add_person("Olivia Owner"), teams.add_person("Mark Member")
    guest = teams.add_person("Gina Guest", role="guest")
    team = teams.add_team(
        "Parish", owners=[owner], members=[member, guest], channels=["General", "Questions"]
    )
    channel = team.channels[1]
    seen = await wire.member(teams.service_url, channel.id, guest.id)
    assert seen is not None
    assert (seen.name, seen.user_role, seen.aad_object_id) == (
        "Gina Guest",
        "guest",
        guest.aad_object_id,
    )
    outsider = teams.add_person("Oscar Outsider")
    assert await wire.member(teams.service_url, channel.id, outsider.id) is None
    details = await wire.team(teams.service_url, team.id)
    assert (details.name, details.aad_group_id, details.member_count) == (
        "Parish",
        team.aad_group_id,
        3,
    )
    owners = await wire.team_owners(teams.tenant_id, team.aad_group_id)
    assert owners == {owner.aad_object_id}
    graph = [r for r in teams.requests if r.path.startswith("/graph/")]
    assert [r.status for r in graph] == [200]
    issued = [claims["aud"] for claims in teams.identity.tokens_issued]
    assert issued == ["https://api.botframework.com", "https://graph.microsoft.com"]


async def test_a_page_of_the_roster_holds_50_to_500(teams: TeamsSim, wire: TeamsWire) -> None:
    people = [teams.add_person(f"Person {n}") for n in range(120)]
    chat = teams.group_chat("Everyone", people)
    reply = await wire.client.get(
        f"{teams.base_url}/v3/conversations/{chat.id}/pagedmembers?pageSize=10"
    )
    page = reply.json()
    assert len(page["members"]) == 50, "a page smaller than 50 is read as 50"
    assert page["continuationToken"] == "50"


async def test_graph_wants_its_own_token_and_the_bot_in_the_team(
    teams: TeamsSim, wire: TeamsWire
) -> None:
    owner = teams.add_person("Olivia Owner")
    team = teams.add_team("Parish", owners=[owner], installed=False)
    with pytest.raises(TeamsRefused) as refused:
        await wire.team_owners(teams.tenant_id, team.aad_group_id)
    assert refused.value.status == 403
    url = f"{teams.graph_url}/teams/{team.aad_group_id}/members"
    with pytest.raises(TeamsRefused) as denied:
        await wire.client.get(url)  # with the connector's token, not Graph's
    assert denied.value.status == 401


async def test_feedback_reaches_the_bot_as_an_invoke_it_answers_empty(
    teams: TeamsSim, endpoint: Endpoint, wire: TeamsWire
) -> None:
    alice = teams.add_person("Alice Archer")
    chat = teams.personal_chat(alice)
    answer = cited("Grace.", []) | {"channelData": {"feedbackLoop": {"type": "default"}}}
    await wire.send(teams.service_url, chat.id, answer)
    (shown,) = teams.bot_messages(chat)
    delivered = await teams.feedback(alice, shown, "dislike", "The quote is wrong.")
    activity, _ = endpoint.received[-1]
    assert (activity["type"], activity["name"], activity["replyToId"]) == (
        "invoke",
        "message/submitAction",
        shown.id,
    )
    value = activity["value"]["actionValue"]
    assert value["reaction"] == "dislike"
    assert json.loads(value["feedback"]) == {"feedbackText": "The quote is wrong."}
    assert delivered.status == 200
    endpoint.answer = lambda activity: (200, {"thanks": True})
    await teams.feedback(alice, shown, "like")
    assert [str(v) for v in teams.take_violations()] == [
        "message/submitAction: invoke response isn't empty"
    ]


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ({"task": {"type": "message", "value": "Checking with the sources…"}}, None),
        ({"task": {"type": "continue", "value": {"title": "Check", "card": {}}}}, None),
        ({"composeExtension": {"type": "result"}}, "answer"),
    ],
)
async def test_check_with_sources_on_a_message_brings_the_bot_the_message(
    teams: TeamsSim, endpoint: Endpoint, answer: dict[str, Any], problem: str | None
) -> None:
    owner = teams.add_person("Olivia Owner")
    channel = teams.add_team("Parish", owners=[owner]).channels[0]
    said, _ = await teams.say(owner, channel, "Grace destroys nature & <reason>.")
    endpoint.answer = lambda activity: (200, answer)
    delivered = await teams.check_with_sources(owner, said, "checkWithSources")
    activity, _ = endpoint.received[-1]
    value = activity["value"]
    assert (activity["name"], value["commandId"], value["commandContext"]) == (
        "composeExtension/fetchTask",
        "checkWithSources",
        "message",
    )
    assert value["messagePayload"]["body"] == {
        "contentType": "html",
        "content": "<p>Grace destroys nature &amp; &lt;reason&gt;.</p>",
    }
    assert value["messagePayload"]["from"]["user"]["displayName"] == "Olivia Owner"
    assert delivered.body == answer
    found = [str(v) for v in teams.take_violations()]
    assert found == (
        [] if problem is None else [f"composeExtension/fetchTask: {problem} {answer!r}"]
    )


async def test_a_cards_button_brings_the_bot_its_text_and_value(
    teams: TeamsSim, endpoint: Endpoint, wire: TeamsWire
) -> None:
    alice = teams.add_person("Alice Archer")
    chat = teams.personal_chat(alice)
    await wire.send(teams.service_url, chat.id, {"type": "message", "text": "Grace."})
    (shown,) = teams.bot_messages(chat)
    data = {"type": "messageBack", "text": "Why?", "displayText": "Why?", "value": {"q": 1}}
    await teams.press(alice, shown, data)
    activity, _ = endpoint.received[-1]
    assert (activity["text"], activity["value"], activity["replyToId"]) == (
        "Why?",
        {"q": 1},
        shown.id,
    )
    assert chat.messages[-1].text == "Why?"
    assert chat.messages[-1].sender is alice


async def test_an_activity_can_go_unsigned_or_forged(teams: TeamsSim, endpoint: Endpoint) -> None:
    alice = teams.add_person("Alice Archer")
    chat = teams.personal_chat(alice)
    forged = teams.identity.activity_token(teams.service_url, key=teams.identity.stranger)
    await teams.say(alice, chat, "unsigned", token=None)
    await teams.say(alice, chat, "forged", token=forged)
    assert [(a["text"], auth) for a, auth in endpoint.received] == [
        ("unsigned", None),
        ("forged", f"Bearer {forged}"),
    ]
