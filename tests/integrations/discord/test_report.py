"""``/citebot report`` in Discord, end to end: real answers fill the log (quote checks on a
loopback site, 👍/👎 and a reason clicked and sent), and the report a server's admin reads,
privately and in their language, agrees with what was asked; anyone else is refused in theirs
and shown nothing of it."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Callable

import pytest

from bot.i18n.wording import Wording
from bot.state import LoggedAnswer
from integrations.discord.markdown import DiscordMarkdown
from tests.integrations.discord.admins import answered, change, run_admin
from tests.integrations.discord.harness import Harness, running_harness, running_on_redis
from tests.patience import PATIENCE
from tests.sim.discord import DiscordSim, SimInteraction
from tests.sim.discord.model import EPHEMERAL
from tests.sim.pages import EVERY_KIND, Site, cited, quote_checks_finished
from tests.sim.redis_server import RedisProcess
from tests.sim.upstream import UpstreamSim, answer

FRENCH = Wording(language="fr", platform="discord")
ENGLISH = Wording(platform="discord")


def escaped(words: str) -> str:
    return DiscordMarkdown().escape(words, line_start=True)


@pytest.fixture
async def logging_questions(
    sim: DiscordSim, upstream: UpstreamSim, site: Site
) -> AsyncIterator[Harness]:
    """The adapter keeping the questions' words, checking quotes on the loopback site."""
    env = {
        "ANSWER_LOG": "questions",
        "QUOTE_CHECK": "on",
        "QUOTE_CHECK_ALLOW_HOSTS": site.allowance,
    }
    async with running_harness(sim, upstream, env=env) as running:
        yield running


async def until_logged(
    harness: Harness, holds: Callable[[list[LoggedAnswer]], bool], *, within: float = PATIENCE
) -> None:
    """Until the answer log holds what ``holds`` looks for (quote checks and a 👎's reason
    reach it after the answer and the click)."""
    deadline = time.monotonic() + within
    state = harness.service.state
    while True:
        records = [
            r async for batch in state.logged_answers(since=0, until=time.time() + 1) for r in batch
        ]
        if holds(records):
            return
        assert time.monotonic() < deadline, records
        await asyncio.sleep(0.05)


def fields(interaction: SimInteraction) -> dict[str, str]:
    assert interaction.original is not None
    [embed] = interaction.original.embeds
    return {field["name"]: field["value"] for field in embed["fields"]}


async def test_the_report_agrees_with_what_was_asked(
    logging_questions: Harness, sim: DiscordSim, site: Site
) -> None:
    """Four questions (one asked twice, one in another channel, one refused by the daily limit
    per person), a quote not on its page, a 👍 and a 👎 with its reason: the admin's French
    report says each."""
    harness = logging_questions
    await change(sim, "daily_questions_per_person", "3")
    harness.upstream.queue(cited(site, *EVERY_KIND))  # /changed no longer holds its quote
    grace = await harness.ask("What is grace?")
    harness.upstream.queue(answer(["A gift."]))
    again = await harness.ask("  what is GRACE ")
    harness.upstream.queue(answer(["Kindness."]))
    await harness.ask("What is mercy?", channel_id=sim.no_threads.id)
    refused = await harness.ask("What is hope?")
    assert refused.content.startswith("You have reached today's limit of questions here (3).")
    await quote_checks_finished()

    up = await sim.click_button(again.id, "citebot:feedback:up", user_id=sim.admin.id)
    down = await sim.click_button(grace.id, "citebot:feedback:down")
    await sim.until(lambda: up.original is not None and down.modal is not None)
    sent = await sim.submit_modal(down, {"reason": "quote_not_on_page", "comment": None})
    await answered(sim, sent)
    await until_logged(
        harness,
        lambda records: (
            any(v.reason == "quote_not_on_page" for r in records for v in r.votes)
            and any(s.verdict == "not_found" for r in records for s in r.sources)
        ),
    )

    shown = await run_admin(sim, "citebot report", {"period": "7d"}, locale="fr")
    assert shown.acks[0] == {"type": 5, "data": {"flags": EPHEMERAL}}
    assert shown.original is not None
    assert shown.original.ephemeral
    [embed] = shown.original.embeds
    assert re.fullmatch(
        r"Sim Guild, du \d{4}-\d\d-\d\d \d\d:\d\d au \d{4}-\d\d-\d\d \d\d:\d\d \(UTC\)",
        embed["title"],
    )
    labels = FRENCH.report_labels
    said = fields(shown)
    assert said[labels.answers].split("\n") == [
        f"{labels.outcomes['answered']}: **3**",
        f"{labels.outcomes['refused']}: **1**",
        f"{escaped(labels.refusals['daily_questions_per_person'])}: **1**",
    ]
    assert said[labels.votes] == "👍 **1** · 👎 **1**"
    reason = FRENCH.reason_labels.reasons["quote_not_on_page"]
    assert said[labels.down_reasons] == f"{reason}: **1**"
    assert said[labels.top_questions].split("\n") == [
        "1. What is grace? · **2**",
        "2. What is mercy? · **1**",
        "3. What is hope? · **1**",
    ]
    assert said[labels.unfound_quotes].split("\n") == [
        "**1**",
        f"{labels.sites}:",
        "- 127.0.0.1 · **1**",
    ]
    assert said[labels.channels].split("\n") == [
        f"<#{sim.text.id}> · **3**",
        f"<#{sim.no_threads.id}> · **1**",
    ]
    assert re.fullmatch(r"p50 \*\*[\d,]+\*\* · p95 \*\*[\d,]+\*\*", said[labels.first_text])
    tokens = [line.rsplit("**", 2)[1] for line in said[labels.tokens].split("\n")]
    # the usage: 12 in, one out a piece (16 + 13 + 13), none estimated; nobody priced the sim
    assert [int(n) for n in tokens] == [12 * 3, 4 + 1 + 1, 0, 3]
    seen_by = {
        person.id: {m.id for m in sim.channel_messages(sim.text.id, viewer=person.id)}
        for person in (sim.user, sim.admin)
    }
    assert shown.original.id in seen_by[sim.admin.id]
    assert shown.original.id not in seen_by[sim.user.id]  # the report is the admin's alone


async def test_nothing_asked_says_so_and_today_reaches_back_to_midnight_utc(
    harness: Harness, sim: DiscordSim
) -> None:
    shown = await run_admin(sim, "citebot report", {"period": "today"})
    assert shown.original is not None
    [embed] = shown.original.embeds
    assert embed["description"] == escaped(ENGLISH.report_labels.nothing)
    day = time.strftime("%Y-%m-%d", time.gmtime())
    assert embed["title"].startswith(f"Sim Guild, from {day} 00:00 to {day} ")


async def test_without_the_questions_words_the_report_says_why_none_are_listed(
    harness: Harness, sim: DiscordSim
) -> None:
    await harness.ask("What is grace?")
    shown = await run_admin(sim, "citebot report")
    labels = ENGLISH.report_labels
    said = fields(shown)
    assert said[labels.top_questions] == escaped(ENGLISH.questions_not_kept("metadata"))
    assert said[labels.answers] == f"{labels.outcomes['answered']}: **1**"
    assert labels.down_reasons not in said  # no 👎: no field


@pytest.mark.parametrize(
    ("where", "said"),
    [("text", FRENCH.report_admins_only()), ("dm", FRENCH.no_report_here())],
)
async def test_anyone_else_is_refused_in_their_language_and_shown_nothing(
    harness: Harness, sim: DiscordSim, where: str, said: str
) -> None:
    await harness.ask("What is grace?")
    channel = sim.text if where == "text" else sim.dm
    refused = await run_admin(
        sim, "citebot report", user_id=sim.user.id, channel_id=channel.id, locale="fr"
    )
    assert refused.original is not None
    assert refused.original.ephemeral
    assert refused.original.content == escaped(said)
    assert refused.original.embeds == []
    assert [ack["type"] for ack in refused.acks] == [4]
    edits = [r for r in sim.requests if r.method == "PATCH" and refused.token in r.path]
    assert edits == []  # nothing followed the refusal


async def test_an_admin_outside_the_guild_allowlist_is_refused(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    env = {"DISCORD_GUILD_ALLOWLIST": str(sim.foreign.guild_id)}
    async with running_harness(sim, upstream, env=env):
        refused = await run_admin(sim, "citebot report", locale="fr")
    assert refused.original is not None
    assert refused.original.content == escaped(FRENCH.not_allowed_here())
    assert refused.original.embeds == []


async def test_a_store_that_does_not_answer_is_said(
    sim: DiscordSim, upstream: UpstreamSim, redis_process: RedisProcess
) -> None:
    async with running_on_redis(sim, upstream, redis_process.url, namespace="report"):
        redis_process.kill()
        shown = await run_admin(sim, "citebot report", locale="fr")
    assert shown.original is not None
    assert shown.original.content == escaped(FRENCH.could_not_read_report())
    assert shown.original.embeds == []
