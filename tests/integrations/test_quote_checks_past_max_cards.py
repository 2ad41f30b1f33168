"""An answer citing more sources than ``MAX_CARDS``, with quote checking on, through ``citebot
run`` against the simulators: the cards posted are the ones checked and edited, the "…and N
more sources" message and the feedback buttons stay as posted, and the sources without a card
are never fetched."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from tests.integrations.many_workers import Fleet, fleet, until
from tests.sim.pages import FOUND, Site, article, cited, running_site
from tests.sim.upstream import UpstreamSim

SOURCES, MAX_CARDS = 25, 20
MORE = f"…and {SOURCES - MAX_CARDS} more sources"


def quote(n: int) -> str:
    return f"Source {n} teaches that grace is the free and undeserved help God gives us."


def paths() -> list[str]:
    return [f"/source-{n}" for n in range(1, SOURCES + 1)]


@asynccontextmanager
async def checking_worker() -> AsyncIterator[tuple[Fleet, Site]]:
    """One ``citebot run`` on Discord and Slack, its upstream citing :data:`SOURCES` pages of a
    loopback site that ``QUOTE_CHECK_ALLOW_HOSTS`` lets it read, each quote on its page."""
    upstream = UpstreamSim()
    async with (
        running_site() as site,
        fleet("memory://", upstream, shards=1, max_concurrency=1) as world,
    ):
        for n, path in enumerate(paths(), start=1):
            site.html(path, article(quote(n)))
        upstream.queue(cited(site, *[(path, quote(n)) for n, path in enumerate(paths(), 1)]))
        await world.start(
            1,
            QUOTE_CHECK="on",
            QUOTE_CHECK_ALLOW_HOSTS=site.allowance,
            MAX_CARDS=str(MAX_CARDS),
        )
        await world.slack.wait_connections(1)
        await world.discord.wait_shards()
        yield world, site


async def checked(world: Fleet) -> None:
    """Until the worker has logged its quote checks' end (they run in its process)."""
    log = world.workers[0].log
    await until(lambda: "quote checks: " in Path(log).read_text(errors="replace"))


def uncarded(site: Site) -> list[str]:
    """The pages of the sources past the cap that were fetched (none should be)."""
    return [path for path in site.paths() if path in paths()[MAX_CARDS:]]


async def test_slack_checks_the_posted_cards_and_keeps_the_summary_and_the_feedback() -> None:
    async with checking_worker() as (world, site):
        await world.ask_slack("What is grace?", "C1")
        await checked(world)
        delivery = world.mentioned["What is grace?"]
        replies = world.slack.bot_replies(delivery.channel, delivery.ts)

    cards = [m for m in replies if m.blocks and not m.streamed]
    shown = "\n".join(m.block_text() for m in cards)
    assert [quote(n) in shown for n in range(1, SOURCES + 1)] == [True] * MAX_CARDS + [False] * 5
    assert shown.count(FOUND) == MAX_CARDS  # each posted card's quote, found on its page
    assert any(e["action_id"] == "citebot_feedback" for m in cards for e in m.elements())
    summary = replies[-1]
    assert summary.shown.startswith(f"**{MORE}**")
    assert not summary.blocks
    assert uncarded(site) == []


async def test_discord_checks_the_posted_cards_and_keeps_the_summary() -> None:
    async with checking_worker() as (world, site):
        await world.ask_discord("What is grace?", world.discord.text.id)
        await checked(world)
        [answer_message] = world.discord_messages("What is grace?")
        thread = world.discord.thread_messages(answer_message.id)

    embeds = [embed for message in thread for embed in message.embeds]
    assert [embed["title"] for embed in embeds] == [f"Page {p}" for p in paths()[:MAX_CARDS]]
    assert sum(embed["description"].endswith(f"*{FOUND}*") for embed in embeds) == MAX_CARDS
    summary = thread[-1]
    assert summary.content.startswith(f"**{MORE}**")
    assert summary.embeds == []
    assert uncarded(site) == []
