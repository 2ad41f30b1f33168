"""What answers and what checks, built once from the settings: the upstream (the real API or
the embedded demo) and the process's one quote checker."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bot.billing import Tariff, profile_tariff
from bot.state.ports import Cache
from bot.upstream.client import AnswerClient, RetryPolicy, Timeouts
from config import Settings
from config.hosts import HostPort
from config.profiles import UpstreamProfile
from config.settings import MAGISTERIUM_API

if TYPE_CHECKING:
    from bot.verify.checker import QuoteChecker

__all__ = [
    "USAGE_ASKED",
    "Provider",
    "Upstream",
    "answer_client",
    "open_providers",
    "open_quote_checker",
    "open_upstream",
    "wants_demo",
]

USAGE_ASKED = frozenset({"api.openai.com", "openrouter.ai"})
"""Hosts asked for ``stream_options.include_usage``: strict servers reject unknown fields."""


@dataclass(frozen=True, slots=True)
class Upstream:
    """The upstream a process answers with."""

    client: AnswerClient
    pages: tuple[HostPort, ...] = ()
    """Where its own cited pages are served from a loopback address (the demo's), which quote
    checking must be allowed to read."""


def answer_client(
    settings: Settings,
    *,
    base_url: str | None = None,
    on_retry: Callable[[], None] | None = None,
    profile: UpstreamProfile | None = None,
) -> AnswerClient:
    """The default upstream's client (one a process); ``base_url`` overrides the settings (the
    demo's URL), ``profile`` names another upstream (``UPSTREAM_PROFILES``: its URL, model and
    key), asked with the same deadlines and retries."""
    url = profile.base_url if profile else base_url or settings.upstream_base_url
    key = profile.api_key if profile else None if base_url else settings.upstream_api_key
    return AnswerClient(
        base_url=url,
        api_key=key,
        model=profile.model if profile else settings.upstream_model,
        timeouts=Timeouts(
            connect=settings.upstream_connect_timeout,
            idle=settings.upstream_idle_timeout,
            total=settings.upstream_total_timeout,
        ),
        retry=RetryPolicy(max_retries=settings.upstream_max_retries),
        # Magisterium (and the demo, which speaks its dialect) know this extension; strict
        # OpenAI-compatible servers reject unknown fields.
        related_questions=base_url is not None or "magisterium" in url,
        # OpenAI sends a stream's tokens only when asked, on a last chunk; OpenRouter takes the
        # same option (their recordings: tests/fixtures/providers). Others send usage unasked
        # or, like Magisterium, are not known to take it: their tokens are estimated.
        usage_in_stream=urlsplit(url).hostname in USAGE_ASKED,
        on_retry=on_retry,
        max_event_bytes=settings.upstream_max_event_bytes,
    )


def wants_demo(settings: Settings) -> bool:
    """``ask`` falls back to the demo when nothing else could answer (no key for Magisterium)."""
    return settings.uses_demo or (
        settings.upstream_api_key is None and settings.upstream_base_url == MAGISTERIUM_API
    )


@asynccontextmanager
async def open_upstream(
    settings: Settings,
    *,
    demo: bool,
    on_retry: Callable[[], None] | None = None,
) -> AsyncIterator[Upstream]:
    """A client on the real upstream, or on the demo started in this event loop."""
    if not demo:
        async with answer_client(settings, on_retry=on_retry) as client:
            yield Upstream(client)
        return
    from bot.demo import quote_check_host, running_demo

    if not settings.uses_demo:
        print(
            "citebot: no UPSTREAM_API_KEY is set, so the embedded demo upstream answers "
            "(from citebot's own documentation).",
            file=sys.stderr,
        )
    demo_upstream = running_demo(
        corpus=settings.demo_corpus, tokens_per_second=settings.demo_tokens_per_second
    )
    async with (
        demo_upstream as url,
        answer_client(settings, base_url=url, on_retry=on_retry) as client,
    ):
        yield Upstream(client, pages=(quote_check_host(url),))


@dataclass(frozen=True, slots=True)
class Provider:
    """One of ``UPSTREAM_PROFILES``, open: its client, and how it bills."""

    client: AnswerClient
    tariff: Tariff


@asynccontextmanager
async def open_providers(settings: Settings) -> AsyncIterator[dict[str, Provider]]:
    """Each of ``UPSTREAM_PROFILES`` by name (none: an empty mapping), its client closed on the
    way out."""
    async with AsyncExitStack() as stack:
        yield {
            name: Provider(
                await stack.enter_async_context(answer_client(settings, profile=profile)),
                profile_tariff(name, profile),
            )
            for name, profile in settings.upstream_profiles.items()
        }


@asynccontextmanager
async def open_quote_checker(
    settings: Settings, *, cache: Cache | None, pages: Iterable[HostPort] = ()
) -> AsyncIterator[QuoteChecker | None]:
    """The process's one quote checker, None when ``QUOTE_CHECK=off``. It may read the hosts
    of ``QUOTE_CHECK_ALLOW_HOSTS`` and ``pages`` despite their private addresses; ``cache``
    shares its verdicts (the worker's state). Closing it cancels the checks still running."""
    if not settings.quote_check:
        yield None
        return
    from bot.verify.checker import QuoteChecker

    allowed = (*settings.quote_check_allow_hosts, *pages)
    async with QuoteChecker(cache=cache, allow_hosts=allowed) as checker:
        yield checker
