"""Which upstream answers, built once from the settings: the real API or the embedded demo."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from bot.upstream.client import AnswerClient, RetryPolicy, Timeouts
from config import Settings
from config.settings import MAGISTERIUM_API

__all__ = ["answer_client", "open_upstream", "wants_demo"]


def answer_client(
    settings: Settings, *, base_url: str | None = None, on_retry: Callable[[], None] | None = None
) -> AnswerClient:
    """The one client of a process; ``base_url`` overrides the settings (the demo's URL)."""
    url = base_url or settings.upstream_base_url
    return AnswerClient(
        base_url=url,
        api_key=None if base_url else settings.upstream_api_key,
        model=settings.upstream_model,
        timeouts=Timeouts(
            connect=settings.upstream_connect_timeout,
            idle=settings.upstream_idle_timeout,
            total=settings.upstream_total_timeout,
        ),
        retry=RetryPolicy(max_retries=settings.upstream_max_retries),
        # Magisterium (and the demo, which speaks its dialect) know this extension; strict
        # OpenAI-compatible servers reject unknown fields.
        related_questions=base_url is not None or "magisterium" in url,
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
) -> AsyncIterator[AnswerClient]:
    """A client on the real upstream, or on the demo started in this event loop."""
    if not demo:
        async with answer_client(settings, on_retry=on_retry) as client:
            yield client
        return
    from bot.demo import running_demo

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
        yield client
