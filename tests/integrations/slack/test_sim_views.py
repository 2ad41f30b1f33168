"""The simulated views: the Home tab and modals refuse what Slack's view and block references
refuse, a trigger opens one modal within 3 seconds, and a submission's answer does what the
modals guide says; slack_sdk's own client sends each call."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from tests.sim.slack import SlackSim
from tests.sim.slack.views import TRIGGER_SECONDS, Triggers, check_view


@pytest.fixture
async def sim() -> AsyncIterator[SlackSim]:
    async with SlackSim() as running:
        yield running


def _select(options: int = 2, text: str = "On") -> dict[str, Any]:
    return {
        "type": "section",
        "text": {"type": "mrkdwn", "text": "*Language*"},
        "accessory": {
            "type": "static_select",
            "action_id": "pick",
            "options": [
                {"text": {"type": "plain_text", "text": text}, "value": f"v{n}"}
                for n in range(options)
            ],
        },
    }


def _modal(*blocks: dict[str, Any], **fields: Any) -> dict[str, Any]:
    title = {"type": "plain_text", "text": "citebot"}
    return {"type": "modal", "title": title, **fields, "blocks": list(blocks)}


TEXT_INPUT = {
    "type": "input",
    "block_id": "said",
    "label": {"type": "plain_text", "text": "Disclaimer"},
    "element": {"type": "plain_text_input", "action_id": "text"},
}


@pytest.mark.parametrize(
    ("view", "surface"),
    [
        ({"type": "home", "blocks": [_select(text="x" * 76)]}, "home"),
        ({"type": "home", "blocks": [_select(options=101)]}, "home"),
        ({"type": "home", "blocks": [{**_select(), "block_id": "same"}] * 2}, "home"),
        ({"type": "home", "blocks": [_select()] * 101}, "home"),
        (_modal(_select(), title={"type": "plain_text", "text": "x" * 25}), "modal"),
        (_modal(TEXT_INPUT), "modal"),
        ({"type": "modal", "blocks": [_select()]}, "home"),
    ],
    ids=["option text", "options", "block ids", "blocks", "title", "submit", "type"],
)
def test_a_view_slack_refuses_is_refused(view: dict[str, Any], surface: str) -> None:
    refusal = check_view(view, surface=surface)
    assert refusal is not None
    assert refusal[0] == "invalid_arguments"


def test_views_slack_takes_pass() -> None:
    assert check_view({"type": "home", "blocks": [_select()]}, surface="home") is None
    submit = {"type": "plain_text", "text": "Save"}
    assert check_view(_modal(TEXT_INPUT, submit=submit), surface="modal") is None


async def test_a_trigger_opens_one_modal_and_only_while_fresh(sim: SlackSim) -> None:
    web = AsyncWebClient(token=sim.bot_token, base_url=sim.base_url)
    trigger = sim.triggers.issue("U0ALICE")
    opened = await web.views_open(trigger_id=trigger, view=_modal(_select()))
    assert [v.id for v in sim.modals("U0ALICE")] == [opened["view"]["id"]]
    with pytest.raises(SlackApiError) as spent:
        await web.views_open(trigger_id=trigger, view=_modal(_select()))
    assert spent.value.response["error"] == "invalid_trigger_id"
    now = [0.0]
    triggers = Triggers(clock=lambda: now[0])
    late = triggers.issue("U0ALICE")
    now[0] = TRIGGER_SECONDS + 0.1
    assert triggers.take(late) is None


async def test_a_published_home_is_what_the_person_sees_and_updates_keep_its_id(
    sim: SlackSim,
) -> None:
    web = AsyncWebClient(token=sim.bot_token, base_url=sim.base_url)
    first = await web.views_publish(user_id="U0ALICE", view={"type": "home", "blocks": [_select()]})
    again = await web.views_publish(
        user_id="U0ALICE", view={"type": "home", "blocks": [_select(options=3)]}
    )
    home = sim.home("U0ALICE")
    assert home is not None
    assert first["view"]["id"] == again["view"]["id"] == home.id
    assert len(home.body["blocks"][0]["accessory"]["options"]) == 3
    with pytest.raises(SlackApiError) as stale:
        await web.views_publish(
            user_id="U0ALICE", view={"type": "home", "blocks": [_select()]}, hash="old"
        )
    assert stale.value.response["error"] == "hash_conflict"
