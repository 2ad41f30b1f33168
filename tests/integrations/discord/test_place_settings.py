"""A server's or a channel's settings, as its admins (or an operator) set them in the state
store, decide the next /ask there: whether citebot answers, in which language, privately by
default, how many questions a day, with which line under the answer."""

from __future__ import annotations

from bot.places import Places
from tests.integrations.discord.harness import Harness
from tests.places import at
from tests.sim.discord import DiscordSim
from tests.sim.upstream import answer


def here(sim: DiscordSim) -> str:
    return f"discord:{sim.text.guild_id}/{sim.text.id}"


def server(sim: DiscordSim) -> str:
    return f"discord:{sim.text.guild_id}"


def places(harness: Harness) -> Places:
    return harness.service.places


async def test_a_channel_turned_off_is_refused_privately_and_asks_nothing(
    harness: Harness, sim: DiscordSim
) -> None:
    await places(harness).set(at(here(sim)), "enabled", "off", by="admin")
    asked = await sim.slash_command("ask", {"question": "What is grace?"})
    await sim.until(lambda: asked.response_type is not None)
    assert asked.acks[0]["data"]["content"] == (
        "citebot is not enabled here. Please ask in a channel where it is allowed."
    )
    assert asked.acks[0]["data"]["flags"] == 64  # only the asker sees it
    assert harness.upstream.requests == []


async def test_a_servers_language_speaks_to_askers_whose_language_citebot_lacks(
    harness: Harness, sim: DiscordSim
) -> None:
    """A Japanese client (no catalogue) reads the server's French, and the upstream is asked to
    answer in French too: the admins chose the language of the place."""
    await places(harness).set(at(server(sim)), "language", "fr", by="admin")
    harness.upstream.queue(answer(["La grâce est un don."]))
    await harness.ask("恵みとは何ですか？", locale="ja")
    [question] = harness.upstream.questions
    assert "speaks French" in question[0]["content"]


async def test_private_by_default_answers_privately_unless_the_asker_says_otherwise(
    harness: Harness, sim: DiscordSim
) -> None:
    await places(harness).set(at(server(sim)), "private_by_default", "on", by="admin")
    harness.upstream.queue(answer(["Private by default."]), answer(["Public on request."]))
    quiet = await harness.ask("Quietly?", private=None)
    loud = await harness.ask("Out loud?", private=False)
    assert quiet.flags & 64
    assert not loud.flags & 64


async def test_a_daily_limit_refuses_the_question_past_it_and_counts_no_refusal(
    harness: Harness, sim: DiscordSim
) -> None:
    await places(harness).set(at(here(sim)), "daily_questions", "1", by="admin")
    harness.upstream.queue(answer(["The one answer of the day."]))
    first = await harness.ask("First?")
    second = await harness.ask("Second?")
    assert first.content == "The one answer of the day."
    assert second.content.startswith("Today's limit of questions here (1) has been reached.")
    assert len(harness.upstream.requests) == 1


async def test_the_disclaimer_closes_every_answer_with_its_mentions_inert(
    harness: Harness, sim: DiscordSim
) -> None:
    line = "Answers are generated and can be wrong: ask @everyone's priest."
    await places(harness).set(at(server(sim)), "disclaimer", line, by="admin")
    harness.upstream.queue(answer(["Grace is a gift."]))
    shown = await harness.ask("What is grace?")
    assert shown.content.startswith("Grace is a gift.\n\n*Answers are generated and can be")
    assert "@everyone" not in shown.content  # broken with a zero-width space
    assert "@\u200beveryone" in shown.content
