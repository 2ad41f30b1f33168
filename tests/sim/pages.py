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

__all__ = ["Handler", "Site", "running_site"]

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Site:
    """An aiohttp server on 127.0.0.1; ``requests`` records (path, User-Agent, arrival)."""

    routes: dict[str, Handler] = field(default_factory=dict)
    requests: list[tuple[str, str, float]] = field(default_factory=list)
    port: int = 0
    in_flight: int = 0
    most_in_flight: int = 0

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
            await release.wait()
            return web.Response(text=body, content_type="text/html")

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
