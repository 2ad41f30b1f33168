"""Two Teams workers behind one load balancer, on one store (a real redis-server): Teams
delivers an activity again when it heard no answer in time, and the balancer may send it to
the other worker. Each activity is claimed by its id in the store, so it is answered once."""

from __future__ import annotations

from integrations.teams.run import PATH
from tests.integrations.teams.world import APP_PASSWORD, STREAM, World, teams_world
from tests.sim.teams import TeamsSim
from tests.sim.upstream import CITED


def _address(world: World) -> str:
    return f"http://127.0.0.1:{world.config.teams.port}{PATH}"


async def test_an_activity_delivered_to_both_workers_is_answered_once(fresh_redis: str) -> None:
    shared = {"STATE_URL": fresh_redis}
    async with (
        TeamsSim(app_password=APP_PASSWORD, stream_interval=STREAM / 10) as teams,
        teams_world(shared, teams=teams) as first,
        teams_world(shared, teams=teams) as second,
    ):
        for world in (first, second):
            world.upstream.queue(CITED)
        alice = teams.add_person("Alice Archer")
        chat = teams.personal_chat(alice)

        teams.bot_url = _address(first)
        _, delivered = await teams.say(alice, chat, "Why is life sacred?")
        teams.bot_url = _address(second)
        again = await teams.deliver(delivered.activity)
        await first.idle()  # every answer task of both workers (one event loop) has ended

        assert (delivered.status, again.status) == (200, 200)
        assert len(first.upstream.requests) + len(second.upstream.requests) == 1
        answers = [m for m in teams.bot_messages(chat) if m.feedback]
        assert len(answers) == 1
        assert answers[0].text.startswith("Life is sacred from conception to natural death[1].")
        assert answers[0].citations


async def test_two_workers_on_one_store_answer_different_activities_each(
    fresh_redis: str,
) -> None:
    """The claim is the activity's, not the conversation's: a second question in the same
    chat, delivered to the other worker, is answered there."""
    shared = {"STATE_URL": fresh_redis}
    async with (
        TeamsSim(app_password=APP_PASSWORD, stream_interval=STREAM / 10) as teams,
        teams_world(shared, teams=teams) as first,
        teams_world(shared, teams=teams) as second,
    ):
        for world in (first, second):
            world.upstream.queue(CITED)
        alice = teams.add_person("Alice Archer")
        chat = teams.personal_chat(alice)

        for world, question in ((first, "Why is life sacred?"), (second, "And why so?")):
            teams.bot_url = _address(world)
            await teams.say(alice, chat, question)
            await world.idle()

        assert (len(first.upstream.requests), len(second.upstream.requests)) == (1, 1)
        assert len([m for m in teams.bot_messages(chat) if m.feedback]) == 2
