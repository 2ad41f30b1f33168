"""A real HTTP site on loopback whose routes each test sets, and checkers that may read it."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

import pytest
from aiohttp import web

from bot.verify.checker import QuoteChecker
from bot.verify.fetch import FetchLimits

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

FAST = FetchLimits(host_spacing=0.0, seconds=5.0)
"""The service's limits, but no spacing between requests (politeness has its own test)."""

ARTICLE = (
    "<html><head><title>On prayer</title></head><body>"
    "<nav><a href='/'>Home</a> | <a href='/about'>About</a></nav>"
    "<article><h1>What is prayer?</h1>"
    "<p>For me, prayer is a surge of the heart; it is a simple look turned toward heaven, "
    "it is a cry of recognition and of love, embracing both trial and joy.</p>"
    "<p>&ldquo;Prayer is the raising of one&rsquo;s mind and heart to God or the requesting "
    "of good things from God.&rdquo; But when we pray, do we speak from the height of our "
    "pride and will, or &ldquo;out of the depths&rdquo; of a humble and contrite heart?</p>"
    "<p>He who humbles himself will be exalted; humility is the foundation of prayer. Only "
    "when we humbly acknowledge that &ldquo;we do not know how to pray as we ought,&rdquo; are "
    "we ready to receive freely the gift of prayer. &ldquo;Man is a beggar before God.&rdquo;</p>"
    "</article><footer>&copy; The publisher</footer></body></html>"
)
"""A page in the shape of a real one (paragraphs from the Catechism, 2558-2559)."""


@dataclass
class Site:
    """An aiohttp server on 127.0.0.1; ``requests`` records (path, User-Agent, arrival)."""

    routes: dict[str, Handler] = field(default_factory=dict)
    requests: list[tuple[str, str, float]] = field(default_factory=list)
    port: int = 0
    in_flight: int = 0
    most_in_flight: int = 0

    def url(self, path: str, *, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def html(self, path: str, body: str, *, status: int = 200) -> None:
        async def page(request: web.Request) -> web.Response:
            return web.Response(text=body, content_type="text/html", status=status)

        self.routes[path] = page

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


async def _serve(site: Site) -> web.AppRunner:
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", site.handle)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    site.port = runner.addresses[0][1]
    return runner


@pytest.fixture
async def open_site() -> AsyncIterator[Callable[[], Awaitable[Site]]]:
    """Starts as many sites (one port each) as a test needs."""
    runners: list[web.AppRunner] = []

    async def start() -> Site:
        site = Site()
        runners.append(await _serve(site))
        return site

    yield start
    for runner in runners:
        await runner.cleanup()


@pytest.fixture
async def site(open_site: Callable[[], Awaitable[Site]]) -> Site:
    return await open_site()


@pytest.fixture
async def checker(site: Site) -> AsyncIterator[QuoteChecker]:
    """A checker allowed to read the test site (loopback is otherwise refused)."""
    async with QuoteChecker(allow_hosts=[("127.0.0.1", site.port)], limits=FAST) as checker:
        yield checker
