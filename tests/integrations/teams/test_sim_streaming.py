"""Teams' streaming, as the simulator holds a bot to it (personal chats only, one stream a chat,
``streamSequence`` from 1, the first activity's id the ``streamId``, one request a second,
each streamed text holding the last, the final message within two minutes), and citebot's
stream keeping to it (:mod:`integrations.teams.stream`) whatever its caller sends."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from integrations.teams.stream import TeamsStream
from integrations.teams.wire import TeamsWire
from tests.integrations.teams.test_sim_citations import citation, cited, post
from tests.sim.teams import SimConversation, TeamsSim


def chunk(text: str, sequence: int, stream_id: str | None = None, **info: Any) -> dict[str, Any]:
    entity: dict[str, Any] = {
        "type": "streaminfo",
        "streamType": "streaming",
        "streamSequence": sequence,
    } | info
    if stream_id is not None:
        entity["streamId"] = stream_id
    return {"type": "typing", "text": text, "entities": [entity]}


def final(body: dict[str, Any], stream_id: str) -> dict[str, Any]:
    info = {"type": "streaminfo", "streamId": stream_id, "streamType": "final"}
    return {**body, "entities": [*body.get("entities", []), info]}


@pytest.fixture
def chat(teams: TeamsSim) -> SimConversation:
    return teams.personal_chat(teams.add_person("Alice Archer"))


def stream(teams: TeamsSim, wire: TeamsWire, chat: SimConversation) -> TeamsStream:
    return TeamsStream(
        wire,
        service_url=teams.service_url,
        conversation_id=chat.id,
        interval=teams.stream_interval,
        clock=teams.now,
    )


async def test_a_personal_chats_answer_streams_then_ends_as_its_final_message(
    teams: TeamsSim, wire: TeamsWire, chat: SimConversation
) -> None:
    answer = stream(teams, wire, chat)
    await answer.inform("Looking through the sources…")
    for text in ("Grace", "Grace perfects", "Grace perfects nature [1]."):
        teams.advance(1.0)
        await answer.update({"text": text})
    teams.advance(1.0)
    done = cited("Grace perfects nature [1].", [citation(1)])
    done["channelData"] = {"feedbackLoop": {"type": "default"}}
    assert await answer.finish(done) == answer.stream_id
    (streamed,) = teams.streams.values()
    assert streamed.informative == ["Looking through the sources…"]
    assert streamed.streamed == ["Grace", "Grace perfects", "Grace perfects nature [1]."]
    assert streamed.ended == "final"
    (shown,) = teams.bot_messages(chat)
    assert shown.id == streamed.id
    assert (shown.markers(), list(shown.citations), shown.ai_label, shown.feedback) == (
        [1],
        [1],
        True,
        True,
    )
    sequences = [
        r.body["entities"][0].get("streamSequence") for r in teams.requests_to("POST", chat.id)
    ]
    assert sequences == [1, 2, 3, 4, None]


async def test_citebots_stream_drops_what_teams_would_refuse(
    teams: TeamsSim, wire: TeamsWire, chat: SimConversation
) -> None:
    """Too soon after the last update, or taking back streamed text: not sent; the next
    update carries the text."""
    answer = stream(teams, wire, chat)
    await answer.update({"text": "Grace perfects"})
    await answer.update({"text": "Grace perfects nature"})  # too soon: dropped
    teams.advance(1.0)
    await answer.update({"text": "Grace **perfects"})  # takes back what was read: dropped
    await answer.update({"text": "Grace perfects nature, it heals"})
    (streamed,) = teams.streams.values()
    assert streamed.streamed == ["Grace perfects", "Grace perfects nature, it heals"]


async def test_a_stream_near_two_minutes_ends_as_a_message_the_answer_then_edits(
    teams: TeamsSim, wire: TeamsWire, chat: SimConversation
) -> None:
    answer = stream(teams, wire, chat)
    await answer.update({"type": "message", "text": "Grace"})
    teams.advance(100.0)
    await answer.update({"type": "message", "text": "Grace perfects nature."})
    assert not answer.streaming
    assert answer.message_id == answer.stream_id
    (shown,) = teams.bot_messages(chat)
    assert shown.text == "Grace perfects nature."
    await wire.update(teams.service_url, chat.id, shown.id, {"type": "message", "text": "Grace."})
    assert shown.text == "Grace."
    assert len(shown.edits) == 1


async def test_a_stream_teams_refuses_leaves_the_answer_to_a_message(
    teams: TeamsSim, wire: TeamsWire
) -> None:
    owner = teams.add_person("Olivia Owner")
    channel = teams.add_team("Parish", owners=[owner]).channels[0]
    answer = stream(teams, wire, channel)
    await answer.inform("Looking…")
    assert not answer.streaming
    assert await answer.finish({"type": "message", "text": "Grace."}) is None
    assert [str(v) for v in teams.take_violations()] == [
        f"POST /v3/conversations/{channel.id}/activities: Content stream is not allowed"
    ]


async def test_streaming_keeps_teams_rules(http: httpx.AsyncClient) -> None:
    async with TeamsSim(rate_limits=None) as teams:  # one stream's own pace: a second
        await _streaming_rules(teams, http, teams.personal_chat(teams.add_person("Alice")))


async def _streaming_rules(teams: TeamsSim, http: httpx.AsyncClient, chat: SimConversation) -> None:
    started = await post(teams, http, chat, chunk("Grace", 1))
    assert started.status_code == 201
    stream_id = started.json()["id"]
    teams.advance(1.0)
    refusals: list[tuple[int, str]] = []
    for body in (
        chunk("Grace", 1, stream_id),  # an old sequence: dropped
        chunk("Hello", 2, stream_id),  # takes back "Grace"
        chunk("Grace x", 2, stream_id, streamType="informative") | {"text": "i" * 1001},
        chunk("Grace and", 2, stream_id) | {"attachments": [{"contentType": "x"}]},
        chunk("Another", 1),  # a second stream in the chat
        final(cited("Grace.", []), stream_id)
        | {
            "entities": [
                {
                    "type": "streaminfo",
                    "streamId": stream_id,
                    "streamType": "final",
                    "streamSequence": 3,
                }
            ]
        },
    ):
        reply = await post(teams, http, chat, body)
        refusals.append((reply.status_code, reply.text))
    assert [status for status, _ in refusals] == [202, 400, 400, 400, 403, 400]
    assert "ContentStreamSequenceOrderPreConditionFailed" in refusals[0][1]
    assert "ContentStreamNotAllowed" in refusals[4][1]
    assert len(teams.take_violations()) == 6
    assert (await post(teams, http, chat, chunk("Grace and", 2, stream_id))).status_code == 202
    too_soon = await post(teams, http, chat, chunk("Grace and nature", 3, stream_id))
    assert too_soon.status_code == 429
    assert too_soon.headers["Retry-After"] == "1"
    teams.advance(1.0)
    assert (
        await post(teams, http, chat, chunk("Grace and nature", 3, stream_id))
    ).status_code == 202
    teams.advance(121.0)
    late = await post(teams, http, chat, final(cited("Grace.", []), stream_id))
    assert (late.status_code, late.json()["error"]["message"]) == (
        403,
        "Content stream finished due to exceeded streaming time.",
    )
    again = await post(teams, http, chat, chunk("Grace and nature!", 4, stream_id))
    assert "already completed" in again.text
    assert len(teams.take_violations()) == 3
    assert teams.bot_messages(chat) == []
    teams.assert_valid()
