"""Quote checks on Teams, end to end: the simulated upstream cites pages on a loopback site that
``QUOTE_CHECK_ALLOW_HOSTS`` lets citebot read; the answer's message is then updated as the
verdicts come, each citation saying what its page holds (its abstract leading with the verdict,
its window too)."""

from __future__ import annotations

import json

from tests.integrations.teams.world import teams_world
from tests.sim.pages import EVERY_KIND, FOUND, NOT_FOUND, Site, cited, quote_checks_finished


async def test_each_citation_says_whether_its_quote_is_on_its_page(site: Site) -> None:
    env = {"QUOTE_CHECK": "on", "QUOTE_CHECK_ALLOW_HOSTS": site.allowance}
    async with teams_world(env) as world:
        teams = world.teams
        owner, bob = teams.add_person("Olivia Owner"), teams.add_person("Bob Baker")
        channel = teams.add_team("Parish", owners=[owner], members=[bob]).channels[0]
        world.upstream.queue(cited(site, *EVERY_KIND))
        post, _ = await teams.mention(bob, channel, "What is grace?")
        await world.answered()
        await quote_checks_finished()
        await teams.until(lambda: bool(world.replies(channel, post)[0].edits))
        (shown,) = world.replies(channel, post)
        found, changed, unread = (shown.citations[n] for n in (1, 2, 3))
        assert found["abstract"].startswith(FOUND)
        assert changed["abstract"].startswith(NOT_FOUND)
        assert not unread["abstract"].startswith(("✓", "⚠"))  # a 403 is not the source
        assert FOUND in json.dumps(shown.popup(1), ensure_ascii=False)
        assert 1 <= len(shown.edits) <= 2, "updated as the verdicts come, never more"
