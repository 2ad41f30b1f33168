"""Footnote numbers at the end of an answer: dense, in order of first use, a source once."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from bot.render.numbering import resolve
from bot.upstream.citations import Citation


def cite(number: int, url: str | None = "https://v.va/a", reference: str | None = "1") -> Citation:
    return Citation(
        number=number,
        cited_text=f"quote {number}",
        source_url=url,
        reference=reference,
        title=f"Doc {number}",
    )


def test_resolution_numbers_densely_in_order_of_first_use() -> None:
    citations = [cite(1, "https://a", "1"), cite(2, "https://b", "2"), cite(3, "https://c", "3")]
    result = resolve([(3, "s3"), (1, "s1"), (3, "again")], citations)
    assert result.numbers == {3: 1, 1: 2}
    assert [(c.number, c.citation.source_url) for c in result.cards] == [
        (1, "https://c"),
        (2, "https://a"),
    ]
    assert result.cards[0].supports == ("s3", "again")
    assert [c.source_url for c in result.also_consulted] == ["https://b"]


def test_the_same_source_shares_one_number_and_one_link() -> None:
    citations = [cite(1, "https://a", "34"), cite(2, "https://a", "34")]
    citations[1] = Citation(
        number=2, cited_text="quote 1", source_url="https://a", reference="34", title="Doc 1"
    )
    result = resolve([(1, "x"), (2, "y")], citations)
    assert result.numbers == {1: 1, 2: 1}
    assert result.links == {1: "https://a"}


def test_a_marker_without_citation_is_dropped_and_counted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="bot.render.numbering"):
        result = resolve([(7, "x"), (1, "y"), (7, "z")], [cite(1)])
    assert result.numbers == {1: 1}
    assert "removed 2 footnote markers with no citation" in caplog.text


@pytest.mark.parametrize("url", [None, "https://a"])
def test_several_citations_behind_one_number_each_get_a_card(url: str | None) -> None:
    citations = [cite(1, url, "1"), Citation(number=1, cited_text="other", source_url=url)]
    result = resolve([(1, "s")], citations)
    assert [card.number for card in result.cards] == [1, 1]
    assert not result.also_consulted


def test_the_sources_never_cited_are_numbered_after_the_cited_ones() -> None:
    """Perplexity's whole answer cites 6 of its 7 URLs, first [2], [3], [5], [7]: the uncited
    wfin.com was number 4 for the provider, which collided with the fourth card in ``--json``."""
    citations = [cite(n, f"https://s{n}.example/", None) for n in range(1, 8)]
    result = resolve([(2, "a"), (3, "a"), (5, "a"), (7, "a"), (6, "b"), (1, "c")], citations)
    assert [(c.number, c.citation.source_url) for c in result.cards] == [
        (1, "https://s2.example/"),
        (2, "https://s3.example/"),
        (3, "https://s5.example/"),
        (4, "https://s7.example/"),
        (5, "https://s6.example/"),
        (6, "https://s1.example/"),
    ]
    assert [(c.number, c.source_url) for c in result.also_consulted] == [(7, "https://s4.example/")]


def test_every_source_is_numbered_once() -> None:
    """A provider that lists one URL twice, and a URL both cited and listed again."""
    urls = ["https://a", "https://b", "https://a", "https://c", "https://c"]
    citations = [cite(n, url, None) for n, url in enumerate(urls, start=1)]
    result = resolve([(2, "x")], citations)
    assert [(c.number, c.citation.source_url) for c in result.cards] == [(1, "https://b")]
    assert [(c.number, c.source_url) for c in result.also_consulted] == [
        (2, "https://a"),
        (3, "https://c"),
    ]
    result = resolve([(3, "x")], citations)
    assert [(c.number, c.source_url) for c in result.also_consulted] == [
        (2, "https://b"),
        (3, "https://c"),
    ]


@pytest.mark.parametrize("uses", [[], [(9, "A sentence whose marker names nothing.")]])
def test_citations_that_no_marker_names_are_all_cited_in_the_providers_order(
    uses: list[tuple[int, str]],
) -> None:
    """Magisterium's documented example: citations, and no marker in the text. Each source
    still gets its card, the only place its quote and reference show."""
    citations = [cite(2, None, "34"), cite(1, None, "12")]
    result = resolve(uses, sorted(citations, key=lambda c: c.number))
    assert [(c.number, c.citation.reference, c.citation.cited_text) for c in result.cards] == [
        (1, "12", "quote 1"),
        (2, "34", "quote 2"),
    ]
    assert all(card.supports == () for card in result.cards)
    assert result.also_consulted == ()
    assert result.links == {1: None, 2: None}


def test_sources_of_the_whole_answer_are_cited_after_the_footnotes() -> None:
    """OpenRouter's web sources (zero-width spans at 0) support the answer as a whole."""
    whole = replace(cite(1, "https://w", "1"), scope="answer")
    footnoted = cite(2, "https://f", "2")
    result = resolve([(2, "It is so.")], [whole, footnoted])
    assert [(c.number, c.citation.source_url, c.supports) for c in result.cards] == [
        (1, "https://f", ("It is so.",)),
        (2, "https://w", ()),
    ]
    assert result.links == {1: "https://f", 2: "https://w"}
    assert result.also_consulted == ()


@pytest.mark.parametrize("uses", [[], [(9, "A marker with no citation.")]])
def test_sources_only_consulted_are_never_cards_unless_a_footnote_names_them(
    uses: list[tuple[int, str]],
) -> None:
    """Groq's search results: consulted, so listed as such even when no marker names any."""
    consulted = [replace(cite(n, f"https://{n}", None), scope="consulted") for n in (1, 2)]
    assert resolve(uses, consulted).cards == ()
    assert [c.number for c in resolve(uses, consulted).also_consulted] == [1, 2]
    named = resolve([(2, "Linked.")], consulted)
    assert [(c.number, c.citation.source_url) for c in named.cards] == [(1, "https://2")]
    assert [(c.number, c.source_url) for c in named.also_consulted] == [(2, "https://1")]
