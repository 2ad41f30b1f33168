"""Adversarial answers: what a hostile or unlucky upstream text must never do to a message."""

from __future__ import annotations

import pytest

from bot.render.formatter import AnswerFormatter
from bot.render.numbering import CitationCard
from bot.render.ports import Presenter
from bot.upstream.citations import Citation
from bot.upstream.events import AnswerDone
from integrations.discord.presenter import DiscordPresenter
from tests.integrations.formatter.support import (
    answer_text,
    footnotes_shown,
    presenters,
    problems,
    thread_of,
)


def final(
    presenter: Presenter, text: str, citations: tuple[Citation, ...] = (), step: int = 0
) -> list[str]:
    formatter = AnswerFormatter(presenter)
    pieces = [text[i : i + step] for i in range(0, len(text), step)] if step else [text]
    for piece in pieces:
        formatter.feed(piece)
        formatter.render()
    rendered = formatter.finish(AnswerDone(text=text, finish_reason="stop", citations=citations))
    for payload in (*rendered.answer, *rendered.thread):
        assert problems(presenter, payload) == []
    return [answer_text(payload) for payload in rendered.answer]


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_a_long_quoted_code_block_keeps_every_line_of_code_in_the_quote(
    presenter: Presenter,
) -> None:
    lines = [f"x{i} = a[{i}]  # index {i} of the list" for i in range(90)]
    text = "> ```py\n" + "".join(f"> {line}\n" for line in lines) + "> ```\n\nAfter."
    messages = final(presenter, text, step=13)
    shown = "\n".join(messages)
    quoted = presenter.markdown.quote_prefix
    for line in lines:
        assert f"{quoted}{line}" in shown  # the code's own brackets are never taken for notes
    for message in messages:
        body = message.removesuffix("After.").strip()
        assert all(row.startswith(quoted.strip()) for row in body.split("\n") if row)
        assert body.count("```") % 2 == 0


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_a_long_quote_stays_a_quote_in_every_message(presenter: Presenter) -> None:
    text = "> " + "Grace does not destroy nature but perfects it. " * 60 + "\n> Amen.\n\nAfter."
    messages = final(presenter, text, step=29)
    body = "\n".join(messages).replace("After.", "")
    quoted = presenter.markdown.quote_prefix.strip()
    assert all(row.startswith(quoted) for row in body.split("\n") if row.strip())
    assert "Amen." in body


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
@pytest.mark.parametrize("marker", ["[^1234]", "[^0]", "[^0012]"])
def test_a_caret_marker_of_any_number_is_never_shown_raw(presenter: Presenter, marker: str) -> None:
    (message,) = final(
        presenter,
        f"Grace perfects nature.{marker} Amen.[^1]",
        (Citation(number=1, cited_text="q", source_url="https://a.org"),),
    )
    assert "^" not in message
    assert "Grace perfects nature. Amen." in message.replace("\\", "")


def test_a_discord_card_shows_the_quote_lines_as_the_source_wrote_them() -> None:
    quote = "Intro\n# Title\n- item\n3. third\n-# small\n> nested"
    card = CitationCard(number=1, citation=Citation(number=1, cited_text=quote))
    [embed] = thread_of(DiscordPresenter(), [card])[0]["embeds"]
    description = embed["description"]
    assert description == (
        "> Intro\n> \\# Title\n> \\- item\n> 3\\. third\n> \\-# small\n> \\> nested"
    )


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_a_long_paragraph_reads_as_one_paragraph(presenter: Presenter) -> None:
    """The reader cuts over-long blocks to keep streaming linear; the cut must not show."""
    sentences = [f"Sentence {n:02d} of a long and careful answer." for n in range(40)]
    text = " ".join(sentences)
    messages = final(presenter, text, step=7)
    assert all("\n" not in message for message in messages)
    assert " ".join(messages) == text  # every word, once, in order
    for message in messages[:-1]:
        assert message.endswith(".")  # a message that must end early ends at a sentence


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_footnotes_brought_together_by_removed_markers_never_read_as_one_number(
    presenter: Presenter,
) -> None:
    """``[^12]`` and ``[^1]`` have no source here and go with their spaces: the two ``[^2]``
    left side by side must still read as two footnotes, never as ``¹¹`` (eleven)."""
    text = "Grace perfects nature.[^2] [^12] [^1][^2]"
    citation = Citation(number=2, cited_text="Grace perfects nature.")
    formatter = AnswerFormatter(presenter)
    formatter.feed(text)
    rendered = formatter.finish(AnswerDone(text=text, finish_reason="stop", citations=(citation,)))
    assert footnotes_shown(presenter, rendered.answer) == {1}
