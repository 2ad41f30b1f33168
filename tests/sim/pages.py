"""Source pages on loopback: a real HTTP site whose routes each test sets, for quote checks.

Quote checking refuses loopback addresses, so a test names the site in
``QUOTE_CHECK_ALLOW_HOSTS`` (:attr:`Site.allowance`) or hands its host to the checker.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from aiohttp import web

__all__ = ["Handler", "Site", "article", "quote_checks_finished", "running_site"]

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
        await asyncio.wait_for(self.holding.wait(), 15)

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
