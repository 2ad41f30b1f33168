"""A quote's verdict, edited in after the cards are posted, never moves a card to another
message: Discord, Slack and Telegram batch cards with room for the longest verdict. Checked on
any mix of documents, passages and quote lengths, in every language, against each platform's
limits."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n.wording import LANGUAGES, Wording
from bot.render.numbering import CitationCard
from bot.render.ports import Payload
from bot.upstream.citations import Citation
from bot.verify import Verdict
from integrations.telegram.cards import parts_of
from tests.integrations.formatter.support import thread_of
from tests.integrations.test_languages_limits import PRESENTERS

SENTENCE = "grace builds on nature and perfects it in every age of the church"
WORDS = SENTENCE.split(" ")


def _cards_in(payload: Payload) -> list[object]:
    """Which cards a thread message holds, and in what order."""
    if "embeds" in payload:
        return [(e["title"], e.get("author"), e.get("url")) for e in payload["embeds"]]
    if "rich_message" in payload:  # a Telegram part leads with its numbers and linked title
        return [part.split("</p>", 1)[0] for part in parts_of(payload)]
    return [b["text"]["text"] for b in payload["blocks"] if b["type"] == "section"]


@st.composite
def passages(draw: st.DrawFn) -> list[CitationCard]:
    """Cited passages of a few documents (several passages a document), quotes of any size."""
    documents = draw(st.integers(1, 12))
    sizes = draw(st.lists(st.integers(0, 400), min_size=1, max_size=40))
    return [
        CitationCard(
            number=number,
            citation=Citation(
                number=number,
                cited_text=" ".join(WORDS[(number + i) % len(WORDS)] for i in range(size)),
                title=f"Document {number % documents}",
                source_url=f"https://example.org/{number % documents}",
            ),
            supports=(f"Sentence {number}.",),
        )
        for number, size in enumerate(sizes, start=1)
    ]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=passages(),
    language=st.sampled_from(LANGUAGES),
    verdicts=st.lists(st.sampled_from([*Verdict, None]), min_size=1),
)
def test_a_verdict_edited_in_never_moves_a_card(
    cards: list[CitationCard], language: str, verdicts: list[Verdict | None]
) -> None:
    checked = [
        replace(card, quote_check=verdicts[index % len(verdicts)])
        for index, card in enumerate(cards)
    ]
    for presenter, validate in PRESENTERS:
        labels = Wording(language, presenter.name).labels
        posted = thread_of(presenter, cards, (), (), labels=labels)
        edited = thread_of(presenter, checked, (), (), labels=labels)
        assert [_cards_in(p) for p in edited] == [_cards_in(p) for p in posted]
        problems: list[Any] = [problem for payload in edited for problem in validate(payload)]
        assert problems == []
