"""Fetching a cited page safely: the only network access quote checking has.

Every hop (the page, each redirect, robots.txt) is checked the same way: ``http``/``https``
only, no credentials in the URL, a host written as a number taken only as four decimal numbers
and judged like a resolved address, and every name resolved through
:class:`~bot.verify.addresses.GuardedResolver`, which is also what the client connects through.
Bodies are capped in bytes (a page's markup more tightly than a PDF, which is read whole or not
at all), the whole fetch in time, redirects in number.

aiohttp rather than httpx: its resolver is a public hook, so the address checked is the
address connected to; httpx has no such hook short of replacing its transport's pool.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import aiohttp
from yarl import URL

from bot.verify.addresses import (
    AllowList,
    GuardedResolver,
    RefusedAddress,
    literal_address,
    refusal,
)
from bot.verify.manners import AGENT, HostGate, Robots
from bot.verify.page import Page, Unreadable

__all__ = ["USER_AGENT", "FetchLimits", "Fetcher"]

log = logging.getLogger(__name__)

PROJECT_URL = "https://github.com/citebot/citebot"
USER_AGENT = f"{AGENT}/0.1 (+{PROJECT_URL}; checks that quotes match their sources)"
ACCEPT = "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.1"
READABLE = ("text/html", "application/xhtml+xml", "application/pdf", "text/plain", "text/markdown")
REDIRECTS = frozenset({301, 302, 303, 307, 308})
ROBOTS_MAX_BYTES = 512 * 1024
_CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True, kw_only=True)
class FetchLimits:
    """The caps on one worker's fetching; the defaults are the service's."""

    max_bytes: int = 8 * 1024 * 1024
    """A body past this is cut there (``Page.complete`` False); a cut PDF is unreadable."""
    max_text_bytes: int = 2 * 1024 * 1024
    """An HTML or text body past this is cut there: what a reader parses (docs/decisions.md,
    "Quote checks out of the event loop": four times the largest vatican.va document seen)."""
    seconds: float = 10.0
    """For one page: waiting for its host's turn, robots.txt, redirects and body included."""
    connect_seconds: float = 5.0
    max_redirects: int = 5
    host_spacing: float = 0.5
    """Seconds between the end of one request to a host and the start of the next."""
    concurrency: int = 8
    """Pages one worker fetches and reads at once (``QuoteChecker``)."""


class Fetcher:
    """One worker's safe HTTP client for cited pages; close it with ``aclose()``."""

    def __init__(
        self,
        *,
        allow: AllowList | None = None,
        limits: FetchLimits | None = None,
    ) -> None:
        """Cheap, and safe outside an event loop: the client is made at the first fetch."""
        self.limits = limits or FetchLimits()
        self._allow = allow or AllowList()
        self._session: aiohttp.ClientSession | None = None
        self._gate = HostGate(self.limits.host_spacing)
        self._robots = Robots(self._robots_txt)

    async def fetch(self, url: str) -> Page:
        """The page at ``url``; :class:`Unreadable` when it may not or cannot be read."""
        try:
            async with asyncio.timeout(self.limits.seconds):
                hop = await self._follow(url, max_bytes=self.limits.max_bytes, robots=True)
        except TimeoutError:
            raise Unreadable(f"no answer within {self.limits.seconds:g} s") from None
        assert hop.page is not None  # _follow returns a page, not a redirect
        return hop.page

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(
                    resolver=GuardedResolver(self._allow), limit=2 * self.limits.concurrency
                ),
                cookie_jar=aiohttp.DummyCookieJar(),
                headers={"User-Agent": USER_AGENT, "Accept": ACCEPT},
                timeout=aiohttp.ClientTimeout(sock_connect=self.limits.connect_seconds),
                trust_env=False,
            )
        return self._session

    async def _robots_txt(self, url: str) -> tuple[int, str] | None:
        try:
            hop = await self._follow(url, max_bytes=ROBOTS_MAX_BYTES, robots=False, any_status=True)
        except Unreadable as why:
            log.info("quote check: robots.txt unreadable, so nothing is fetched there: %s", why)
            return None
        text = b"" if hop.page is None else hop.page.body
        return hop.status, text.decode("utf-8", errors="replace")

    async def _follow(
        self, url: str, *, max_bytes: int, robots: bool, any_status: bool = False
    ) -> _Hop:
        target = self._checked(url)
        for _ in range(self.limits.max_redirects + 1):
            host = target.host or ""
            rules = await self._robots.rules(str(target.origin())) if robots else None
            if rules is not None and not rules.allows(str(target)):
                raise Unreadable(f"{host}'s robots.txt does not allow citebot there")
            delay = rules.delay if rules is not None else 0.0
            async with self._gate.turn(f"{host}:{target.port}", spacing=delay):
                hop = await self._get(target, max_bytes=max_bytes, any_status=any_status)
            if hop.location is None:
                return hop
            target = self._checked(str(target.join(URL(hop.location))))
        raise Unreadable(f"more than {self.limits.max_redirects} redirects")

    def _checked(self, url: str) -> URL:
        try:
            target = URL(url)
        except (ValueError, TypeError):
            raise Unreadable("not a URL") from None
        if target.scheme not in ("http", "https") or not target.host:
            raise Unreadable("only http and https pages are read")
        if target.user is not None or target.password is not None:
            raise Unreadable(f"a URL with credentials for {target.host} is not fetched")
        try:
            literal = literal_address(target.host)
        except RefusedAddress as why:
            raise Unreadable(str(why)) from None
        if literal is None:
            return target.with_fragment(None)
        reason = refusal(literal)
        if reason and not self._allow.allows(target.host, target.port or 0):
            raise Unreadable(f"{target.host} is {reason}")
        return target.with_fragment(None)

    async def _get(self, target: URL, *, max_bytes: int, any_status: bool) -> _Hop:
        try:
            async with self._client().get(target, allow_redirects=False) as response:
                location = response.headers.get("Location")
                if response.status in REDIRECTS and location:
                    return _Hop(status=response.status, location=location)
                if not any_status and not 200 <= response.status < 300:
                    raise Unreadable(f"{target.host} answered HTTP {response.status}")
                if not any_status and response.content_type not in READABLE:
                    raise Unreadable(f"{target.host} sent {response.content_type}, not a page")
                if response.content_type != "application/pdf":
                    max_bytes = min(max_bytes, self.limits.max_text_bytes)
                body, complete = await _read(response, max_bytes)
                page = Page(
                    url=str(target),
                    content_type=response.content_type,
                    charset=response.charset,
                    body=body,
                    complete=complete,
                )
                return _Hop(status=response.status, page=page)
        except aiohttp.ClientConnectorDNSError as error:
            if isinstance(error.os_error, RefusedAddress):
                raise Unreadable(str(error.os_error)) from None
            raise Unreadable(f"{target.host} could not be resolved") from None
        except (aiohttp.ClientError, OSError) as error:
            raise Unreadable(f"{target.host}: {type(error).__name__}") from None


@dataclass(frozen=True, slots=True, kw_only=True)
class _Hop:
    """One response: a redirect's ``location``, or the ``page`` (robots.txt reads ``status``)."""

    status: int
    location: str | None = None
    page: Page | None = None


async def _read(response: aiohttp.ClientResponse, max_bytes: int) -> tuple[bytes, bool]:
    """The body up to ``max_bytes``, and whether that was all of it (joined once: no copy of
    a cut page is kept beside it)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.content.iter_chunked(_CHUNK):
        room = max_bytes - size
        if len(chunk) > room:
            chunks.append(chunk[:room])
            return b"".join(chunks), False
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks), True
