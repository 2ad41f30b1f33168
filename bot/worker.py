"""``citebot run``: every configured platform in one asyncio process, drained on SIGTERM.

Heroku-like platforms send SIGTERM and kill 30 s later (Docker 10 s, Kubernetes 30 s by
default), so the worker stops taking questions at once (Telegram's webhook answers 503:
delivered again elsewhere), gives answers in flight ``SHUTDOWN_GRACE_SECONDS`` (20 s), closes
the rest with a note (2 s at most), closes the platform clients (and their routes on the
worker's one HTTP way in, :mod:`bot.ingress`; the probes last, saying it drains) and exits 0
within ``SHUTDOWN_GRACE_SECONDS`` + 3 s, whatever hangs: a watchdog ends the process then if the
clean way has not (a DNS lookup or a library's cleanup cannot be cancelled).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib.metadata
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any

from bot.billing import tariff
from bot.connect import open_upstream
from bot.ingress import Ingress
from bot.kit import PlatformKit
from bot.ops.health import health_routes
from bot.ops.logs import configure_json_logging
from bot.ops.metrics import Metrics
from bot.platforms import Platform
from bot.serving import answer_service
from config import PlatformSettings, Settings

log = logging.getLogger("citebot.worker")

__all__ = [
    "configuration_problem",
    "configured_platforms",
    "event_loop_factory",
    "run_worker",
    "settle_collector",
    "watchdog",
]

Configured = Mapping[str, tuple[Platform[Any], PlatformSettings]]
"""The platforms this deployment starts, each with its own variables."""

EXIT_MARGIN = 3.0
"""Seconds after ``SHUTDOWN_GRACE_SECONDS`` by which the process has exited."""


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop when it is installed (it is not on Windows), else asyncio's.

    Every token of every answer wakes the loop; ``bench/bench_capacity.py`` measured uvloop's
    at about a sixth less worker CPU per answer in flight.
    """
    try:
        uvloop = importlib.import_module("uvloop")
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def configured_platforms(
    platforms: Mapping[str, Platform[Any]], *, env_file: str | None = ".env"
) -> tuple[dict[str, tuple[Platform[Any], PlatformSettings]], str | None]:
    """The platforms whose variables are set, each with them; and the first line naming what a
    half-made configuration lacks (a Slack bot token without a way to receive events)."""
    configured: dict[str, tuple[Platform[Any], PlatformSettings]] = {}
    for name, platform in platforms.items():
        if not platform.runs:
            continue
        assert platform.environment is not None
        environment = platform.environment.load(env_file=env_file)
        problem = environment.missing()
        if problem is not None:
            return {}, problem
        if environment.configured:
            configured[name] = (platform, environment)
    return configured, None


def configuration_problem(
    settings: Settings, platforms: Mapping[str, Platform[Any]], configured: Configured
) -> str | None:
    """The one line ``run`` prints instead of starting, naming the missing settings."""
    if not configured:
        ways = ", or ".join(
            p.environment.start_with for p in platforms.values() if p.environment and p.runs
        )
        return f"no platform is configured: set {ways}"
    if settings.upstream_api_key is None and not settings.uses_demo:
        return (
            "UPSTREAM_API_KEY (or MAGISTERIUM_API_KEY) is not set; set it, or set "
            "UPSTREAM_BASE_URL=demo to run on the embedded demo upstream"
        )
    return None


async def run_worker(settings: Settings, *, platforms: Mapping[str, Platform[Any]]) -> int:
    """Run every one of the registered ``platforms`` whose variables are set, on one answer
    service, until SIGTERM or SIGINT (or until a platform fails)."""
    configured, problem = configured_platforms(platforms)
    problem = problem or configuration_problem(settings, platforms, configured)
    if problem is not None:
        print(f"citebot run: {problem}", file=sys.stderr)
        return 2
    configure_json_logging(
        settings.log_level, quiet=[name for p in platforms.values() for name in p.noisy_loggers]
    )
    log.info(
        "citebot %s starting: %s", importlib.metadata.version("citebot"), ", ".join(configured)
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    metrics = Metrics(providers=(tariff(settings).provider,))
    ingress = Ingress()
    ready = {name: asyncio.Event() for name in configured}
    async with (
        open_upstream(
            settings, demo=settings.uses_demo, on_retry=metrics.upstream_retries.inc
        ) as upstream,
        answer_service(
            settings, upstream.client, metrics=metrics, quote_check_hosts=upstream.pages
        ) as service,
        contextlib.AsyncExitStack() as probes,
    ):
        if settings.metrics_port is not None:  # up first, down last: it says "draining"
            routes = health_routes(service=service, ready=ready)
            await probes.enter_async_context(ingress.serving(settings.metrics_port, routes))
        runners = set()
        for name, (platform, environment) in configured.items():
            assert platform.runner is not None
            kit = PlatformKit(
                service, platform, environment=environment, settings=settings, ingress=ingress
            )
            running = platform.runner()(kit, environment, ready[name])
            runners.add(asyncio.create_task(running, name=name))
        freezing = asyncio.create_task(_freeze_when_ready(ready))
        stopping = asyncio.create_task(stop.wait())
        crashed = await _until_stopped(runners, stopping)
        freezing.cancel()
        log.info("shutting down: draining answers in flight")
        exit_by = loop.time() + settings.shutdown_grace_seconds + EXIT_MARGIN
        watchdog(settings.shutdown_grace_seconds + EXIT_MARGIN)
        await service.drain(settings.shutdown_grace_seconds)
        if service.checker is not None:  # before the platforms close; unchecked cards stay
            await service.checker.aclose()
        # the platforms close after the drain (its notes still post), in what time is left
        await _close(runners, within=max(0.1, exit_by - loop.time() - 0.5))
    log.info("stopped")
    return 1 if crashed else 0


FULL_COLLECTION_EVERY = 100
"""Young-generation collections between full ones (Python's default: 10)."""


async def _freeze_when_ready(ready: Mapping[str, asyncio.Event]) -> None:
    """Once every platform is up, :func:`settle_collector`."""
    await asyncio.gather(*(event.wait() for event in ready.values()))
    settle_collector()


def settle_collector() -> None:
    """The objects made while starting (modules, platform caches) leave the collector's view,
    and full collections come a tenth as often: each walks every object the answers in flight
    hold and pauses them all (~100 ms with 200 in flight, up to five times in 10 s with 300:
    most of the p95 added latency there)."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


async def _until_stopped(runners: set[asyncio.Task[None]], stopping: asyncio.Task[bool]) -> bool:
    """Wait for a signal, or for a platform to fail (then the worker stops too)."""
    done, _ = await asyncio.wait({*runners, stopping}, return_when=asyncio.FIRST_COMPLETED)
    crashed = False
    for task in done - {stopping}:
        crashed = True
        error = task.exception()
        log.error("platform %s stopped: %s", task.get_name(), error or "returned", exc_info=error)
    stopping.cancel()
    return crashed


async def _close(runners: set[asyncio.Task[None]], *, within: float) -> None:
    for task in runners:
        task.cancel()
    if runners:
        _done, late = await asyncio.wait(runners, timeout=within)
        for task in late:
            log.warning("platform %s did not close in time", task.get_name())


def watchdog(seconds: float) -> None:
    """End the process ``seconds`` from now if it is still running: past that the platform
    kills it anyway, and a worker that promised its exit must keep the promise."""

    def expire() -> None:
        log.warning("still running %.1f s after the signal: exiting now", seconds)
        logging.shutdown()
        os._exit(0)

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
