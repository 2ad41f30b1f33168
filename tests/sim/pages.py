"""Source pages on loopback: a real HTTP site whose routes each test sets, for quote checks,
and what the tests read back: an answer citing the site's pages, how often each card changed.

Quote checking refuses loopback addresses, so a test names the site in
``QUOTE_CHECK_ALLOW_HOSTS`` (:attr:`Site.allowance`) or hands its host to the checker.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from aiohttp import web

from tests.patience import PATIENCE
from tests.sim.upstream import Stream, answer, magisterium_citation

__all__ = [
    "CHANGED",
    "EVERY_KIND",
    "FOUND",
    "NOT_FOUND",
    "ON_PAGE",
    "PAYWALLED",
    "Handler",
    "Site",
    "article",
    "changes",
    "cited",
    "quote_checks_finished",
    "running_site",
    "sources",
]

FOUND = "✓ Quote found on the page"
NOT_FOUND = "⚠ Quote not found on the page: it may have changed or be behind a paywall"
"""What a card says under a quote, in English."""
ON_PAGE = "Grace is favor, the free and undeserved help that God gives us to respond to his call."
CHANGED = "Mercy is the loving kindness, compassion, or forbearance shown to one who offends."
PAYWALLED = "Prayer is the raising of one's mind and heart to God."
"""The quotes of :func:`sources`' pages."""
EVERY_KIND = (("/found", ON_PAGE), ("/changed", CHANGED), ("/paywalled", PAYWALLED))
"""Each page of :func:`sources` with the quote cited from it, for :func:`cited`."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Site:
    """An aiohttp server on 127.0.0.1; ``requests`` records (path, User-Agent, arrival)."""

    routes: dict[str, Handler] = field(default_factory=dict)
    requests: list[tuple[str, str, float]] = field(default_factory=list)
    port: int = 0
    in_flight: int = 0
    most_in_flight: int = 0
    holding: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once a request waits for a held page."""

    @property
    def allowance(self) -> str:
        """This site as ``QUOTE_CHECK_ALLOW_HOSTS`` names it."""
        return f"127.0.0.1:{self.port}"

    def url(self, path: str, *, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def html(self, path: str, body: str, *, status: int = 200) -> None:
        async def page(request: web.Request) -> web.Response:
            return web.Response(text=body, content_type="text/html", status=status)

        self.routes[path] = page

    def held(self, path: str, body: str, release: asyncio.Event) -> None:
        """A page that answers only once ``release`` is set (a slow source)."""

        async def page(request: web.Request) -> web.Response:
            self.holding.set()
            await release.wait()
            return web.Response(text=body, content_type="text/html")

        self.routes[path] = page

    async def hanging(self) -> None:
        """Until a request waits for a held page."""
        await asyncio.wait_for(self.holding.wait(), PATIENCE)

    def paths(self) -> list[str]:
        return [path for path, _, _ in self.requests]

    async def handle(self, request: web.Request) -> web.StreamResponse:
        self.requests.append(
            (request.path, request.headers.get("User-Agent", ""), time.monotonic())
        )
        handler = self.routes.get(request.path)
        if handler is None:
            raise web.HTTPNotFound()
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            return await handler(request)
        finally:
            self.in_flight -= 1


def article(*paragraphs: str) -> str:
    """A page in the shape of a real one: navigation, an article long enough to be taken as
    the whole source (quote checking wants 30 words before it says "not found"), a footer."""
    body = "".join(f"<p>{paragraph}</p>" for paragraph in paragraphs)
    filler = (
        "<p>The Catechism sets out what the Church believes, how she celebrates, how she "
        "lives and how she prays, in four parts that each open with a short summary.</p>"
    )
    return (
        "<html><head><title>Catechism</title></head><body><nav>Home | Index</nav>"
        f"<article><h1>Part three</h1>{body}{filler}</article>"
        "<footer>© The publisher</footer></body></html>"
    )


def cited(site: Site, *pages: tuple[str, str]) -> Stream:
    """An upstream answer citing each (path, quote) of ``site`` once, in order, each page
    titled by its path."""
    return answer(
        ["A gift.", *(f" Said here[^{n}]." for n in range(1, len(pages) + 1))],
        [
            magisterium_citation(n, quote, title=f"Page {path}", url=site.url(path))
            for n, (path, quote) in enumerate(pages)
        ],
    )


def changes(versions: Sequence[Sequence[str]]) -> list[int]:
    """How many times each card changed, given what each card showed in each version of a
    message (when posted, then at each edit)."""
    return [
        sum(1 for before, after in itertools.pairwise(card) if before != after)
        for card in zip(*versions, strict=True)
    ]


async def quote_checks_finished() -> None:
    """Until the quote checks running in this process have ended (those of the answers
    finished so far: each starts before its answer ends)."""
    running = [t for t in asyncio.all_tasks() if t.get_name() == "citebot-quote-checks"]
    if running:
        await asyncio.wait(running, timeout=15)


@asynccontextmanager
async def running_site() -> AsyncIterator[Site]:
    site = Site()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", site.handle)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
    await runner.setup()
    try:
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        site.port = runner.addresses[0][1]
        yield site
    finally:
        await runner.cleanup()


@asynccontextmanager
async def sources() -> AsyncIterator[Site]:
    """A site with a page of each kind a check meets: ``/found`` holds :data:`ON_PAGE`;
    ``/changed``, read whole, no longer holds :data:`CHANGED`; ``/paywalled`` answers 403
    where :data:`PAYWALLED` was."""
    async with running_site() as site:
        site.html("/found", article(ON_PAGE))
        site.html("/changed", article("Mercy is shown to those who ask for it."))
        site.html("/paywalled", "<html><body>Subscribers only</body></html>", status=403)
        yield site
