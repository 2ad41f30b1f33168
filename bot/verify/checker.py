"""The one entry point: is this quote really on its source's page?

``QuoteChecker.check(url, quote)`` never raises and never blocks the event loop: whatever
happens, it returns a :class:`Verdict`. Verdicts are cached in the shared state per (URL,
quote), so a popular source is fetched once across workers until the verdict lapses; checks of
one page that overlap share one fetch. The answer flow starts the checks once the cards are
posted (:mod:`bot.quote_checks`, on ``checks()``, which yields each verdict as it lands) in the
checker's :meth:`~QuoteChecker.background`, which closing the checker ends; ``citebot ask``
waits for them with a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncGenerator, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Self

from bot.state.ports import Cache
from bot.verify.addresses import AllowList
from bot.verify.fetch import Fetcher, FetchLimits, Unreadable
from bot.verify.match import match, words
from bot.verify.read import page_texts
from bot.verify.verdict import Verdict

__all__ = ["CACHE_VERSION", "TTL", "QuoteChecker"]

log = logging.getLogger(__name__)


TTL = {Verdict.FOUND: 24 * 3600.0, Verdict.NOT_FOUND: 24 * 3600.0, Verdict.UNREADABLE: 600.0}
"""Seconds a verdict is kept: a day for what was read (pages change slowly), ten minutes for a
page that could not be read (often a passing failure)."""
CACHE_VERSION = "v1"
"""Part of every cache key: bump it when the matching changes, so old verdicts are not reused."""
MIN_WORDS = 30
"""A page with fewer words than this that lacks the quote is taken as unread (a page built by
script, an interstitial), not as proof the quote is not there."""

Pair = tuple[str | None, str]


@dataclass(frozen=True, slots=True)
class _Read:
    """A page's texts, best first (main text, then all of it), and whether it was read whole."""

    texts: tuple[str, ...]
    complete: bool


class QuoteChecker:
    """One worker's quote checks; close it with ``aclose()`` or ``async with``."""

    def __init__(
        self,
        *,
        cache: Cache | None = None,
        allow_hosts: Iterable[tuple[str, int | None]] = (),
        limits: FetchLimits | None = None,
    ) -> None:
        """``cache`` is the shared state (None: no caching); ``allow_hosts`` the
        ``QUOTE_CHECK_ALLOW_HOSTS`` entries, plus the demo's own address when it runs."""
        self._cache = cache
        self._fetcher = Fetcher(allow=AllowList(allow_hosts), limits=limits)
        self._pages: dict[str, asyncio.Task[_Read]] = {}
        self._background: set[asyncio.Task[object]] = set()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Cancel the checks still running (their cards stay as they are) and close."""
        for task in (*self._background, *self._pages.values()):
            task.cancel()
        await asyncio.gather(*self._background, *self._pages.values(), return_exceptions=True)
        await self._fetcher.aclose()

    def background(self, work: Coroutine[Any, Any, object]) -> None:
        """Run ``work`` (an answer's checks shown on its cards) until it ends or this checker
        closes; it must handle its own failures."""
        task = asyncio.create_task(work, name="citebot-quote-checks")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def check(self, url: str | None, quote: str) -> Verdict:
        """Whether ``quote`` is on the page at ``url``; no URL or no quote is ``unreadable``."""
        if not url or not url.lower().startswith(("http://", "https://")) or not words(quote):
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
        try:
            read = await self._text_of(url)
        except Unreadable as why:
            log.info("quote check: page unreadable: %s", why)
            return Verdict.UNREADABLE
        if (await asyncio.to_thread(match, quote, read.texts)).found:
            return Verdict.FOUND
        if not read.complete or len(read.texts[-1].split()) < MIN_WORDS:
            # What was read lacks the quote, but the rest (past the size cap) or a page built
            # by script might hold it: that is not knowing, not "not found".
            return Verdict.UNREADABLE
        return Verdict.NOT_FOUND

    async def _text_of(self, url: str) -> _Read:
        """The page's texts, fetched once for the checks that overlap."""
        task = self._pages.get(url)
        if task is None:
            task = asyncio.create_task(self._read(url))
            self._pages[url] = task
            task.add_done_callback(lambda _: self._pages.pop(url, None))
        return await asyncio.shield(task)

    async def _read(self, url: str) -> _Read:
        page = await self._fetcher.fetch(url)
        texts = await asyncio.to_thread(page_texts, page)
        if not texts:
            raise Unreadable("no text on the page")
        return _Read(texts, page.complete)

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
