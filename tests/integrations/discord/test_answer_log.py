"""The answer log filled by real /ask answers on Discord (the simulator, discord.py, the real
service): each answer's record, a 👍/👎 click counted on its answer, a server over its token
budget refused with the message, the report agreeing with what was asked, and forget-me and a
removed server leaving nothing of the person or the server in the store."""

from __future__ import annotations

import time
from datetime import timedelta

from bot.adapter import Venue
from bot.state import LoggedAnswer
from tests.bot.state.scan import everything_stored
from tests.integrations.discord.harness import Harness
from tests.sim.discord import DiscordSim


async def logged(harness: Harness) -> list[LoggedAnswer]:
    state = harness.service.state
    return [
        r async for batch in state.logged_answers(since=0, until=time.time() + 1) for r in batch
    ]


async def stored(harness: Harness) -> str:
    return await everything_stored(harness.service.state, "memory://", "")


async def test_answers_fill_the_log_votes_count_and_the_report_agrees(
    harness: Harness, sim: DiscordSim
) -> None:
    server = Venue(server=str(sim.text.guild_id))
    await harness.kit.change_setting(server, "daily_tokens", "20", by="admin")
    first = await harness.ask("What is grace?", locale="fr")  # 14 tokens, as the upstream says
    await harness.ask("What is mercy?")  # 28 used
    over = await harness.ask("What is hope?")

    click = await sim.click_button(first.id, "citebot:feedback:down")
    await sim.until(lambda: click.modal is not None)  # 👎 asks why; the vote is kept at once
    await harness.votes(f"discord:{first.id}")

    assert over.content.startswith(
        "Today's budget of 20 tokens here has been used. citebot will answer here again at "
        "12:00\u202fAM (UTC), in "
    )
    assert len(harness.upstream.requests) == 2
    records = await logged(harness)
    assert [(r.outcome, r.refused_by, r.tokens) for r in records] == [
        ("answered", None, 14),
        ("answered", None, 14),
        ("refused", "daily_tokens", 0),
    ]
    grace = records[0]
    assert (grace.platform, grace.server, grace.channel, grace.asker, grace.language) == (
        "discord",
        str(sim.text.guild_id),
        str(sim.text.id),
        str(sim.user.id),
        "fr",
    )
    assert grace.vote_key == f"discord:{first.id}"
    assert [(v.user, v.value) for v in grace.votes] == [(str(sim.user.id), "down")]
    assert grace.question is None  # ANSWER_LOG's default keeps no words

    report = await harness.kit.report(server, timedelta(days=7))
    assert report.outcomes == {"answered": 2, "refused": 1}
    assert report.refusals == {"daily_tokens": 1}
    assert (report.up, report.down, report.down_reasons) == (0, 1, {"none": 1})
    assert (report.tokens_counted("reported"), report.tokens_counted("estimated")) == (28, 0)
    assert report.busiest_channels == ((f"discord:{sim.text.guild_id}/{sim.text.id}", 3),)
    assert report.first_text_p50 is not None


async def test_forget_me_then_a_removed_server_leave_nothing_of_them(
    harness: Harness, sim: DiscordSim
) -> None:
    server = Venue(server=str(sim.text.guild_id))
    await harness.kit.change_setting(server, "daily_questions_per_person", "10", by="admin")
    first = await harness.ask("What is grace?")
    await harness.ask("What is mercy?")
    click = await sim.click_button(first.id, "citebot:feedback:up")
    await sim.until(lambda: click.original is not None)
    await harness.votes(f"discord:{first.id}")
    person = str(sim.user.id)
    assert person in await stored(harness)

    assert await harness.kit.forget_person(person) > 0
    assert person not in await stored(harness)
    assert await logged(harness) == []

    await harness.ask("What is hope?")  # asked again, after forget-me
    held = await stored(harness)
    assert str(sim.text.guild_id) in held
    assert await harness.kit.forget_place(str(sim.text.guild_id)) > 0  # the bot removed
    held = await stored(harness)
    assert str(sim.text.guild_id) not in held
    assert str(sim.text.id) not in held
    assert (await harness.kit.settings_at(server)).daily_questions_per_person is None
