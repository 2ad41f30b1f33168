"""The block reader: the complete Markdown blocks the formatter gets from a streamed answer."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.blocks import BlockReader
from bot.render.document import (
    Block,
    Footnote,
    Heading,
    Inline,
    Link,
    ListBlock,
    Paragraph,
    Quote,
    Span,
    parse_blocks,
)


def read(pieces: list[str], *, cut: int = 1200) -> list[str]:
    reader = BlockReader(cut=cut)
    blocks = []
    for piece in pieces:
        blocks += reader.feed(piece)
    return [block.text for block in blocks + reader.close()]


def markers(source: str) -> list[int]:
    found: list[int] = []

    def walk(nodes: Iterable[Block | Inline]) -> None:
        for node in nodes:
            if isinstance(node, Footnote):
                found.append(node.number)
            elif isinstance(node, Span | Link):
                walk(node.children)
            elif isinstance(node, Paragraph | Heading):
                walk(node.inlines)
            elif isinstance(node, Quote):
                walk(node.blocks)
            elif isinstance(node, ListBlock):
                for item in node.items:
                    walk(item)

    for block in read([source]):
        walk(parse_blocks(block))
    return found


def test_both_marker_forms_and_runs_are_footnotes() -> None:
    assert markers("Grace builds on nature.[^1][^2] See also [3].") == [1, 2, 3]


def test_azure_doc_markers_are_footnotes() -> None:
    """Azure On Your Data writes ``[docN]``; ``[doc]`` or ``[document1]`` are words."""
    assert markers("Hosting plans [doc1][doc2]. See [doc] and [document1] [doc4].") == [1, 2, 4]


def test_brackets_in_code_and_links_are_not_footnotes() -> None:
    text = "Use `a[1]` or [a[1]](https://x.org) and [^2].\n\n```py\nb = a[1]\n```\n"
    assert markers(text) == [2]


def test_definition_lines_are_dropped() -> None:
    text = "Body.[^1]\n\n[^1]: Catechism 1234\n[2]: https://x.org\n"
    blocks = read([text])
    assert "".join(blocks).strip() == "Body.[^1]"


def test_an_unfinished_marker_is_held_back_while_streaming() -> None:
    reader = BlockReader()
    reader.feed("Faith and reason.[^")
    assert reader.tail() == "Faith and reason."
    reader.feed("1] Next")
    assert reader.tail() == "Faith and reason.[^1] Next"


@pytest.mark.parametrize("held", ["[", "[d", "[do", "[doc", "[doc1"])
def test_an_unfinished_doc_marker_is_held_back_while_streaming(held: str) -> None:
    reader = BlockReader()
    reader.feed("Functions run on Kubernetes " + held)
    assert reader.tail() == "Functions run on Kubernetes "
    reader.feed("[doc1]"[len(held) :] + ". Next")
    assert reader.tail() == "Functions run on Kubernetes [doc1]. Next"


def test_a_definition_line_never_shows_while_streaming() -> None:
    reader = BlockReader()
    reader.feed("Body.\n[^1")
    assert reader.tail() == "Body.\n"
    reader.feed("]: the source")
    assert "source" not in reader.tail()


def test_a_long_paragraph_is_cut_at_a_sentence() -> None:
    sentence = "This sentence is about twenty words long and it keeps going on. "
    blocks = read([sentence * 40], cut=400)
    assert len(blocks) > 4
    assert all(len(block) <= 400 for block in blocks)
    assert all(block.endswith(". ") for block in blocks[:-1])


def test_a_long_code_block_is_cut_between_lines_with_fences_closed_and_reopened() -> None:
    code = "```python\n" + "".join(f"x{i} = a[{i}]\n" for i in range(200)) + "```\n"
    blocks = read([code], cut=500)
    assert len(blocks) > 3
    for block in blocks:
        parsed = parse_blocks(block)
        assert len(parsed) == 1
        assert type(parsed[0]).__name__ == "CodeBlock"
    assert markers(code) == []


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_blocks_do_not_depend_on_how_the_text_was_split(data: st.DataObject) -> None:
    text = data.draw(st.text(alphabet=" \n\n[]^1234`*#-~>:.abc", max_size=400))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=30)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    assert read(pieces, cut=120) == read([text], cut=120)


def test_link_text_brackets_stay_in_the_link() -> None:
    (paragraph,) = parse_blocks("See [a[1]](https://x.org).")
    assert isinstance(paragraph, Paragraph)
    link = paragraph.inlines[1]
    assert isinstance(link, Link)
    assert link.url == "https://x.org"


def test_a_long_quoted_code_block_is_cut_between_lines_inside_the_quote() -> None:
    code = "> ```py\n" + "".join(f"> x{i} = a[{i}]\n" for i in range(200)) + "> ```\n"
    blocks = read([code], cut=500)
    assert len(blocks) > 3
    for block in blocks:
        assert block.startswith("> ```py\n")
        assert block.rstrip("\n").endswith("> ```")
    assert markers(code) == []


def test_a_quoted_code_block_ends_with_its_quote_or_its_own_fence() -> None:
    nested = "> ```\n> > ```\n> [^1] is code\n> ```\n[^2]: a definition\n"
    assert markers(nested) == []
    assert "definition" not in "".join(read([nested]))
    unquoted = "> ```\n> a[1]\n\nOutside the quote.[^2]\n\n[^2]: dropped\n"
    assert markers(unquoted) == [2]
    assert "dropped" not in "".join(read([unquoted]))


def test_the_rest_of_a_cut_quote_is_still_quoted() -> None:
    blocks = read(["> " + "Grace perfects nature. " * 40 + "\n> Amen.\n"], cut=300)
    assert len(blocks) > 2
    assert all(block.startswith("> ") for block in blocks)


@pytest.mark.parametrize(
    "text", ["> " + "w" * 1500, "> e" + "\u0301" * 1500, "x" * 1500, " " + "w" * 1500]
)
def test_an_unbreakable_run_is_cut_into_full_blocks(text: str) -> None:
    blocks = read([text], cut=300)
    assert "".join(blocks).replace("> ", "") == text.replace("> ", "")
    assert all(100 < len(block) <= 300 for block in blocks[:-1])


def test_a_long_paragraph_after_code_starts_a_paragraph_of_its_own() -> None:
    """The space before its first word is no place to cut: a blank piece cut there was
    dropped, and the rest, joined by that space, went on the code block's closing fence
    (Slack read the fence as a code block with syntax highlighting, and refused it)."""
    reader = BlockReader(cut=300)
    blocks = [*reader.feed("```\nx\n```\n\n " + "w" * 1500 + "\n"), *reader.close()]
    assert blocks[0].text == "```\nx\n```\n"
    assert blocks[1].joiner is None
    assert blocks[1].text.strip()
