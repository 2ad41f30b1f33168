"""The answer service a worker runs, built from its settings: the state store ``STATE_URL``
names (failing open), the workers' coordination, the answers in flight, the quote checker, the
operator's provider profiles, and the default upstream's tariff; drained and closed on exit."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Sequence

from bot.admission import Admission
from bot.answerlog import AnswerLog
from bot.billing import tariff
from bot.connect import open_providers, open_quote_checker
from bot.i18n.wording import Wording
from bot.inflight import InFlight
from bot.ops.metrics import Metrics
from bot.places import Places
from bot.service import AnswerService, Limits
from bot.state import kept_by_nothing, open_state
from bot.state.coordination import shared_coordination
from bot.state.failopen import FailOpenState
from bot.upstream.client import AnswerClient
from config import Settings
from config.environment import shown_url
from config.hosts import HostPort

__all__ = ["answer_service"]

log = logging.getLogger("citebot.answers")


@contextlib.asynccontextmanager
async def answer_service(
    settings: Settings,
    client: AnswerClient,
    *,
    metrics: Metrics | None = None,
    quote_check_hosts: Sequence[HostPort] = (),
) -> AsyncIterator[AnswerService]:
    """The service a worker runs, on the state ``STATE_URL`` names (failing open: an outage
    costs dedup, limits and memory for a while, never an answer), with the quote checker
    ``QUOTE_CHECK`` asks for (its cache that state; ``quote_check_hosts`` read besides
    ``QUOTE_CHECK_ALLOW_HOSTS``: the demo's pages); drained and closed on exit."""
    metrics = metrics or Metrics(providers=(tariff(settings).provider, *settings.upstream_profiles))
    backend = open_state(settings.state_url, timeout=settings.state_timeout_seconds)
    log.info("state store: %s", shown_url(settings.state_url))
    if (warning := kept_by_nothing(settings.state_url)) is not None:
        log.warning(warning)
    failures = metrics.state_failures
    async with (
        FailOpenState(
            backend,
            timeout=settings.state_timeout_seconds,
            on_failure=lambda operation: failures.labels(operation).inc(),
        ) as state,
        shared_coordination(
            settings.state_url, timeout_seconds=settings.state_timeout_seconds
        ) as coordination,
        InFlight(coordination) as inflight,
        open_quote_checker(settings, cache=state, pages=quote_check_hosts) as checker,
        open_providers(settings) as providers,
    ):
        service = AnswerService(
            client=client,
            state=state,
            places=Places(state, defaults=settings),
            answer_log=AnswerLog(
                state,
                mode=settings.answer_log,
                days=settings.answer_log_days,
                memory_ttl=float(settings.memory_ttl_seconds),
            ),
            metrics=metrics,
            admission=Admission(max_in_flight=settings.max_in_flight),
            limits=Limits.from_settings(settings),
            wording=Wording(language=settings.language),
            inflight=inflight,
            checker=checker,
            coordination=coordination,
            tariff=tariff(settings),
            providers=providers,
        )
        try:
            yield service
        finally:
            await service.drain(settings.shutdown_grace_seconds)
