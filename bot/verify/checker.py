"""The one entry point: is this quote really on its source's page?

``QuoteChecker.check(url, quote)`` never raises and never blocks the event loop: whatever
happens, it returns a :class:`Verdict`. Verdicts are cached in the shared state per (URL,
quote), so a popular source is fetched once across workers until the verdict lapses. Checks of
one page that overlap share one fetch and one reading: the quotes asked for while the page is
being fetched are all looked for when it is read, in a reader process
(:mod:`bot.verify.pool`), never in this event loop. At most ``FetchLimits.concurrency`` pages
are fetched or read at once; the checks past that wait their turn. The answer flow starts the
checks once the cards are posted (:mod:`bot.quote_checks`, on ``checks()``, which yields each
verdict as it lands) in the checker's :meth:`~QuoteChecker.background`, which closing the
checker ends; ``citebot ask`` waits for them with a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncGenerator, Coroutine, Iterable, Sequence
from typing import Any, Self

from bot.state.ports import Cache
from bot.verify.addresses import AllowList
from bot.verify.fetch import Fetcher, FetchLimits
from bot.verify.page import Unreadable
from bot.verify.pool import ReaderPool, ReadLimits
from bot.verify.text import words
from bot.verify.verdict import Verdict

__all__ = ["CACHE_VERSION", "MAX_QUOTE_CHARS", "TTL", "QuoteChecker"]

log = logging.getLogger(__name__)


TTL = {Verdict.FOUND: 24 * 3600.0, Verdict.NOT_FOUND: 24 * 3600.0, Verdict.UNREADABLE: 600.0}
"""Seconds a verdict is kept: a day for what was read (pages change slowly), ten minutes for a
page that could not be read (often a passing failure)."""
CACHE_VERSION = "v1"
"""Part of every cache key: bump it when the matching changes, so old verdicts are not reused."""
MAX_QUOTE_CHARS = 2_000
"""A longer quote is not checked (``unreadable``): matching costs grow with the square of a
quote's length, and a card's quote is a passage, not a chapter."""

Pair = tuple[str | None, str]


class _PageChecks:
    """The checks of one page that overlap: one fetch, then one reading for all their quotes."""

    def __init__(self) -> None:
        self.open = True
        """Quotes may still join: the page is not fetched yet."""
        self.quotes: dict[str, asyncio.Future[Verdict]] = {}
        self.task: asyncio.Task[None] | None = None
        self._waiting = 0

    async def verdict(self, quote: str) -> Verdict:
        """``quote``'s verdict once the page is read; the last check to stop waiting ends the
        page's fetch or reading (and its reader)."""
        future = self.quotes.get(quote)
        if future is None:
            future = self.quotes[quote] = asyncio.get_running_loop().create_future()
        self._waiting += 1
        try:
            return await asyncio.shield(future)
        finally:
            self._waiting -= 1
            if not self._waiting and self.task is not None:
                self.open = False  # a check that comes before the cancel lands starts anew
                self.task.cancel()

    def decide(self, verdicts: Iterable[tuple[str, Verdict]]) -> None:
        for quote, verdict in verdicts:
            if not self.quotes[quote].done():
                self.quotes[quote].set_result(verdict)


class QuoteChecker:
    """One worker's quote checks; close it with ``aclose()`` or ``async with``."""

    def __init__(
        self,
        *,
        cache: Cache | None = None,
        allow_hosts: Iterable[tuple[str, int | None]] = (),
        limits: FetchLimits | None = None,
        reading: ReadLimits | None = None,
    ) -> None:
        """``cache`` is the shared state (None: no caching); ``allow_hosts`` the
        ``QUOTE_CHECK_ALLOW_HOSTS`` entries, plus the demo's own address when it runs."""
        self._cache = cache
        self._fetcher = Fetcher(allow=AllowList(allow_hosts), limits=limits)
        self._readers = ReaderPool(reading)
        self._slots = asyncio.Semaphore(self._fetcher.limits.concurrency)
        self._pages: dict[str, _PageChecks] = {}
        self._background: set[asyncio.Task[object]] = set()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Cancel the checks still running (their cards stay as they are), end the readers and
        close."""
        pages = [page.task for page in self._pages.values() if page.task is not None]
        for task in (*self._background, *pages):
            task.cancel()
        await asyncio.gather(*self._background, *pages, return_exceptions=True)
        await self._readers.aclose()
        await self._fetcher.aclose()

    def background(self, work: Coroutine[Any, Any, object]) -> None:
        """Run ``work`` (an answer's checks shown on its cards) until it ends or this checker
        closes; it must handle its own failures."""
        task = asyncio.create_task(work, name="citebot-quote-checks")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def check(self, url: str | None, quote: str) -> Verdict:
        """Whether ``quote`` is on the page at ``url``; no URL, no quote or a quote longer than
        :data:`MAX_QUOTE_CHARS` is ``unreadable``."""
        if not url or not url.lower().startswith(("http://", "https://")):
            return Verdict.UNREADABLE
        if len(quote) > MAX_QUOTE_CHARS or not words(quote):
            return Verdict.UNREADABLE
        key = _key(url, quote)
        cached = await self._cached(key)
        if cached is not None:
            return cached
        try:
            verdict = await self._verdict(url, quote)
        except Exception:  # a check never breaks an answer; the card just shows nothing
            log.exception("quote check failed unexpectedly")
            verdict = Verdict.UNREADABLE
        await self._keep(key, verdict)
        return verdict

    async def checks(self, pairs: Sequence[Pair]) -> AsyncGenerator[tuple[int, Verdict], None]:
        """Check every (url, quote) at once; yield (index, verdict) as each is decided.

        Closing the generator cancels the checks still running: iterate it inside
        ``contextlib.aclosing`` so that leaving the loop early does so at once.
        """
        running = {
            asyncio.ensure_future(self.check(url, quote)): index
            for index, (url, quote) in enumerate(pairs)
        }
        try:
            while running:
                done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    yield running.pop(task), task.result()
        finally:
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)

    async def check_all(
        self, pairs: Sequence[Pair], *, deadline: float | None = None
    ) -> list[Verdict]:
        """Every pair's verdict, in order; those not decided within ``deadline`` seconds are
        ``unreadable`` (their checks are cancelled)."""
        verdicts = [Verdict.UNREADABLE] * len(pairs)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(deadline):
                async for index, verdict in self.checks(pairs):
                    verdicts[index] = verdict
        return verdicts

    async def _verdict(self, url: str, quote: str) -> Verdict:
        """Join the checks of ``url`` still waiting for its fetch, or start them."""
        page = self._pages.get(url)
        if page is None or not page.open:
            page = self._pages[url] = _PageChecks()
            page.task = asyncio.create_task(self._check_page(url, page))
        return await page.verdict(quote)

    async def _check_page(self, url: str, page: _PageChecks) -> None:
        try:
            async with self._slots:
                try:
                    fetched = await self._fetcher.fetch(url)
                finally:
                    page.open = False
                quotes = tuple(page.quotes)
                verdicts = await self._readers.judge(fetched, quotes)
            page.decide(zip(quotes, verdicts, strict=True))
        except Unreadable as why:
            log.info("quote check: page unreadable: %s", why)
        except Exception:
            log.exception("quote check failed unexpectedly")
        finally:
            page.open = False
            if self._pages.get(url) is page:
                del self._pages[url]
            page.decide((quote, Verdict.UNREADABLE) for quote in page.quotes)

    async def _cached(self, key: str) -> Verdict | None:
        if self._cache is None:
            return None
        try:
            value = await self._cache.cached(key)
        except Exception as error:  # the state store being down costs a fetch, nothing more
            log.warning("quote check: cache unreadable (%s)", type(error).__name__)
            return None
        try:
            return None if value is None else Verdict(value)
        except ValueError:  # written by a later version of citebot
            return None

    async def _keep(self, key: str, verdict: Verdict) -> None:
        if self._cache is None:
            return
        try:
            await self._cache.cache(key, verdict.value, ttl=TTL[verdict])
        except Exception as error:
            log.warning("quote check: cache not written (%s)", type(error).__name__)


def _key(url: str, quote: str) -> str:
    """The quote's words (not its typography) and the URL, hashed: no text is stored."""
    digest = hashlib.sha256(f"{url}\n{words(quote)}".encode()).hexdigest()
    return f"quote-check:{CACHE_VERSION}:{digest}"
