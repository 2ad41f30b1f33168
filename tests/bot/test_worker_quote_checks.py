"""``citebot run`` wires quote checking: one checker per worker, allowed the demo's own pages
(on a loopback address, refused otherwise), so the demo's cards show their quotes found."""

from __future__ import annotations

from tests.bot.test_worker import answer_lines, workers
from tests.sim.slack import SlackSim
from tests.sim.upstream import UpstreamSim

FOUND = "✓ Quote found on the page"


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

            await sim.wait_for(lambda: found() and found() == quotes(), within=30)
            code, _, log = await worker.stop()
    assert code == 0
    [line] = answer_lines(log)
    assert found() == line["citations"]  # every cited quote, each under its own card
    assert unused.requests == []
