"""Issue 14's Discord cases, end to end: what a person sees when citations carry URLs Discord's
spec refuses, when several cards share a document's URL, when a private answer is edited, and
when Discord refuses a card anyway.

Each test fails on the code that predates the issue's phase 2 (see docs/platform-spec.md): the
simulator now referees with Discord's official spec and docs.
"""

from __future__ import annotations

from collections.abc import Sequence
from unittest.mock import ANY

import pytest

from bot.i18n.wording import Labels
from bot.render.ports import Payload
from integrations.discord.cards import DiscordCards
from integrations.discord.presenter import DiscordPresenter
from integrations.discord.types import Embed
from tests.integrations.discord.harness import Harness, running_harness
from tests.sim.discord import DiscordSim, SimMessage
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

LONG = "https://example.org/" + "a" * 2080
IDN = "https://例え.jp/パス?q=ünï"
UNSAFE = {f"raw {c!r}": f"https://example.org/a{c}b" for c in '|{}^`"<>\\'}
BAD = {"2,100 characters": LONG, "non-ASCII": IDN, **UNSAFE, "bad % escape": "https://x.org/%zz"}


def _shown_cards(harness: Harness, message: SimMessage) -> list[dict[str, object]]:
    """The cards a person sees: in the answer's thread, or after the answer where none."""
    sim = harness.sim
    if sim.thread_of(message.id) is not None:
        shown = sim.thread_messages(message.id)
    else:
        channel = sim.channel_messages(message.channel_id, viewer=sim.user.id)
        shown = channel[channel.index(message) + 1 :]
    return [e for m in shown for e in m.embeds if e.get("title") != "Also consulted"]


def _refusals(harness: Harness) -> list[tuple[str, dict[str, object]]]:
    return [(r.route, r.form_errors) for r in harness.sim.requests if r.form_errors]


@pytest.mark.parametrize("url", BAD.values(), ids=BAD.keys())
async def test_a_source_url_discord_would_refuse_costs_no_card(harness: Harness, url: str) -> None:
    harness.upstream.queue(
        answer(
            ["Grace is a gift[^1], freely given[^2]."],
            [
                magisterium_citation(0, "Grace is favor.", title="Odd link", url=url),
                magisterium_citation(
                    1, "Sanctifying grace.", title="Catechism", url="https://example.org/ccc"
                ),
            ],
        )
    )
    message = await harness.ask("What is grace?")

    assert [c["title"] for c in _shown_cards(harness, message)] == ["Odd link", "Catechism"]
    assert _refusals(harness) == []


async def test_three_passages_of_one_document_all_show(harness: Harness) -> None:
    """Magisterium often cites several passages of one document, all with its URL."""
    passages = ["Grace is favor.", "Grace is a participation in the life of God.", "It heals."]
    harness.upstream.queue(
        answer(
            ["Grace is favor[^1], a share in God's life[^2] that heals[^3]."],
            [
                magisterium_citation(i, text, title="Catechism", url="https://example.org/ccc")
                for i, text in enumerate(passages)
            ],
        )
    )
    message = await harness.ask("What is grace?")

    shown = str(_shown_cards(harness, message))
    assert [p for p in passages if p not in shown] == []
    assert _refusals(harness) == []


async def test_a_private_answer_is_edited_with_the_documented_flags(harness: Harness) -> None:
    harness.upstream.queue(answer(["Grace is a gift of God."]))
    message = await harness.ask("What is grace?", private=True)

    assert message.ephemeral
    assert "Grace is a gift of God." in message.content
    assert _refusals(harness) == []


class _RefusedCardSlipsIn(DiscordCards):
    def message(self, parts: Sequence[Embed], labels: Labels) -> Payload:
        first, *rest = parts
        return super().message(
            [first, {"title": "Refused", "url": "https://example.org/%zz"}, *rest], labels
        )


class _OneCardRefused(DiscordPresenter):
    """Slips into the cards message a card Discord refuses, as a check citebot lacks would:
    the spec refuses its URL, and the 400 names it (``errors.embeds.1.url``)."""

    thread_parts = _RefusedCardSlipsIn()


TWO_DOCUMENTS = answer(
    ["Grace is a gift[^1], freely given[^2]."],
    [
        magisterium_citation(0, "Grace is favor.", title="Catechism", url="https://x.org/ccc"),
        magisterium_citation(1, "Grace heals.", title="Lumen Gentium", url="https://x.org/lg"),
    ],
)
CARDS = "POST /channels/{channel_id}/messages"


def _card_posts(harness: Harness) -> list[tuple[int, list[object]]]:
    return [
        (r.status, [e.get("title") for e in r.json.get("embeds", [])])
        for r in harness.sim.requests
        if f"{r.method} {r.route}" == CARDS
    ]


async def test_a_refused_card_costs_only_itself(
    sim: DiscordSim, upstream: UpstreamSim, caplog: pytest.LogCaptureFixture
) -> None:
    async with running_harness(sim, upstream, presenter=_OneCardRefused()) as harness:
        harness.upstream.queue(TWO_DOCUMENTS)
        message = await harness.ask("What is grace?")

    assert [c["title"] for c in _shown_cards(harness, message)] == ["Catechism", "Lumen Gentium"]
    assert _card_posts(harness) == [
        (400, ["Catechism", "Refused", "Lumen Gentium"]),
        (200, ["Catechism", "Lumen Gentium"]),
    ]
    assert [r for _route, r in _refusals(harness)] == [
        {"embeds": {"1": {"url": {"_errors": [ANY]}}}}
    ]
    assert any("'Refused'" in r.getMessage() for r in caplog.records if r.levelname == "WARNING")


async def test_a_refusal_that_names_no_card_sends_the_cards_one_by_one(harness: Harness) -> None:
    harness.sim.refuse_next(CARDS, 400, 50035, "Invalid Form Body")
    harness.upstream.queue(TWO_DOCUMENTS)
    message = await harness.ask("What is grace?")

    assert [c["title"] for c in _shown_cards(harness, message)] == ["Catechism", "Lumen Gentium"]
    assert _card_posts(harness) == [
        (400, ["Catechism", "Lumen Gentium"]),
        (200, ["Catechism"]),
        (200, ["Lumen Gentium"]),
    ]
