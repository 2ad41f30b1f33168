"""What every registered platform's presenter writes, from the same answers: each payload
within the platform's limits and promises, whatever the answer (streamed, finished, capped at
``MAX_ANSWER_MESSAGES`` and ``MAX_CARDS``, its verdicts edited in), and every footnote the
answer shows with its card, the same number and the same URL."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.render.formatter import AnswerFormatter, RenderedAnswer
from bot.render.ports import Payload
from bot.render.thread import write_thread
from bot.verify import Verdict
from tests.integrations.conformance.kit import ANSWERS, Conformance, registered
from tests.integrations.formatter.cases import Case
from tests.integrations.formatter.reading import same_url

PLATFORMS = registered()
VERDICTS = [Verdict.FOUND, Verdict.NOT_FOUND, Verdict.UNREADABLE, None]


def streamed(
    platform: Conformance, case: Case, *, capped: bool
) -> tuple[list[Payload], RenderedAnswer]:
    """Every message shown while ``case`` streams in pieces, and the answer it finishes as
    (with the worker's default caps when ``capped``)."""
    formatter = AnswerFormatter(
        platform.presenter,
        max_messages=10 if capped else None,
        max_cards=20 if capped else None,
    )
    shown: list[Payload] = []
    for start in range(0, len(case.text), 40):
        formatter.feed(case.text[start : start + 40])
        shown += formatter.render()
    return shown, formatter.finish(case.done())


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.name)
@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_every_payload_keeps_the_platforms_limits(platform: Conformance, name: str) -> None:
    shown, result = streamed(platform, ANSWERS[name], capped=True)
    checked = [
        replace(card, quote_check=VERDICTS[index % len(VERDICTS)])
        for index, card in enumerate(result.layout.cards)
    ]
    edited = write_thread(replace(result.layout, cards=checked), platform.presenter)
    payloads = [*shown, *result.answer, *result.thread, *edited]
    refused = {index: platform.problems(payload) for index, payload in enumerate(payloads)}
    assert {index: problems for index, problems in refused.items() if problems} == {}


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.name)
@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_every_footnote_has_its_card_with_the_same_number_and_url(
    platform: Conformance, name: str
) -> None:
    _, result = streamed(platform, ANSWERS[name], capped=False)
    cards = platform.cards(result.thread)
    notes = platform.footnotes(result.answer)
    assert [number for number, _ in notes if number not in cards] == []
    assert [
        (number, url, cards[number])
        for number, url in notes
        if url is not None and not same_url(cards[number], url)
    ] == []
    assert set(cards) == {card.number for card in result.layout.cards}  # and no other number
