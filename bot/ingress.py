"""The worker's one HTTP way in: every route anyone serves, grouped by port.

Webhook platforms (Slack's HTTP mode at ``/slack/events`` on ``PORT``, Telegram's webhook on
``TELEGRAM_WEBHOOK_PORT``) and the probes (``/healthz``, ``/readyz``, ``/metrics`` on
``METRICS_PORT``) register their routes here instead of each opening a server: one aiohttp site
per distinct port, shared where settings name the same port (a platform behind one public port
with the probes). A port's site opens with its first route and closes with its last, so each
route lives as long as what serves it (a platform's routes go when it closes, after the
worker's drain; the probes stay to the end and say it is draining). Two routes on one port and
path are a configuration error, said at once.

A route may say when it takes nothing (``accepting``): a worker shutting down then answers 503
with ``Retry-After``, and the platform delivers it again (to another worker behind a load
balancer, or to this one's successor). Bodies are bounded (aiohttp's ``client_max_size``) and a
closing site gives the requests under way ``SHUTDOWN_SECONDS`` to finish.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass

from aiohttp import web

__all__ = ["MAX_BODY", "SHUTDOWN_SECONDS", "Handler", "Ingress", "Route"]

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

MAX_BODY = 1024 * 1024
"""The largest request body a route reads (Slack's and Telegram's deliveries are far smaller)."""
SHUTDOWN_SECONDS = 5.0
"""How long a closing site lets the requests under way finish."""


@dataclass(frozen=True, slots=True)
class Route:
    method: str
    path: str
    handler: Handler
    accepting: Callable[[], bool] = lambda: True
    """False once what serves it takes nothing more (503, delivered again elsewhere)."""


class _Site:
    """One port's app: a dispatcher over the routes registered on it now."""

    def __init__(self) -> None:
        self.routes: dict[tuple[str, str], Route] = {}
        self.runner: web.AppRunner | None = None
        self.port = 0
        self.opening = asyncio.Lock()

    async def dispatch(self, request: web.Request) -> web.StreamResponse:
        method = "GET" if request.method == "HEAD" else request.method
        route = self.routes.get((method, request.path))
        if route is None:
            if any(path == request.path for _, path in self.routes):
                return web.Response(status=405)
            return web.Response(status=404)
        if not route.accepting():
            return web.Response(status=503, headers={"Retry-After": "5"})
        return await route.handler(request)


class Ingress:
    """The HTTP listeners of one worker (every platform's kit and the probes share it)."""

    def __init__(self, *, host: str = "0.0.0.0") -> None:
        self._host = host
        self._sites: dict[int, _Site] = {}

    @contextlib.asynccontextmanager
    async def serving(self, port: int, routes: Sequence[Route]) -> AsyncIterator[int]:
        """Serve ``routes`` on ``port`` while inside (0: a free port, of their own); yields the
        port bound. ValueError when a route is taken on that port already."""
        site = self._sites.setdefault(port, _Site()) if port else _Site()
        keys = [(route.method, route.path) for route in routes]
        taken = [f"{method} {path}" for method, path in keys if (method, path) in site.routes]
        if taken or len(set(keys)) < len(keys):
            raise ValueError(f"port {port} serves {', '.join(taken) or 'a route'} already")
        site.routes.update(zip(keys, routes, strict=True))
        try:
            async with site.opening:
                if site.runner is None:
                    await self._open(site, port)
            yield site.port
        finally:
            for key in keys:
                site.routes.pop(key, None)
            async with site.opening:
                if not site.routes and site.runner is not None:
                    runner, site.runner = site.runner, None
                    if self._sites.get(port) is site:
                        del self._sites[port]
                    await runner.cleanup()

    async def _open(self, site: _Site, port: int) -> None:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_route("*", "/{tail:.*}", site.dispatch)
        runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, self._host, port).start()
        except BaseException:
            await runner.cleanup()
            raise
        site.runner = runner
        site.port = runner.addresses[0][1]
