"""The <think> filter, fed every way a stream can split the text."""

from __future__ import annotations

import itertools

import pytest

from bot.upstream.reasoning import ThinkFilter, reasoning_of


def run(pieces: list[str]) -> tuple[str, bool]:
    """What the reader sees of ``pieces``, and whether any of it was reasoning."""
    think = ThinkFilter()
    shown, reasoned = [], False
    for piece in pieces:
        out = think.feed(piece)
        shown.append(out.text)
        reasoned |= out.reasoned
    return "".join(shown) + think.tail, reasoned


def splits(text: str) -> list[list[str]]:
    """The text whole, cut once anywhere, and cut twice anywhere."""
    cuts = [list(pair) for pair in itertools.combinations(range(1, len(text)), 2)]
    ones = [[text[:i], text[i:]] for i in range(1, len(text))]
    twos = [[text[:i], text[i:j], text[j:]] for i, j in cuts]
    return [[text], *ones, *twos]


@pytest.mark.parametrize(
    ("text", "reader_sees", "reasoned"),
    [
        # Perplexity's sonar-reasoning: the answer opens with the block
        ("<think>\nThe user asks.\n</think>\n\nHope[1] is a virtue.", "Hope[1] is a virtue.", True),
        # a block opening a later line, then the answer goes on
        ("Intro.\n<think>plan</think>\nMore.", "Intro.\nMore.", True),
        # the tag mentioned inside a sentence is the answer's own words
        ("Wrap it in `<think>` tags.", "Wrap it in `<think>` tags.", False),
        # an answer that ends on what could have begun a tag
        ("Line\n<thi", "Line\n<thi", False),
        # a stream cut inside the reasoning leaves nothing to show
        ("<think>\nstill reasoning about it", "", True),
        # a closing tag alone is no block
        ("a </think> b", "a </think> b", False),
    ],
)
def test_the_reader_sees_the_same_however_the_stream_splits_it(
    text: str, reader_sees: str, reasoned: bool
) -> None:
    for pieces in splits(text):
        assert run(pieces) == (reader_sees, reasoned), pieces


def test_reasoning_fields_are_recognised_and_empty_ones_are_not() -> None:
    assert reasoning_of({"content": None, "reasoning_content": "We need"})
    assert reasoning_of({"content": "", "reasoning": "First"})
    assert not reasoning_of({"content": "", "reasoning": None, "reasoning_details": []})
    assert not reasoning_of({"content": "Oi"})
