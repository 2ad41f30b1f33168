"""``citebot ask`` keeps the caps the worker keeps: what ``--json`` says a platform would post,
and what the terminal prints, stop at ``MAX_ANSWER_MESSAGES`` messages and ``MAX_CARDS``
cards, as the bot's own answers do."""

from __future__ import annotations

import json

import pytest

from tests.bot.test_cli import ask_upstream
from tests.sim.pages import FOUND, article, running_site
from tests.sim.upstream import Stream, UpstreamSim, answer, magisterium_citation

TOO_LONG = "This answer is too long to show in full"


def quote(n: int) -> str:
    return f"Source {n:02d} teaches that grace is the free and undeserved help God gives us."


def many_sources(count: int, url: str = "https://example.org/source-{n}") -> Stream:
    """An answer citing ``count`` sources, each its own document, in one sentence each."""
    return answer(
        ["Grace is a gift.", *(f" Said here[^{n}]." for n in range(1, count + 1))],
        [
            magisterium_citation(n - 1, quote(n), title=f"Source {n:02d}", url=url.format(n=n))
            for n in range(1, count + 1)
        ],
    )


@pytest.mark.parametrize("platform", ["discord", "slack"])
async def test_json_of_a_300_kb_answer_holds_the_messages_an_answer_may_take(
    platform: str,
) -> None:
    paragraph = "Grace builds on nature and perfects it, at some length and with care. " * 16
    pieces = [f"{paragraph}({n})\n\n" for n in range(270)]
    assert sum(map(len, pieces)) > 300_000
    async with UpstreamSim().running() as upstream:
        upstream.queue(answer(pieces))
        out = await ask_upstream(upstream, "Tell me everything.", "--platform", platform, "--json")
    document = json.loads(out)
    messages = [
        payload.get("content") or payload["markdown_text"] for payload in document["answer"]
    ]
    assert len(messages) == 10  # MAX_ANSWER_MESSAGES, as the worker posts it
    assert TOO_LONG in messages[-1]


@pytest.mark.parametrize("platform", ["discord", "slack"])
async def test_json_of_an_answer_citing_25_sources_holds_20_cards_and_the_summary(
    platform: str,
) -> None:
    async with UpstreamSim().running() as upstream:
        upstream.queue(many_sources(25))
        out = await ask_upstream(upstream, "What is grace?", "--platform", platform, "--json")
    document = json.loads(out)
    thread = json.dumps(document["thread"], ensure_ascii=False)
    assert [quote(n) in thread for n in range(1, 26)] == [True] * 20 + [False] * 5
    assert "…and 5 more sources" in thread
    assert [c["number"] for c in document["citations"]] == list(range(1, 26))


async def test_the_terminal_prints_20_cards_and_names_the_other_5() -> None:
    async with UpstreamSim().running() as upstream:
        upstream.queue(many_sources(25))
        out = (await ask_upstream(upstream, "What is grace?")).decode()
    _answer, cards = out.split("Sources", 1)
    assert [quote(n) in cards for n in range(1, 26)] == [True] * 20 + [False] * 5
    summary = cards[cards.index("…and 5 more sources") :]
    assert [f"Source {n:02d}" in summary for n in range(1, 26)] == [False] * 20 + [True] * 5


async def test_json_checks_the_cards_shown_and_says_nothing_of_the_sources_past_the_cap() -> None:
    async with running_site() as site, UpstreamSim().running() as upstream:
        for n in range(1, 4):
            site.html(f"/source-{n}", article(quote(n)))
        upstream.queue(many_sources(3, url=site.url("/source-{n}")))
        env = {"QUOTE_CHECK": "on", "QUOTE_CHECK_ALLOW_HOSTS": site.allowance, "MAX_CARDS": "2"}
        out = await ask_upstream(upstream, "Grace?", "--platform", "slack", "--json", env=env)
    document = json.loads(out)
    assert [(c["number"], c["quote_check"]) for c in document["citations"]] == [
        (1, "found"),
        (2, "found"),
        (3, None),  # no card, no quote shown: nothing checked
    ]
    assert "/source-3" not in site.paths()
    assert json.dumps(document["thread"], ensure_ascii=False).count(FOUND) == 2
