"""What a card would say about its quote, checked against real pages on a loopback server."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Awaitable, Callable

import pytest
from aiohttp import web

from bot.state import open_state
from bot.verify import Verdict
from bot.verify.checker import QuoteChecker
from tests.bot.conftest import ARTICLE, FAST, Site
from tests.bot.verify.pdf import pdf_of

DEFINITION = (
    "For me, prayer is a surge of the heart; it is a simple look turned toward heaven, it is a "
    "cry of recognition and of love, embracing both trial and joy."
)


async def test_a_quote_copied_from_the_page_is_found(site: Site, checker: QuoteChecker) -> None:
    site.html("/prayer", ARTICLE)
    assert await checker.check(site.url("/prayer"), DEFINITION) is Verdict.FOUND
    # robots.txt is asked first, and every request names citebot and where to read about it
    assert site.paths() == ["/robots.txt", "/prayer"]
    assert all(
        agent.startswith("citebot/") and "https://github.com/citebot/citebot" in agent
        for _, agent, _ in site.requests
    )


@pytest.mark.parametrize(
    "quote",
    [
        "“Prayer is the raising of one’s mind and heart to God or the requesting of good things"
        " from God.”",  # the page's own curly quotes, written as entities in its HTML
        "\"Prayer is the raising of one's mind and heart to God or the requesting of good things"
        ' from God."',  # straight quotes
        "Prayer is the raising of one&#8217;s mind and heart to God",  # an entity in the quote
        "He who humbles himself will be exalted;\n   humility is the foundation of prayer.",
        "He who humbles himself will be exalted — humility is the foundation of prayer.",
        "Only when we humbly acknowledge that “we do not know how to pray as we ought,” are we"
        " ready to receive freely the gift of prayer.",
        "ready to receive freely the gift of prayer. \u201cMan is a beggar before God.\u201d",
        "it is a simple look turned toward heaven, it is a cry of recog\u00adnition and of love",
        "embracing both trial and\u00a0joy",  # a no-break space
        "He who humbles himself will be exalted; humility is the foundation of prayer",
        "For me, prayer is a surge of the heart … embracing both trial and joy.",  # elided
        "Only when we humbly acknowledge that **we do not know how to pray as we ought**",
    ],
)
async def test_a_quote_written_with_other_typography_is_found(
    site: Site, checker: QuoteChecker, quote: str
) -> None:
    site.html("/prayer", ARTICLE)
    assert await checker.check(site.url("/prayer"), quote) is Verdict.FOUND


@pytest.mark.parametrize(
    "quote",
    [
        "Prayer means lifting your mind and your heart up to God, or asking him for good things.",
        "For me, prayer is a surge of the heart; it is a simple look turned toward heaven, it is a "
        "cry of recognition and of love, embracing both sorrow and joy.",  # one word changed
        "we do know how to pray as we ought",  # a "not" dropped
    ],
)
async def test_a_paraphrase_or_an_altered_quote_is_not_found(
    site: Site, checker: QuoteChecker, quote: str
) -> None:
    site.html("/prayer", ARTICLE)
    assert await checker.check(site.url("/prayer"), quote) is Verdict.NOT_FOUND


async def test_a_quote_the_page_no_longer_says_is_not_found(
    site: Site, checker: QuoteChecker
) -> None:
    site.html("/prayer", ARTICLE.replace("embracing both trial and joy", "in every season of life"))
    assert await checker.check(site.url("/prayer"), DEFINITION) is Verdict.NOT_FOUND


async def test_a_paywall_teaser_without_the_quote_is_not_found(
    site: Site, checker: QuoteChecker
) -> None:
    """A paywall that answers 200 shows a teaser: the quote is not on what a reader sees."""
    teaser = ARTICLE.split("<p>&ldquo;")[0] + "<p>Subscribe to read the rest.</p></article>"
    site.html("/prayer", teaser)
    assert await checker.check(site.url("/prayer"), "humility is the foundation of prayer") is (
        Verdict.NOT_FOUND
    )
    assert await checker.check(site.url("/prayer"), DEFINITION) is Verdict.FOUND


@pytest.mark.parametrize("status", [401, 403, 404, 451, 500])
async def test_an_error_page_is_unreadable_not_evidence(
    site: Site, checker: QuoteChecker, status: int
) -> None:
    """A 403 or a paywall's 401 is not the source: the card says nothing rather than "not
    found"."""
    site.html("/prayer", "<html><body><p>Forbidden</p></body></html>", status=status)
    assert await checker.check(site.url("/prayer"), DEFINITION) is Verdict.UNREADABLE


async def test_a_page_with_almost_no_text_is_unreadable(site: Site, checker: QuoteChecker) -> None:
    """A page built by script (its text arrives later) lacking the quote proves nothing."""
    site.html("/app", "<html><body><div id='root'>Loading…</div><script>x()</script></body></html>")
    assert await checker.check(site.url("/app"), DEFINITION) is Verdict.UNREADABLE


async def test_a_pdf_is_read(site: Site, checker: QuoteChecker) -> None:
    lines = [
        "2558 Great is the mystery of the faith! The Church professes this mystery in the",
        "Apostles' Creed (Part One) and celebrates it in the sacramental liturgy (Part",
        "Two), so that the life of the faithful may be conformed to Christ in the Holy",
        "Spirit to the glory of God the Father (Part Three). This mystery, then, re-",
        "quires that the faithful believe in it, that they celebrate it, and that they",
        "live from it in a vital and personal relationship with the living and true God.",
    ]

    async def pdf(request: web.Request) -> web.Response:
        return web.Response(body=pdf_of(lines), content_type="application/pdf")

    site.routes["/ccc.pdf"] = pdf
    url = site.url("/ccc.pdf")
    assert await checker.check(url, "This mystery, then, requires that the faithful believe in it")
    verdicts = await checker.check_all(
        [
            (url, "celebrates it in the sacramental liturgy (Part Two)"),
            (url, "This mystery, then, requires that the faithful believe in it"),  # hyphenated
            (url, "The Church celebrates this mystery in the Apostles' Creed"),
        ]
    )
    assert verdicts == [Verdict.FOUND, Verdict.FOUND, Verdict.NOT_FOUND]


async def test_plain_text_is_read_as_it_is(site: Site, checker: QuoteChecker) -> None:
    async def text(request: web.Request) -> web.Response:
        return web.Response(text=" ".join([DEFINITION] * 3), content_type="text/plain")

    site.routes["/prayer.txt"] = text
    assert await checker.check(site.url("/prayer.txt"), DEFINITION) is Verdict.FOUND


async def test_an_image_is_unreadable(site: Site, checker: QuoteChecker) -> None:
    async def image(request: web.Request) -> web.Response:
        return web.Response(body=b"\x89PNG\r\n\x1a\n" + bytes(64), content_type="image/png")

    site.routes["/scan.png"] = image
    assert await checker.check(site.url("/scan.png"), DEFINITION) is Verdict.UNREADABLE


@pytest.mark.parametrize(
    ("url", "quote"),
    [(None, DEFINITION), ("ftp://example.org/x", DEFINITION), ("PAGE", ""), ("PAGE", " … ")],
)
async def test_nothing_to_check_is_unreadable_and_fetches_nothing(
    site: Site, checker: QuoteChecker, url: str | None, quote: str
) -> None:
    site.html("/prayer", ARTICLE)
    page = site.url("/prayer") if url == "PAGE" else url
    assert await checker.check(page, quote) is Verdict.UNREADABLE
    assert site.requests == []


async def test_checks_of_one_page_share_one_fetch(site: Site, checker: QuoteChecker) -> None:
    site.html("/prayer", ARTICLE)
    url = site.url("/prayer")
    verdicts = await checker.check_all(
        [(url, DEFINITION), (url, "humility is the foundation of prayer"), (url, "a paraphrase")]
    )
    assert verdicts == [Verdict.FOUND, Verdict.FOUND, Verdict.NOT_FOUND]
    assert site.paths().count("/prayer") == 1


async def test_a_verdict_is_shared_through_the_state_until_it_lapses(site: Site) -> None:
    """Two workers on one state: the second reuses the first's verdict without fetching."""
    site.html("/prayer", ARTICLE)
    url = site.url("/prayer")
    allow = [("127.0.0.1", site.port)]
    async with open_state("memory://") as state:
        async with QuoteChecker(cache=state, allow_hosts=allow, limits=FAST) as one:
            assert await one.check(url, DEFINITION) is Verdict.FOUND
        site.html("/prayer", "<html><body><p>Gone.</p></body></html>", status=404)
        async with QuoteChecker(cache=state, allow_hosts=allow, limits=FAST) as two:
            # the same words with other typography are the same quote
            assert await two.check(url, DEFINITION.replace(";", " ;")) is Verdict.FOUND
            assert site.paths().count("/prayer") == 1
            assert await two.check(url, "humility is the foundation of prayer") is (
                Verdict.UNREADABLE  # another quote: fetched, and the page is gone
            )


async def test_checks_report_each_verdict_as_it_lands_and_a_deadline_ends_the_wait(
    site: Site, open_site: Callable[[], Awaitable[Site]]
) -> None:
    """The flow edits each card as its verdict lands; the terminal waits a few seconds at most
    (the fast page's verdict is kept in the state by then: the deadline races no reading)."""
    slow_site = await open_site()  # another host: one host's requests wait for each other
    site.html("/prayer", ARTICLE)
    release = asyncio.Event()

    async def slow(request: web.Request) -> web.Response:
        await release.wait()
        return web.Response(text=ARTICLE, content_type="text/html")

    slow_site.routes["/slow"] = slow
    pairs = [(slow_site.url("/slow"), DEFINITION), (site.url("/prayer"), DEFINITION)]
    allow = [("127.0.0.1", site.port), ("127.0.0.1", slow_site.port)]
    # the slow page ends only by leaving or by the deadline, never by its own fetch's time,
    # however long a loaded machine takes to start the first reader for the fast one
    patient = dataclasses.replace(FAST, seconds=60.0)
    async with (
        open_state("memory://") as state,
        QuoteChecker(cache=state, allow_hosts=allow, limits=patient) as checker,
    ):
        async with contextlib.aclosing(checker.checks(pairs)) as verdicts:
            async for index, verdict in verdicts:
                assert (index, verdict) == (1, Verdict.FOUND)  # the fast page first
                break  # leaving cancels the slow check
        assert await checker.check_all(pairs, deadline=0.3) == [
            Verdict.UNREADABLE,
            Verdict.FOUND,
        ]
    release.set()


async def test_a_broken_state_store_costs_a_fetch_not_the_verdict(site: Site) -> None:
    site.html("/prayer", ARTICLE)
    state = open_state("redis://127.0.0.1:1/0")  # nothing listens there
    try:
        async with QuoteChecker(
            cache=state, allow_hosts=[("127.0.0.1", site.port)], limits=FAST
        ) as checker:
            assert await checker.check(site.url("/prayer"), DEFINITION) is Verdict.FOUND
    finally:
        await state.aclose()
