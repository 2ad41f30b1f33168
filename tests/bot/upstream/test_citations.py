"""The normalisers on each provider's shape, including nulls, entities and bad URLs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bot.upstream.citations import Citation, safe_url
from bot.upstream.sources import Sources


def normalise_citations(*payloads: Mapping[str, Any], text: str = "") -> tuple[Citation, ...]:
    """The citations of ``payloads`` read as one answer's chunks, in order."""
    sources = Sources()
    for payload in payloads:
        sources.take(payload)
    return sources.citations(text)


def test_magisterium_citations_are_decoded_and_keep_the_raw_object() -> None:
    raw = {
        "cited_text": "L&apos;&oelig;uvre de l&#39;Esprit &amp; la gr&acirc;ce",
        "cited_text_heading": "Chapitre&nbsp;II",
        "document_title": "Lumen Gentium",
        "document_index": 1,
        "document_author": None,
        "document_year": 1964,
        "document_reference": "12",
        "source_url": "https://www.vatican.va/lg.html",
        "extra_field": {"kept": True},
    }
    (citation,) = normalise_citations({"citations": [raw]})
    assert citation.number == 2
    assert citation.cited_text == "L'œuvre de l'Esprit & la grâce"
    assert citation.heading == "Chapitre\xa0II"
    assert citation.author is None
    assert citation.year == "1964"
    assert citation.source_url == "https://www.vatican.va/lg.html"
    assert citation.raw == raw  # the provider's object, untouched
    assert citation.provider == "magisterium"


def test_magisterium_with_every_optional_field_missing_or_null() -> None:
    citations = normalise_citations(
        {
            "citations": [
                {"cited_text": "Only the text", "document_index": 0},
                {
                    "cited_text": None,
                    "document_index": 2,
                    "document_title": None,
                    "source_url": None,
                },
            ]
        }
    )
    assert [(c.number, c.cited_text, c.title, c.source_url) for c in citations] == [
        (1, "Only the text", None, None),
        (3, "", None, None),
    ]


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "discord://invite",
        "ftp://files.example/x",
        "//example.org/x",
        "https://",
        "not a url",
        "https://exa mple.org",
        42,
        None,
        "data:text/html,hi",
    ],
)
def test_only_http_and_https_urls_survive(url: object) -> None:
    (citation,) = normalise_citations(
        {"citations": [{"cited_text": "x", "document_index": 0, "source_url": url}]}
    )
    assert citation.source_url is None
    assert safe_url(url) is None


def test_citations_sharing_a_document_index_keep_their_order() -> None:
    citations = normalise_citations(
        {
            "citations": [
                {"cited_text": "b", "document_index": 1},
                {"cited_text": "a1", "document_index": 0},
                {"cited_text": "a2", "document_index": 0},
            ]
        }
    )
    assert [(c.number, c.cited_text) for c in citations] == [(1, "a1"), (1, "a2"), (2, "b")]


def test_a_citation_without_a_usable_index_takes_its_position() -> None:
    citations = normalise_citations(
        {
            "citations": [
                {"cited_text": "a", "document_index": "zero"},
                "not an object",
                {"cited_text": "c", "document_index": -1},
            ]
        }
    )
    assert [(c.number, c.cited_text) for c in citations] == [(1, "a"), (3, "c")]


def test_perplexity_urls_with_search_results() -> None:
    citations = normalise_citations(
        {
            "citations": ["https://a.example/1", "javascript:bad()"],
            "search_results": [
                {
                    "title": "A &amp; B",
                    "url": "https://a.example/1",
                    "date": "2024-01-02",
                    "snippet": "Snippet of A",
                },
            ],
        }
    )
    first, second = citations
    assert first == Citation(
        number=1,
        cited_text="Snippet of A",
        title="A & B",
        year="2024-01-02",
        source_url="https://a.example/1",
        provider="perplexity",
    )
    assert second.number == 2
    assert second.source_url is None
    assert second.raw == {"url": "javascript:bad()"}


def test_openai_url_citation_annotations_keep_their_span() -> None:
    chunk = {
        "choices": [
            {
                "index": 0,
                "delta": {
                    "annotations": [
                        {
                            "type": "url_citation",
                            "url_citation": {
                                "start_index": 0,
                                "end_index": 11,
                                "url": "https://docs.example/a",
                                "title": "A",
                            },
                        },
                        {"type": "file_citation", "file_citation": {}},
                    ]
                },
                "finish_reason": "stop",
            }
        ]
    }
    (citation,) = normalise_citations(chunk)
    assert citation.provider == "openai"
    assert citation.span == (0, 11)
    assert citation.source_url == "https://docs.example/a"
    assert citation.cited_text == ""  # the answer's own words are never shown as a quote


def test_no_citations_at_all() -> None:
    assert normalise_citations({"choices": []}) == ()
    assert normalise_citations({"citations": None}) == ()
    assert normalise_citations({"citations": []}) == ()


def test_annotations_of_every_chunk_count_once_the_final_chunks_too() -> None:
    def annotated(url: str) -> dict[str, Any]:
        body = {"start_index": 0, "end_index": 4, "url": url}
        annotation = {"type": "url_citation", "url_citation": body}
        return {"choices": [{"index": 0, "delta": {"annotations": [annotation]}}]}

    first, final = annotated("https://a.example/1"), annotated("https://a.example/2")
    citations = normalise_citations(first, final)
    assert [(c.number, c.source_url) for c in citations] == [
        (1, "https://a.example/1"),
        (2, "https://a.example/2"),
    ]
