"""How a quote check behaves towards the sites it reads: robots.txt, and spacing per host.

A popular answer can cite the same site many times over; without spacing, a worker answering
many questions would hammer it. robots.txt is read as RFC 9309 says: a missing file (4xx)
allows everything, an unreachable one (5xx, a refused or failed fetch) allows nothing for now.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from protego import Protego

__all__ = ["AGENT", "HostGate", "Robots", "RobotsRules"]

AGENT = "citebot"
"""The product token robots.txt groups are matched against (``User-agent: citebot``)."""

_RULES_TTL = 3600.0
_FAILED_TTL = 600.0
_MAX_HOSTS = 1024


@dataclass(frozen=True, slots=True)
class RobotsRules:
    """One site's robots.txt as it applies to citebot."""

    parsed: Protego | None = None
    allow_all: bool = True

    def allows(self, url: str) -> bool:
        if self.parsed is None:
            return self.allow_all
        return bool(self.parsed.can_fetch(url, AGENT))

    @property
    def delay(self) -> float:
        if self.parsed is None:
            return 0.0
        return float(self.parsed.crawl_delay(AGENT) or 0.0)


ALLOW_ALL = RobotsRules()
DISALLOW_ALL = RobotsRules(allow_all=False)

RobotsFetch = Callable[[str], Awaitable[tuple[int, str] | None]]
"""Fetches an origin's ``/robots.txt``: (status, text), or None when it could not be fetched."""


class Robots:
    """robots.txt per origin, fetched once at a time and kept for an hour (10 min if it failed)."""

    def __init__(self, fetch: RobotsFetch) -> None:
        self._fetch = fetch
        self._rules: dict[str, tuple[float, RobotsRules]] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def rules(self, origin: str) -> RobotsRules:
        kept = self._rules.get(origin)
        if kept is not None and kept[0] > time.monotonic():
            return kept[1]
        lock = self._locks.setdefault(origin, asyncio.Lock())
        async with lock:
            kept = self._rules.get(origin)
            if kept is not None and kept[0] > time.monotonic():
                return kept[1]
            rules, ttl = _read(await self._fetch(origin + "/robots.txt"))
            if len(self._rules) >= _MAX_HOSTS:
                self._rules.clear()
                self._locks = {origin: lock}
            self._rules[origin] = (time.monotonic() + ttl, rules)
        return rules


def _read(answer: tuple[int, str] | None) -> tuple[RobotsRules, float]:
    if answer is None:
        return DISALLOW_ALL, _FAILED_TTL
    status, text = answer
    if 200 <= status < 300:
        return RobotsRules(parsed=Protego.parse(text)), _RULES_TTL
    if 400 <= status < 500 and status != 429:
        return ALLOW_ALL, _RULES_TTL
    return DISALLOW_ALL, _FAILED_TTL


class HostGate:
    """One request at a time per host, each starting at least ``spacing`` after the last ended."""

    def __init__(self, spacing: float) -> None:
        self.spacing = spacing
        self._hosts: dict[str, tuple[asyncio.Lock, list[float]]] = {}

    @contextlib.asynccontextmanager
    async def turn(self, host: str, *, spacing: float = 0.0) -> AsyncIterator[None]:
        """Wait for the host's turn; ``spacing`` (a Crawl-delay) may only lengthen the gap."""
        if len(self._hosts) >= _MAX_HOSTS:
            self._forget_idle()
        lock, next_start = self._hosts.setdefault(host, (asyncio.Lock(), [0.0]))
        async with lock:
            wait = next_start[0] - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                yield
            finally:
                next_start[0] = time.monotonic() + max(self.spacing, spacing)

    def _forget_idle(self) -> None:
        now = time.monotonic()
        for host, (lock, next_start) in list(self._hosts.items()):
            if not lock.locked() and next_start[0] <= now:
                del self._hosts[host]
