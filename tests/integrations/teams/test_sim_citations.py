"""The simulator holds a message to Teams' rules for AI-generated content: at most 20
citations, a citation's name 80 characters, its abstract 160, its keywords three of 28, one
root message entity, a popup that is an Adaptive Card, only ``AIGeneratedContent``, Teams'
feedback loop types, 100 KB counted in UTF-16; and a message left with a ``[n]`` but no
citation (or a citation without its ``[n]``) reads as broken."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from integrations.teams.wire import TeamsWire
from tests.integrations.teams.payloads import root
from tests.sim.teams import SimConversation, TeamsSim

CARD = json.dumps({"type": "AdaptiveCard", "version": "1.5", "body": []})


def citation(position: int, **appearance: Any) -> dict[str, Any]:
    return {
        "@type": "Claim",
        "position": position,
        "appearance": {
            "@type": "DigitalDocument",
            "name": f"Source {position}",
            "abstract": "An extract.",
            "url": f"https://example.org/{position}",
        }
        | appearance,
    }


def cited(text: str, citations: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    entity = root(citations, **more)
    return {"type": "message", "text": text, "textFormat": "markdown", "entities": [entity]}


async def post(
    teams: TeamsSim, http: httpx.AsyncClient, chat: SimConversation, body: dict[str, Any]
) -> httpx.Response:
    form = {
        "grant_type": "client_credentials",
        "client_id": teams.app_id,
        "client_secret": "sim-app-secret-not-for-logs",
        "scope": "https://api.botframework.com/.default",
    }
    token = (await http.post(teams.token_url.replace("{tenant}", "x"), data=form)).json()
    url = f"{teams.base_url}/v3/conversations/{chat.id}/activities"
    headers = {"Authorization": f"Bearer {token['access_token']}"}
    return await http.post(url, json=body, headers=headers)


@pytest.fixture
def chat(teams: TeamsSim) -> SimConversation:
    return teams.personal_chat(teams.add_person("Alice Archer"))


async def test_a_cited_answer_shows_its_citations_popups_label_and_feedback(
    teams: TeamsSim, wire: TeamsWire, chat: SimConversation
) -> None:
    body = cited(
        "Grace perfects nature [1]. It heals [2].",
        [
            citation(1, text=CARD, encodingFormat="application/vnd.microsoft.card.adaptive"),
            citation(2, keywords=["✓ Quote found", "1965"]),
        ],
    )
    body["channelData"] = {"feedbackLoop": {"type": "default"}}
    await wire.send(teams.service_url, chat.id, body)
    (shown,) = teams.bot_messages(chat)
    assert shown.markers() == [1, 2]
    assert shown.citations[1]["name"] == "Source 1"
    assert shown.popup(1) == json.loads(CARD)
    assert shown.citations[2]["keywords"] == ["✓ Quote found", "1965"]
    assert shown.ai_label
    assert shown.feedback
    assert shown.unmatched() == []


@pytest.mark.parametrize(
    ("body", "refusal"),
    [
        (
            cited(" ".join(f"[{n}]" for n in range(1, 22)), [citation(n) for n in range(1, 22)]),
            "more than 20 citations",
        ),
        (cited("[1]", [citation(1, name="n" * 81)]), "80 characters"),
        (cited("[1]", [citation(1, abstract="a" * 161)]), "160 characters"),
        (cited("[1]", [citation(1, keywords=["a", "b", "c", "d"])]), "28 characters"),
        (cited("[1]", [citation(1, keywords=["k" * 29])]), "28 characters"),
        (cited("[1]", [citation(1), citation(1)]), "citation positions"),
        (
            cited(
                "[1]",
                [
                    citation(
                        1,
                        text="not a card",
                        encodingFormat=("application/vnd.microsoft.card.adaptive"),
                    )
                ],
            ),
            "parsing citation entity with ID: 1",
        ),
        (
            cited(
                "[1]",
                [
                    citation(
                        1,
                        text=json.dumps(
                            {
                                "type": "AdaptiveCard",
                                "body": [{"type": "TextBlock", "text": "x", "weight": "Heavy"}],
                            }
                        ),
                        encodingFormat=("application/vnd.microsoft.card.adaptive"),
                    )
                ],
            ),
            "parsing citation entity with ID: 1",
        ),
        (cited("hi", [], additionalType=["HumanContent"]), "additionalType"),
        (
            {**cited("hi", []), "entities": [cited("a", [])["entities"][0]] * 2},
            "Multiple root message entities",
        ),
        (
            {"type": "message", "text": "hi", "channelData": {"feedbackLoop": {"type": "thumbs"}}},
            "feedbackLoop",
        ),
    ],
    ids=[
        "21 citations",
        "name",
        "abstract",
        "four keywords",
        "long keyword",
        "same position",
        "popup not JSON",
        "popup card refused",
        "additionalType",
        "two roots",
        "feedback type",
    ],
)
async def test_what_teams_refuses_is_refused_and_shows_nothing(
    teams: TeamsSim,
    http: httpx.AsyncClient,
    chat: SimConversation,
    body: dict[str, Any],
    refusal: str,
) -> None:
    refused = await post(teams, http, chat, body)
    assert refused.status_code == 400
    assert refusal in json.dumps(refused.json())
    assert teams.bot_messages(chat) == []
    assert teams.take_violations() != []


async def test_100_kb_are_counted_in_utf16(
    teams: TeamsSim, http: httpx.AsyncClient, chat: SimConversation
) -> None:
    """60,000 ASCII characters are 60 KB in UTF-8 but 120 KB in UTF-16: refused."""
    refused = await post(teams, http, chat, {"type": "message", "text": "x" * 60_000})
    assert refused.status_code == 413
    assert refused.json()["error"]["code"] == "MessageSizeTooBig"
    assert len(teams.take_violations()) == 1
    taken = await post(teams, http, chat, {"type": "message", "text": "x" * 50_000})
    assert taken.status_code == 201


@pytest.mark.parametrize(
    ("text", "citations", "broken"),
    [
        ("Grace [1] and nature [2].", [1], "[2] has no citation"),
        ("Grace [1].", [1, 2], "citation 2 has no [2]"),
    ],
)
async def test_a_marker_and_its_citation_go_together(
    teams: TeamsSim,
    wire: TeamsWire,
    chat: SimConversation,
    text: str,
    citations: list[int],
    broken: str,
) -> None:
    await wire.send(teams.service_url, chat.id, cited(text, [citation(n) for n in citations]))
    (shown,) = teams.bot_messages(chat)
    assert shown.unmatched() == [broken]
    with pytest.raises(AssertionError, match=broken.replace("[", r"\[").replace("]", r"\]")):
        teams.assert_valid()
    shown.deleted = True  # the test saw it; the fixture's check would see it again
