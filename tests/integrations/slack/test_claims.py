""" "Check with sources" on any message (issue 26), end to end: the real slack-bolt app gets
the message shortcut from the simulated Slack; the message's claim goes upstream as a question
about it, and the thread shows the claim quoted with its author named (never pinged), the
answer with its footnotes, and the cards with their quotes checked on their pages."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.i18n.wording import Wording
from integrations.slack.words import add_me_first
from tests.integrations.slack.conftest import World, slack_world
from tests.sim.pages import EVERY_KIND, FOUND, NOT_FOUND, Site, cited, quote_checks_finished

CHANNEL = "C0GENERAL"
BOB, ALICE = "U0BOB", "U0ALICE"


@pytest.fixture
async def world(site: Site) -> AsyncIterator[World]:
    """Quote checking on, allowed to read the loopback site the citations name."""
    env = {"QUOTE_CHECK": "on", "QUOTE_CHECK_ALLOW_HOSTS": site.allowance}
    async with slack_world(env) as running:
        running.sim.workspace.add_user(BOB, name="bob", locale="fr-FR")
        running.sim.workspace.add_user(ALICE, name="alice")
        yield running


async def test_a_message_checked_with_sources_is_answered_with_verdicts_in_its_thread(
    world: World, site: Site
) -> None:
    world.upstream.queue(cited(site, *EVERY_KIND))
    claim = await world.sim.say(
        CHANNEL, "<@U0ALICE> says grace is *earned* by good works", user=BOB
    )
    await world.sim.shortcut("citebot_check", channel=CHANNEL, message_ts=claim.ts, user=ALICE)
    await world.answered(CHANNEL, claim.ts)
    await quote_checks_finished()

    [header, answered, cards] = world.sim.bot_replies(CHANNEL, claim.ts)
    quote = header.block_text()
    assert quote.startswith("Check with sources\n@alice says grace is *earned* by good works")
    assert quote.endswith("— bob")
    assert header.pings() == []
    asked = world.upstream.questions[0][-1]["content"]
    assert asked == Wording().claim_question(
        "@alice says grace is *earned* by good works", Wording().labels.quoted
    )
    assert answered.shown.startswith("A gift.")
    assert site.url("/found") in answered.shown  # footnotes linked to their sources
    shown = cards.block_text()
    assert FOUND in shown
    assert NOT_FOUND in shown
    assert "is thinking…" in world.sim.statuses(CHANNEL, claim.ts)


async def test_a_message_without_words_or_where_citebot_cannot_post_is_told_to_the_asker(
    world: World,
) -> None:
    empty = await world.sim.say(CHANNEL, "<@U0BOT>", user=BOB)
    await world.sim.shortcut("citebot_check", channel=CHANNEL, message_ts=empty.ts, user=BOB)
    await world.sim.wait_for(lambda: world.sim.ephemerals(BOB))
    [nothing] = world.sim.ephemerals(BOB)
    assert nothing.shown == Wording("fr").nothing_to_check()

    world.sim.fail_next("chat.postMessage", "not_in_channel", status=200, retry_after=None)
    elsewhere = await world.sim.say("C0SECRET", "The Earth is flat", user=BOB)
    await world.sim.shortcut("citebot_check", channel="C0SECRET", message_ts=elsewhere.ts, user=BOB)
    await world.sim.wait_for(lambda: len(world.sim.ephemerals(BOB)) == 2)
    told = world.sim.ephemerals(BOB)[-1]
    assert told.shown == add_me_first(Wording("fr", "slack"))
    assert world.sim.bot_replies("C0SECRET", elsewhere.ts) == []
    assert world.upstream.requests == []
