"""Slack closes Socket Mode connections routinely; the worker reconnects and keeps answering."""

from __future__ import annotations

import pytest

from tests.integrations.slack.conftest import slack_world
from tests.sim.upstream import answer

CHANNEL = "C0GENERAL"


@pytest.mark.parametrize("how", ["refresh_requested", "warning", "drop"])
async def test_after_slack_closes_the_connection_a_new_one_answers(how: str) -> None:
    # A short ping interval: a dropped connection is noticed on the next ping.
    async with slack_world(ping_interval=0.2) as world:
        sim = world.sim
        opened = len(sim.calls_to("apps.connections.open"))
        if how == "drop":
            await sim.drop()
        else:
            assert await sim.disconnect(how) == 0, "the worker waited to be closed"
        await sim.wait_for(lambda: len(sim.calls_to("apps.connections.open")) > opened)
        await sim.wait_connections(1)

        world.upstream.queue(answer(["Still here."]))
        asked = await sim.mention(CHANNEL, "Are you there?")
        await world.answered(CHANNEL, asked.ts)
        assert [m.shown for m in world.answer_of(CHANNEL, asked.ts)] == ["Still here."]
