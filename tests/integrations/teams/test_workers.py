"""Two Teams workers behind one load balancer, on one store (a real redis-server): Teams
delivers an activity again when it heard no answer in time, and the balancer may send it to
the other worker. Each activity is claimed by its id in the store, so it is answered once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from integrations.teams.run import PATH
from tests.integrations.teams.world import APP_PASSWORD, STREAM, World, teams_world
from tests.sim.teams import SimConversation, SimMessage, SimPerson, TeamsSim
from tests.sim.upstream import CITED


def _address(world: World) -> str:
    return f"http://127.0.0.1:{world.config.teams.port}{PATH}"


@dataclass
class Pair:
    teams: TeamsSim
    first: World
    second: World
    alice: SimPerson
    chat: SimConversation

    def answers(self) -> list[SimMessage]:
        return [m for m in self.teams.bot_messages(self.chat) if m.feedback]


@pytest.fixture
async def pair(fresh_redis: str) -> AsyncIterator[Pair]:
    """Two workers on the store, each with an answer waiting, and Alice's chat with the bot."""
    shared = {"STATE_URL": fresh_redis}
    async with (
        TeamsSim(app_password=APP_PASSWORD, stream_interval=STREAM / 10) as teams,
        teams_world(shared, teams=teams) as first,
        teams_world(shared, teams=teams) as second,
    ):
        for world in (first, second):
            world.upstream.queue(CITED)
        alice = teams.add_person("Alice Archer")
        yield Pair(teams, first, second, alice, teams.personal_chat(alice))


async def test_an_activity_delivered_to_both_workers_is_answered_once(pair: Pair) -> None:
    teams = pair.teams
    teams.bot_url = _address(pair.first)
    _, delivered = await teams.say(pair.alice, pair.chat, "Why is life sacred?")
    teams.bot_url = _address(pair.second)
    again = await teams.deliver(delivered.activity)
    await pair.first.idle()  # every answer task of both workers (one event loop) has ended

    assert (delivered.status, again.status) == (200, 200)
    assert len(pair.first.upstream.requests) + len(pair.second.upstream.requests) == 1
    [answer] = pair.answers()
    assert answer.text.startswith("Life is sacred from conception to natural death[1].")
    assert answer.citations


async def test_two_workers_on_one_store_answer_different_activities_each(pair: Pair) -> None:
    """The claim is the activity's, not the conversation's: a second question in the same
    chat, delivered to the other worker, is answered there."""
    for world, question in ((pair.first, "Why is life sacred?"), (pair.second, "And why so?")):
        pair.teams.bot_url = _address(world)
        await pair.teams.say(pair.alice, pair.chat, question)
        await world.idle()

    assert (len(pair.first.upstream.requests), len(pair.second.upstream.requests)) == (1, 1)
    assert len(pair.answers()) == 2
