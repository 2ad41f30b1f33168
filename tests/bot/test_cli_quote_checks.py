"""``citebot ask`` shows what each card's quote check found: on the demo (the quick start,
offline: the demo serves its own pages) and against a simulated upstream citing a loopback
site; ``--json`` carries ``quote_check`` for every citation."""

from __future__ import annotations

import json
import re

from tests.bot.test_cli import ask_upstream, citebot
from tests.sim.pages import FOUND, NOT_FOUND, article, running_site
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

GRACE = "Grace is favor, the free and undeserved help that God gives us to respond to his call."
MERCY = "Mercy is the loving kindness, compassion, or forbearance shown to one who offends."


def test_ask_on_the_demo_shows_every_quote_found_on_its_page() -> None:
    result = citebot("ask", "How do I deploy citebot?")
    assert result.returncode == 0, result.stderr
    answer, cards = result.stdout.split("Sources", 1)
    footnotes = set(re.findall("[¹²³⁴⁵⁶⁷⁸⁹]", answer))
    assert footnotes
    assert cards.count(FOUND) == len(footnotes)  # one ✓ under each cited passage's quote
    assert "⚠" not in cards


def test_ask_json_on_the_demo_says_every_quote_was_found_and_nothing_when_off() -> None:
    checked = json.loads(
        citebot("ask", "What does STATE_URL do?", "--platform", "discord", "--json").stdout
    )
    assert checked["citations"]
    assert {c["quote_check"] for c in checked["citations"]} == {"found"}
    embeds = [e for p in checked["thread"] for e in p.get("embeds", [])]
    descriptions = [e.get("description", "") for e in embeds]
    assert sum(d.count(FOUND) for d in descriptions) == len(checked["citations"])

    off = citebot("ask", "What does STATE_URL do?", "--json", env={"QUOTE_CHECK": "off"})
    unchecked = json.loads(off.stdout)
    assert [c["quote_check"] for c in unchecked["citations"]] == [None] * len(
        unchecked["citations"]
    )
    assert FOUND not in off.stdout


async def test_ask_json_carries_each_citations_verdict_and_null_where_nothing_was_checked() -> None:
    async with running_site() as site, UpstreamSim().running() as upstream:
        site.html("/grace", article(GRACE))
        site.html("/mercy", article("Mercy is shown to those who ask."))
        site.html("/gone", "<p>Gone</p>", status=410)
        upstream.queue(
            answer(
                ["Grace[^1], mercy[^2], more[^3] and a summary[^4]."],
                [
                    magisterium_citation(0, GRACE, url=site.url("/grace")),
                    magisterium_citation(1, MERCY, url=site.url("/mercy")),
                    magisterium_citation(2, GRACE, url=site.url("/gone")),
                    magisterium_citation(3, "", url=site.url("/summary")),  # no quote to check
                    magisterium_citation(4, MERCY, url=site.url("/unused"), title="Never cited"),
                ],
            )
        )
        env = {"QUOTE_CHECK": "on", "QUOTE_CHECK_ALLOW_HOSTS": site.allowance}
        out = await ask_upstream(upstream, "Grace?", "--platform", "slack", "--json", env=env)
    document = json.loads(out)
    assert [(c["number"], c["quote_check"]) for c in document["citations"]] == [
        (1, "found"),
        (2, "not_found"),
        (3, "unreadable"),
        (4, None),  # a citation without a quote: nothing to check
        (5, None),  # also consulted, never cited: no quote of the answer's to check
    ]
    assert sorted(set(site.paths())) == ["/gone", "/grace", "/mercy", "/robots.txt"]
    shown = json.dumps(document["thread"], ensure_ascii=False)
    assert shown.count(FOUND) == 1
    assert shown.count(NOT_FOUND) == 1
