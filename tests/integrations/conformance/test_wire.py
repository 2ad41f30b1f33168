"""What every registered platform's sink does on its simulator: nothing from the upstream
pings anyone, and a thread message the platform refuses is sent again without the card it
refused, the others kept."""

from __future__ import annotations

import pytest

from bot.render.commonmark import ZWSP
from bot.render.formatter import AnswerFormatter
from bot.render.layout import ThreadLayout
from bot.render.numbering import CitationCard
from bot.render.thread import write_thread
from bot.upstream.citations import Citation
from tests.integrations.conformance.kit import ANSWERS, Conformance, registered

WIRED = [platform for platform in registered() if platform.wire is not None]
REFUSED = "This quote belongs to the card the platform refuses."


def card(number: int, title: str, quote: str) -> CitationCard:
    citation = Citation(
        number=number, title=title, cited_text=quote, source_url=f"https://example.org/{number}"
    )
    return CitationCard(number=number, citation=citation)


@pytest.mark.parametrize("platform", WIRED, ids=lambda p: p.name)
async def test_nothing_the_upstream_says_pings_anyone(
    platform: Conformance, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert platform.wire is not None
    case = ANSWERS["mentions"]  # mention words in the text, code, a card and a related question
    formatter = AnswerFormatter(platform.presenter)
    formatter.feed(case.text)
    rendered = formatter.finish(case.done())
    async with platform.wire(monkeypatch) as wire:
        await wire.sink.show(rendered.answer, final=True)
        await wire.sink.post_thread(rendered.thread)
        pings, refusals, seen = wire.pings(), wire.refusals(), "\n".join(wire.seen())
    assert pings == []
    assert refusals == 0
    shown = seen.replace(ZWSP, "")  # shown as text, as the upstream wrote them
    assert [word for word in ("@everyone", "@here", "<@123>") if word not in shown] == []


@pytest.mark.parametrize("platform", WIRED, ids=lambda p: p.name)
async def test_a_refused_message_is_sent_again_without_the_refused_card(
    platform: Conformance, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert platform.wire is not None
    presenter = platform.presenter
    cards = [
        card(1, "Catechism", "Grace is favor."),
        card(2, "Refused", REFUSED),
        card(3, "Lumen Gentium", "Grace heals."),
    ]
    first, *rest = write_thread(ThreadLayout(cards=cards), presenter)
    async with platform.wire(monkeypatch) as wire:
        await wire.sink.show([presenter.answer_message("Grace.", feedback=True)], final=True)
        await wire.sink.post_thread([wire.spoiled(first, 1), *rest])
        refusals, seen = wire.refusals(), "\n".join(wire.seen())
    assert refusals >= 1  # the platform did refuse the message
    assert "Catechism" in seen
    assert "Lumen Gentium" in seen
    assert "Grace is favor." in seen  # the other cards whole, their quotes too
    assert "Grace heals." in seen
    assert REFUSED not in seen
