"""Pages built to hurt a worker, checked as the worker checks them: each gets its verdict or
"unreadable" without holding up anything else, another answer streams while one is read, and a
reading that overran leaves no process or thread behind. Loopback servers, real reader
processes (``tests/sim/pathological.py`` makes the pages)."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from aiohttp import web

from bot.answer import Question, answer_question
from bot.pacing import Pacer
from bot.preview import CollectingSink
from bot.render.ports import Payload
from bot.upstream.client import AnswerClient
from bot.verify import Verdict
from bot.verify.checker import MAX_QUOTE_CHARS, QuoteChecker
from bot.verify.pool import ReadLimits
from bot.verify.text import words
from tests.bot.conftest import ARTICLE, FAST, Site
from tests.bot.presenter import PlainPresenter
from tests.sim.pathological import MB, blocks, links, made_up_words, nested
from tests.sim.upstream import Pause, UpstreamSim, answer

QUOTE = "humility is the foundation of prayer"
ABSENT = "a sentence that this page has never said anywhere"
LONG_PAGE = made_up_words(2_000_000, seed=1)
LONG_QUOTES = tuple(made_up_words(MAX_QUOTE_CHARS, seed=2 + n) for n in range(5))
"""Matching each of these quotes on that page takes seconds of CPU (rapidfuzz, which holds the
GIL): together, tens of seconds in one reader's job."""


def serve(site: Site, path: str, body: bytes, content_type: str = "text/html") -> None:
    async def page(request: web.Request) -> web.Response:
        return web.Response(body=body, content_type=content_type, charset="utf-8")

    site.routes[path] = page


def readers() -> set[int]:
    """The reader processes this test's process runs (from /proc: a child whose command line
    names the reader module)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:  # it ended while we looked
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and b"bot.verify.reader" in command:
            found.add(int(entry.name))
    return found


def environ_of(pid: int) -> bytes:
    return Path(f"/proc/{pid}/environ").read_bytes()


@pytest.mark.parametrize(
    "page",
    [
        lambda first: blocks(8 * MB, first=first),
        lambda first: links(8 * MB, first=first),
        lambda first: nested(8 * MB).replace(b"<body>", f"<body><p>{first}</p>".encode()),
    ],
    ids=["8 MB of div-p blocks", "8 MB of links", "8 MB nested"],
)
async def test_megabytes_of_markup_are_read_as_far_as_the_cap(
    site: Site, checker: QuoteChecker, page: Callable[[str], bytes]
) -> None:
    """A quote in what was read is found; one that may lie past the cap is not judged."""
    serve(site, "/huge", page(QUOTE))
    url = site.url("/huge")
    assert await checker.check_all([(url, QUOTE), (url, ABSENT)]) == [
        Verdict.FOUND,
        Verdict.UNREADABLE,
    ]


class _Shown(CollectingSink):
    """Notes, at each write of the answer, whether ``running`` was still running."""

    def __init__(self, running: asyncio.Future[list[Verdict]]) -> None:
        super().__init__()
        self.running = running
        self.while_running: list[bool] = []

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        await super().show(messages, final=final)
        self.while_running.append(not self.running.done())


async def test_another_answer_streams_whole_while_a_long_page_is_read(
    site: Site, upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    """Five 2,000-character quotes matched against 2 M characters take a reader far more than
    its 3 s of CPU; an answer of twenty pieces 0.1 s apart, asked meanwhile, is shown whole
    before that reading ends (it once froze every answer of the worker until the check was
    done)."""
    requested = asyncio.Event()

    async def long_page(request: web.Request) -> web.Response:
        requested.set()
        return web.Response(text=LONG_PAGE, content_type="text/plain")

    site.routes["/long"] = long_page
    upstream.queue(answer([f" piece {n}." for n in range(20)], between=[Pause(0.1)]))
    allow = [("127.0.0.1", site.port)]
    reading = ReadLimits(cpu_seconds=3)
    async with QuoteChecker(allow_hosts=allow, limits=FAST, reading=reading) as checker:
        long = [(site.url("/long"), quote) for quote in LONG_QUOTES]
        checks = asyncio.ensure_future(checker.check_all(long))
        await requested.wait()
        sink = _Shown(checks)
        question = Question(text="And?", platform="discord", user_id="u", channel_id="c")
        outcome = await answer_question(
            question,
            client=answer_client,
            presenter=PlainPresenter(),
            sink=sink,
            pacer=Pacer(min_interval=0.0),
        )
        assert outcome.status == "answered"
        assert "piece 19." in outcome.text
        assert len(sink.while_running) >= 10  # it streamed
        assert all(sink.while_running)
        assert await checks == [Verdict.UNREADABLE] * len(LONG_QUOTES)


@pytest.mark.parametrize(
    "reading",
    [ReadLimits(cpu_seconds=1), ReadLimits(seconds=3.0)],
    ids=["past its CPU", "past its deadline"],
)
async def test_a_reading_that_overran_is_unreadable_and_leaves_nothing_running(
    site: Site, reading: ReadLimits
) -> None:
    """The long page's quotes need tens of seconds of CPU (so of wall time too): its reader
    stops itself at its CPU budget, or is killed at the deadline, which leaves a loaded
    machine's new reader seconds for the next page."""
    serve(site, "/long", LONG_PAGE.encode(), "text/plain")
    site.html("/prayer", ARTICLE)
    threads = set(threading.enumerate())
    allow = [("127.0.0.1", site.port)]
    async with QuoteChecker(allow_hosts=allow, limits=FAST, reading=reading) as checker:
        long = [(site.url("/long"), quote) for quote in LONG_QUOTES]
        assert await checker.check_all(long) == [Verdict.UNREADABLE] * len(LONG_QUOTES)
        assert readers() == set()  # the reader that overran is gone
        # and nothing keeps reading in a thread (asyncio's own "waitpid" threads each watch a
        # reader, and end with it)
        new = set(threading.enumerate()) - threads
        assert not [thread for thread in new if not thread.name.startswith("waitpid-")]
        assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.FOUND  # a new one


async def test_a_page_that_needs_more_memory_than_a_reader_has_is_unreadable(
    site: Site,
) -> None:
    """A reader's address space is capped: one takes about 70 MiB once started, and reading
    2 MiB of ``<div><p>`` blocks about 140."""
    serve(site, "/blocks", blocks(8 * MB, first=QUOTE))
    site.html("/prayer", ARTICLE)
    allow = [("127.0.0.1", site.port)]
    reading = ReadLimits(memory_bytes=108 * MB)
    async with QuoteChecker(allow_hosts=allow, limits=FAST, reading=reading) as checker:
        assert await checker.check(site.url("/blocks"), QUOTE) is Verdict.UNREADABLE
        assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.FOUND


async def test_readers_start_with_the_first_page_and_end_with_the_checker(site: Site) -> None:
    site.html("/prayer", ARTICLE)
    async with QuoteChecker(allow_hosts=[("127.0.0.1", site.port)], limits=FAST) as checker:
        assert readers() == set()
        assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.FOUND
        assert len(readers()) == 1
    assert readers() == set()


async def test_a_reader_sees_none_of_the_workers_secrets(
    site: Site, checker: QuoteChecker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page could subvert the reader that parses it: it holds nothing worth taking."""
    monkeypatch.setenv("UPSTREAM_API_KEY", "sk-secret-of-the-worker")
    site.html("/prayer", ARTICLE)
    assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.FOUND
    (reader,) = readers()
    environment = environ_of(reader)
    assert b"sk-secret-of-the-worker" not in environment
    assert b"UPSTREAM" not in environment


async def test_a_reader_killed_between_pages_is_replaced(site: Site, checker: QuoteChecker) -> None:
    site.html("/prayer", ARTICLE)
    assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.FOUND
    (reader,) = readers()
    os.kill(reader, signal.SIGKILL)
    assert await checker.check(site.url("/prayer"), "the foundation of prayer") is Verdict.FOUND
    assert reader not in readers()


async def test_a_quote_longer_than_a_passage_is_not_checked(
    site: Site, checker: QuoteChecker
) -> None:
    site.html("/prayer", ARTICLE)
    long_quote = (QUOTE + " ") * (MAX_QUOTE_CHARS // len(QUOTE) + 1)
    assert await checker.check(site.url("/prayer"), long_quote) is Verdict.UNREADABLE
    assert site.requests == []


@pytest.mark.parametrize(
    ("quote", "said"),
    [
        ("[" * 20_000, ""),
        ("[a](" * 20_000, " ".join(["a"] * 20_000)),
        ('[a](x "' * 20_000, " ".join(["a x"] * 20_000)),
        ("[Foo](https://en.wikipedia.org/wiki/Foo_(bar)) said", "foo said"),
    ],
    ids=["brackets", "unclosed links", "unclosed titles", "a link with parentheses"],
)
def test_a_quote_full_of_unclosed_links_is_read_as_its_words(quote: str, said: str) -> None:
    """The upstream's Markdown in a quote is dropped to its words, in one pass however it is
    left open (a run of "[a](" took 76 s)."""
    assert words(quote) == said
