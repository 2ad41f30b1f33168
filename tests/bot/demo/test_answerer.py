"""The extractive answerer and its index, without the HTTP server around them."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.demo import NOTHING_FOUND, Corpus, compose_answer
from bot.demo.documents import parse
from bot.demo.index import query_terms
from bot.demo.wire import token_pieces
from tests.bot.demo.conftest import assert_backed, corpus_texts

BUNDLED = Corpus.load()


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_no_question_breaks_the_search(question: str) -> None:
    answer = compose_answer(BUNDLED, question)

    if answer.citations:
        assert_backed(answer.text, answer.citations, corpus_texts())
    else:
        assert answer.text == NOTHING_FOUND


@given(st.text())
def test_token_pieces_rebuild_the_text_exactly(text: str) -> None:
    assert "".join(token_pieces(text)) == text


def test_stop_words_are_dropped_unless_nothing_else_is_left() -> None:
    assert query_terms("How do I deploy citebot?") == ["deploy", "citebot"]
    assert query_terms("What is it?") == ["what", "is", "it"]
    assert query_terms('"NEAR(x* -y:z"') == ["near"]


def test_passages_are_numbered_like_paragraphs_under_their_headings() -> None:
    deploy = [p for p in BUNDLED.passages if p.document.title == "Deploying citebot as a worker"]

    assert deploy[0].reference == "1"
    assert deploy[0].heading == "Deploying citebot as a worker"
    assert (deploy[1].reference, deploy[1].heading) == ("1.1", "Heroku-like platforms")
    source = deploy[0].document.path.read_text(encoding="utf-8")
    assert all(source[p.start : p.start + len(p.text)] == p.text for p in deploy)


def test_a_sentence_carrying_its_own_marker_is_never_quoted(tmp_path: Path) -> None:
    (tmp_path / "refs.md").write_text(
        "# Bells\n\nChurch bells ring at noon [2]. Bells are cast in bronze.\n", encoding="utf-8"
    )

    answer = compose_answer(Corpus.load(tmp_path), "When do church bells ring?")

    assert answer.text == "Bells are cast in bronze.[^1]"


def test_a_follow_up_without_its_own_topic_uses_the_earlier_question() -> None:
    alone = compose_answer(BUNDLED, "And threads?")
    followed = compose_answer(BUNDLED, "And threads?", history=["How do I use citebot in Slack?"])

    assert followed.citations[0]["document_title"] == "Using citebot in Slack"
    assert alone.text != followed.text


def test_the_featured_document_opens_the_answer() -> None:
    answer = compose_answer(BUNDLED, "What is citebot?")

    assert answer.citations[0]["document_title"] == "What citebot is"
    assert answer.citations[0]["document_reference"] == "1"
    assert answer.text.startswith("citebot is a chat bot")


_LINES = st.sampled_from(
    [
        "",
        "",
        "# A title",
        "## Bells",
        "### Ringing ##",
        "```",
        "~~~",
        "| a | b |",
        "- Bells ring at noon.",
        "* Bronze bells last.",
        "1. Ring twice [3].",
        "Bells are cast in bronze. They ring at noon! Do they? Yes.",
        "A bell tower, e.g. a campanile, holds bells.",
        "  indented bell text",
        "> quoted bells",
        "<!-- author: X -->",
        "Bells [^1]: a definition line.",
        "Ünïcödé bells ring.",
    ]
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(_LINES, max_size=25),
    st.sampled_from(["\n", "\r\n"]),
    st.sampled_from(["Do bells ring at noon?", "bronze", "tower campanile", "ünicode"]),
)
def test_any_markdown_is_cut_into_verbatim_passages_that_back_every_statement(
    lines: list[str], newline: str, question: str
) -> None:
    text = newline.join(lines)
    document, passages = parse(Path("bells.md"), text)
    corpus = Corpus(documents=[document], passages=passages) if passages else None

    assert all(text[p.start : p.start + len(p.text)] == p.text for p in passages)
    assert all(p.text and p.text == p.text.strip() for p in passages)
    if corpus is not None:
        answer = compose_answer(corpus, question)
        if answer.citations:
            assert_backed(answer.text, answer.citations, [text])
        corpus.close()
