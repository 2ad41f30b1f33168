"""``/metrics``, ``/healthz`` and ``/readyz`` on ``METRICS_PORT`` (the worker's ingress,
:mod:`bot.ingress`), for the platform's probes.

``/healthz`` says the process is alive; ``/readyz`` says it should get work: every configured
platform is connected, the state backend answers, and the worker is not draining.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Protocol

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.ingress import Route
from bot.ops.metrics import Metrics

__all__ = ["Reported", "health_routes"]


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


def health_routes(*, service: Reported, ready: Mapping[str, asyncio.Event]) -> list[Route]:
    """The probes' routes, for the worker's ingress on ``METRICS_PORT``."""

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

    return [
        Route("GET", "/healthz", healthz),
        Route("GET", "/readyz", readyz),
        Route("GET", "/metrics", metrics),
    ]


async def _ping(service: Reported) -> bool:
    try:
        async with asyncio.timeout(2):
            return await service.state.ping()
    except Exception:
        return False
