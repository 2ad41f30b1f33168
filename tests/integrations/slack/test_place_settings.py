"""A workspace's or a channel's settings, set by an operator on the workers' STATE_URL (as
``citebot settings set`` does, and as the App Home will), decide the next mention there."""

from __future__ import annotations

from pathlib import Path

from bot.render.commonmark import ZWSP
from tests.integrations.slack.conftest import World, operated
from tests.places import at
from tests.sim.slack.webapi import BOT_SCOPES
from tests.sim.upstream import answer

CHANNEL = "C0GENERAL"


async def test_a_channel_turned_off_is_told_so_in_its_thread(tmp_path: Path) -> None:
    async with operated(tmp_path) as (world, places, workspace):
        await places.set(at(f"{workspace}/{CHANNEL}"), "enabled", "off", by="operator")
        asked = await world.sim.mention(CHANNEL, "What is grace?")
        await world.sim.wait_for(lambda: world.sim.bot_replies(CHANNEL, asked.ts))
        [refusal] = world.sim.bot_replies(CHANNEL, asked.ts)
    assert refusal.shown == (
        "citebot is not enabled here. Please ask in a channel where it is allowed."
    )
    assert world.upstream.requests == []


async def test_without_the_askers_language_the_workspaces_language_speaks(
    tmp_path: Path,
) -> None:
    """No users:read scope: citebot cannot know the asker's language, so the workspace's
    Dutch is citebot's and the upstream's."""
    async with operated(tmp_path, scopes=BOT_SCOPES - {"users:read"}) as (world, places, ws):
        await places.set(at(ws), "language", "nl", by="operator")
        world.upstream.queue(answer(["Genade is een gave."]))
        asked = await world.sim.mention(CHANNEL, "Wat is genade?")
        await world.answered(CHANNEL, asked.ts)
        [answered] = world.answer_of(CHANNEL, asked.ts)
        [question] = world.upstream.questions
    assert world.sim.statuses(CHANNEL, asked.ts)[0] == "denkt na…"
    assert world.sim.loading_messages(CHANNEL, asked.ts)[0] == "Bronnen zoeken…"
    assert "speaks Dutch" in question[0]["content"]
    assert answered.shown == "Genade is een gave."


async def test_a_daily_limit_per_person_refuses_the_next_question_and_tells_when(
    tmp_path: Path,
) -> None:
    async with operated(tmp_path) as (world, places, workspace):
        await places.set(at(workspace), "daily_questions_per_person", "1", by="operator")
        world.upstream.queue(answer(["The answer of the day."]))
        first = await world.sim.mention(CHANNEL, "First?")
        await world.answered(CHANNEL, first.ts)
        second = await world.sim.mention(CHANNEL, "Second?")
        await world.sim.wait_for(
            lambda: any("limit" in m.shown for m in world.sim.bot_replies(CHANNEL, second.ts))
        )
        [refusal] = world.answer_of(CHANNEL, second.ts)
    assert refusal.shown.startswith("You have reached today's limit of questions here (1).")
    assert "when the day ends (UTC)" in refusal.shown
    assert len(world.upstream.requests) == 1


async def test_the_disclaimer_shows_in_a_context_block_with_its_mentions_inert(
    tmp_path: Path,
) -> None:
    """Slack's AI guidelines: the disclaimer in a context block, here under the answer's
    feedback buttons; the answer's own text does not say it again."""
    async with operated(tmp_path) as (world, places, workspace):
        await places.set(
            at(workspace), "disclaimer", "Generated: ask <!here> first.", by="operator"
        )
        world.upstream.queue(answer(["Grace is a gift."]))
        asked = await world.sim.mention(CHANNEL, "What is grace?")
        await world.answered(CHANNEL, asked.ts)
        [answered] = world.answer_of(CHANNEL, asked.ts)
        [feedback] = world.cards_of(CHANNEL, asked.ts)
    assert answered.shown == "Grace is a gift."
    [*_, context] = feedback.blocks or []
    assert context["type"] == "context"
    shown = context["elements"][0]["text"]
    assert shown.replace(ZWSP, "") == "Generated: ask &lt;!here&gt; first."  # as text
    assert feedback.pings() == []


async def test_without_a_disclaimer_the_default_line_shows(world: World) -> None:
    world.upstream.queue(answer(["Grace is a gift."]))
    asked = await world.sim.mention(CHANNEL, "What is grace?")
    await world.answered(CHANNEL, asked.ts)
    [feedback] = world.cards_of(CHANNEL, asked.ts)
    assert "citebot's answers are generated and can be wrong" in feedback.block_text()
