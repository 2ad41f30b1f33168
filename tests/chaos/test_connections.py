"""Platform connections dropped mid-answer: Discord's gateway closed with resumable and with
session-ending codes, Slack's Socket Mode connection cut without a close frame. The answer in
flight finishes in full (its writes go over REST, not the event connection), and the next
question, once the worker is back, is answered."""

from __future__ import annotations

import pytest

from tests.integrations.discord.harness import running_harness
from tests.integrations.slack.conftest import slack_world
from tests.sim.discord import DiscordSim
from tests.sim.upstream import Gate, Stream, UpstreamSim, answer, chunk, magisterium_citation

CITATION = magisterium_citation(0, "Hope is the theological virtue.", title="Catechism")


def held_answer() -> Stream:
    """An answer that waits, half-written, until the test lets it finish."""
    return Stream(
        (
            chunk("Hope is a theological "),
            Gate(),
            chunk("virtue[^1]."),
            chunk(finish_reason="stop", citations=[CITATION]),
        )
    )


@pytest.mark.parametrize(
    ("code", "resumed"),
    [(4000, True), (1001, True), (4009, False), (4007, False)],
    ids=["4000 unknown error", "1001 going away", "4009 session timed out", "4007 invalid seq"],
)
async def test_an_answer_in_flight_survives_the_gateway_closing(
    sim: DiscordSim, upstream: UpstreamSim, code: int, resumed: bool
) -> None:
    upstream.queue(held_answer(), answer(["Still answering."]))
    async with running_harness(sim, upstream) as harness:
        first = await sim.slash_command("ask", {"question": "What is hope?"})
        await sim.until(lambda: first.original is not None and "Hope is" in first.original.content)
        await sim.close_gateway(code)
        # A question asked while the bot is away: replayed on RESUME, or (a new session)
        # missed, as with Discord; either way the person who asked it is not left hanging.
        upstream.release()
        await harness.answers(1)
        await sim.wait_connected()
        second = await sim.slash_command("ask", {"question": "Are you back?"})
        await harness.answers(2)
    assert first.original is not None
    assert first.original.content.startswith("Hope is a theological virtue")
    assert "https://example.org/doc/1" in first.original.content  # finished and linked
    assert sim.thread_messages(first.original.id)  # and its card posted
    assert second.original is not None
    assert second.original.content == "Still answering."
    assert (sim.resumes == 1) is resumed
    assert len(sim.identifies) == (1 if resumed else 2)


async def test_an_interaction_sent_while_the_gateway_is_away_is_answered_after_resume(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    upstream.queue(answer(["Here I am."]))
    async with running_harness(sim, upstream) as harness:
        await sim.close_gateway(4000)
        asked = await sim.slash_command("ask", {"question": "Anyone?"})  # the bot is away
        await harness.answers(1)
    assert asked.original is not None
    assert asked.original.content == "Here I am."
    assert sim.resumes == 1


async def test_slack_dropping_the_socket_mid_answer_costs_nothing() -> None:
    async with slack_world(ping_interval=0.2) as world:
        sim = world.sim
        world.upstream.queue(held_answer(), answer(["Back again."]))
        asked = await sim.mention("C0GENERAL", "What is hope?")
        await sim.wait_for(lambda: world.answer_of("C0GENERAL", asked.ts))
        opened = len(sim.calls_to("apps.connections.open"))
        await sim.drop()  # no close frame: the worker notices on its next ping
        world.upstream.release()
        await sim.wait_for(lambda: len(sim.calls_to("apps.connections.open")) > opened)
        await sim.wait_connections(1)
        again = await sim.mention("C0GENERAL", "Are you back?")
        await world.answered("C0GENERAL", again.ts, requests=2)
        (answered,) = world.answer_of("C0GENERAL", asked.ts)
        assert answered.shown == "Hope is a theological virtue[¹](https://example.org/doc/1)."
        assert not answered.streaming
        assert world.cards_of("C0GENERAL", asked.ts)
        assert [m.shown for m in world.answer_of("C0GENERAL", again.ts)] == ["Back again."]


async def test_slack_calls_cut_by_the_network_cost_the_niceties_not_the_answer() -> None:
    """The "thinking" status and the thread read back are cut three times each (past the
    client's retries): the question is still answered, only without them."""
    async with slack_world() as world:
        sim = world.sim
        world.upstream.queue(answer(["Answered all the same."]))
        parent = await sim.other_bot("C0GENERAL", "A digest another app posted")
        sim.cut_next("assistant.threads.setStatus", times=3)
        sim.cut_next("conversations.replies", times=3)
        asked = await sim.mention("C0GENERAL", "What does it mean?", thread_ts=parent.ts)
        await world.answered("C0GENERAL", parent.ts)
        assert [m.shown for m in world.answer_of("C0GENERAL", parent.ts)] == [
            "Answered all the same."
        ]
        assert asked.thread_ts == parent.ts
        cut = [call.method for call in sim.calls if call.error == "cut"]
        assert cut == ["assistant.threads.setStatus"] * 3 + ["conversations.replies"] * 3
