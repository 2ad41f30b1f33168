"""``citebot run`` wires quote checking: one checker per worker, allowed the demo's own pages
(on a loopback address, refused otherwise), so the demo's cards show their quotes found; on
SIGTERM the checks still running end before the platforms close."""

from __future__ import annotations

import asyncio

from tests.bot.test_worker import answer_lines, workers
from tests.sim.pages import FOUND, article, running_site
from tests.sim.slack import SlackSim
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

GRACE = "Grace is favor, the free and undeserved help that God gives us to respond to his call."


async def test_a_worker_on_the_demo_edits_found_into_every_card() -> None:
    async with SlackSim() as sim, UpstreamSim().running() as unused:
        demo = {"UPSTREAM_BASE_URL": "demo", "QUOTE_CHECK": "on", "DEMO_TOKENS_PER_SECOND": "2000"}
        async with workers(1, sim, unused, "memory://", **demo) as (worker,):
            asked = await sim.mention("C1", "How do I deploy citebot?")

            def found() -> int:
                return sum(m.block_text().count(FOUND) for m in sim.bot_replies("C1", asked.ts))

            def quotes() -> int:
                blocks = [b for m in sim.bot_replies("C1", asked.ts) for b in m.blocks or []]
                parts = [p for b in blocks if b["type"] == "rich_text" for p in b["elements"]]
                return sum(1 for part in parts if part["type"] == "rich_text_quote")

            await sim.wait_for(lambda: found() and found() == quotes())
            code, _, log = await worker.stop()
    assert code == 0
    [line] = answer_lines(log)
    assert found() == line["citations"]  # every cited quote, each under its own card
    assert unused.requests == []


async def test_sigterm_ends_the_checks_still_running_and_leaves_their_cards_as_posted() -> None:
    release = asyncio.Event()
    async with SlackSim() as sim, UpstreamSim().running() as upstream, running_site() as site:
        site.held("/slow", article(GRACE), release)
        upstream.queue(
            answer(
                ["Grace is a gift[^1]."], [magisterium_citation(0, GRACE, url=site.url("/slow"))]
            )
        )
        checking = {"QUOTE_CHECK": "on", "QUOTE_CHECK_ALLOW_HOSTS": site.allowance}
        async with workers(1, sim, upstream, "memory://", **checking) as (worker,):
            asked = await sim.mention("C1", "What is grace?")
            await site.hanging()
            code, seconds, log = await worker.stop()
        release.set()
    assert code == 0
    assert seconds < 25
    [cards] = [m for m in sim.bot_replies("C1", asked.ts) if m.blocks]
    assert GRACE in cards.block_text()
    assert cards.edits == 0
    assert "Traceback" not in log
