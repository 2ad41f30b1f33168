"""``/metrics``, ``/healthz`` and ``/readyz`` on ``METRICS_PORT``, for the platform's probes.

``/healthz`` says the process is alive; ``/readyz`` says it should get work: every configured
platform is connected, the state backend answers, and the worker is not draining.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Protocol

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.ops.metrics import Metrics

__all__ = ["Reported", "health_server"]


class _Pings(Protocol):
    async def ping(self) -> bool: ...


class Reported(Protocol):
    """What the probes read of the worker's answer service (``bot.service.AnswerService``),
    named here so that ops, which the service uses, never imports it back."""

    @property
    def accepting(self) -> bool: ...

    @property
    def in_flight(self) -> int: ...

    @property
    def state(self) -> _Pings: ...

    @property
    def metrics(self) -> Metrics: ...


@asynccontextmanager
async def health_server(
    *,
    host: str,
    port: int,
    service: Reported,
    ready: Mapping[str, asyncio.Event],
    on_bound: Callable[[int], None] | None = None,
) -> AsyncIterator[None]:
    async def healthz(_: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    async def readyz(_: web.Request) -> web.Response:
        platforms = {name: event.is_set() for name, event in ready.items()}
        state_ok = await _ping(service)
        ok = all(platforms.values()) and state_ok and service.accepting
        body = {
            "ready": ok,
            "platforms": platforms,
            "state": state_ok,
            "accepting": service.accepting,
            "in_flight": service.in_flight,
        }
        return web.json_response(body, status=200 if ok else 503)

    async def metrics(_: web.Request) -> web.Response:
        body = generate_latest(service.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)
    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    if on_bound is not None:
        on_bound(runner.addresses[0][1])
    try:
        yield
    finally:
        await runner.cleanup()


async def _ping(service: Reported) -> bool:
    try:
        async with asyncio.timeout(2):
            return await service.state.ping()
    except Exception:
        return False
