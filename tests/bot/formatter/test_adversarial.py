"""Adversarial answers: what a hostile or unlucky upstream text must never do to a message."""

from __future__ import annotations

import pytest

from bot.citations import Citation
from bot.dialect import CitationCard, Dialect
from bot.events import AnswerDone
from bot.formatter import AnswerFormatter
from integrations.discord.dialect import DiscordDialect
from tests.bot.formatter.support import answer_text, dialects, problems


def final(dialect: Dialect, text: str, citations: tuple[Citation, ...] = (),
          step: int = 0) -> list[str]:
    formatter = AnswerFormatter(dialect)
    pieces = [text[i:i + step] for i in range(0, len(text), step)] if step else [text]
    for piece in pieces:
        formatter.feed(piece)
        formatter.render()
    rendered = formatter.finish(AnswerDone(text=text, finish_reason="stop", citations=citations))
    for payload in (*rendered.answer, *rendered.thread):
        assert problems(dialect, payload) == []
    return [answer_text(payload) for payload in rendered.answer]


@pytest.mark.parametrize("dialect", dialects(), ids=lambda d: d.name)
@pytest.mark.parametrize("marker", ["[^1234]", "[^0]", "[^0012]"])
def test_a_caret_marker_of_any_number_is_never_shown_raw(dialect: Dialect, marker: str) -> None:
    (message,) = final(dialect, f"Grace perfects nature.{marker} Amen.[^1]",
                       (Citation(number=1, cited_text="q", source_url="https://a.org"),))
    assert "^" not in message
    assert "Grace perfects nature. Amen." in message.replace("\\", "")


def test_a_discord_card_shows_the_quote_lines_as_the_source_wrote_them() -> None:
    quote = "Intro\n# Title\n- item\n3. third\n-# small\n> nested"
    card = CitationCard(number=1, citation=Citation(number=1, cited_text=quote))
    description = DiscordDialect().card(card)["description"]
    assert description == ("> Intro\n> \\# Title\n> \\- item\n> 3\\. third\n> \\-# small\n"
                           "> \\> nested")
