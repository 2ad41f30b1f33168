"""The demo serves its documents as pages, so quote checking works offline in the quick start."""

from __future__ import annotations

import httpx

from bot.demo import Corpus, quote_check_host, running_demo
from bot.verify import Verdict
from bot.verify.checker import QuoteChecker
from bot.verify.fetch import FetchLimits
from config.hosts import HostPort
from tests.bot.demo.conftest import stream

FAST = FetchLimits(host_spacing=0.0)


async def test_a_document_is_a_web_page_and_an_unknown_one_is_not_found(
    http: httpx.AsyncClient, demo_url: str
) -> None:
    origin = demo_url.removesuffix("/v1")
    page = await http.get(f"{origin}/corpus/04-deploying")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert "<title>Deploying citebot as a worker</title>" in page.text
    assert "<code>citebot run</code>" in page.text
    assert "question:" not in page.text  # the metadata comment is not part of the page
    missing = await http.get(f"{origin}/corpus/nothing-here")
    assert missing.status_code == 404


def test_the_demos_address_is_what_quote_checking_must_allow() -> None:
    assert quote_check_host("http://127.0.0.1:8123/v1") == HostPort("127.0.0.1", 8123)
    assert quote_check_host("http://[::1]:9000/v1") == HostPort("::1", 9000)


async def test_every_quote_of_an_answer_is_found_on_the_demos_own_pages(
    http: httpx.AsyncClient, demo_url: str
) -> None:
    answer = await stream(http, demo_url, "How do I deploy citebot?")
    pairs = [(c["source_url"], c["cited_text"]) for c in answer.final["citations"]]
    async with QuoteChecker(allow_hosts=[quote_check_host(demo_url)], limits=FAST) as checker:
        assert await checker.check_all(pairs) == [Verdict.FOUND] * len(pairs)
    async with QuoteChecker(limits=FAST) as checker:  # without the allowance: loopback refused
        assert await checker.check_all(pairs) == [Verdict.UNREADABLE] * len(pairs)


async def test_every_passage_of_the_bundled_corpus_is_found_on_its_page() -> None:
    """Whatever the demo quotes (lists, code spans, links, tables left out) reads back."""
    corpus = Corpus.load()
    try:
        async with running_demo(tokens_per_second=0) as url:
            origin = url.removesuffix("/v1")
            pairs = [(f"{origin}/corpus/{p.document.slug}", p.text) for p in corpus.passages]
            async with QuoteChecker(allow_hosts=[quote_check_host(url)], limits=FAST) as checker:
                verdicts = await checker.check_all(pairs)
    finally:
        corpus.close()
    missed = [text[:60] for (_, text), v in zip(pairs, verdicts, strict=True) if v != "found"]
    assert missed == []
    assert len(pairs) > 50
