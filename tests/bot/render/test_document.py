"""The document model: what markdown-it-py's parse becomes for the writer."""

from __future__ import annotations

import pytest

from bot.render.document import Footnote, Paragraph, Text, parse_blocks


def sentences(source: str) -> list[str]:
    (paragraph,) = parse_blocks(source)
    assert isinstance(paragraph, Paragraph)
    return [n.sentence for n in paragraph.inlines if isinstance(n, Footnote)]


def test_a_footnote_knows_the_sentence_it_supports() -> None:
    (paragraph,) = parse_blocks("Faith seeks understanding. Grace perfects nature.[^2] Amen.")
    assert isinstance(paragraph, Paragraph)
    (note,) = [n for n in paragraph.inlines if isinstance(n, Footnote)]
    assert note.sentence == "Grace perfects nature."


@pytest.mark.parametrize(
    ("source", "sentence"),
    [
        ("The current population of **[2][3]", "The current population of"),
        ("** The current population of[2]", "The current population of"),
        ("It is **big** and *rare*.[1]", "It is big and rare."),
        ("It costs 5 * 3 dollars.[1]", "It costs 5 * 3 dollars."),
    ],
)
def test_a_supported_sentence_carries_no_unclosed_emphasis_marks(
    source: str, sentence: str
) -> None:
    """Perplexity's recorded stream ends in ``**[2][3]``: the cards quote the words only."""
    assert set(sentences(source)) == {sentence}


def test_a_sentence_goes_on_past_an_abbreviation() -> None:
    source = "A consensus from authoritative U.S.[1] data sources.[2] And FRED/St. Louis data.[3]"
    assert sentences(source) == [
        "A consensus from authoritative U.S. data sources.",
        "A consensus from authoritative U.S. data sources.",
        "And FRED/St. Louis data.",
    ]


@pytest.mark.parametrize(
    ("source", "shown", "supported"),
    [
        # Azure On Your Data writes a blank before each marker
        (
            "It runs on Kubernetes [doc1]. It scales [doc2][doc3];",
            "It runs on Kubernetes¹. It scales¹¹;",
            ["It runs on Kubernetes.", "It scales;", "It scales;"],
        ),
        # a footnote inside a sentence, or at its end with no stop, keeps its blank
        ("Plain [1] marker.", "Plain ¹ marker.", ["Plain marker."]),
        ("Hosting plans [doc1]", "Hosting plans ¹", ["Hosting plans"]),
    ],
)
def test_a_footnote_that_closes_a_clause_sits_on_its_word(
    source: str, shown: str, supported: list[str]
) -> None:
    (paragraph,) = parse_blocks(source)
    assert isinstance(paragraph, Paragraph)
    written = "".join(
        "¹" if isinstance(node, Footnote) else node.text
        for node in paragraph.inlines
        if isinstance(node, Footnote | Text)
    )
    assert written == shown
    assert sentences(source) == supported
