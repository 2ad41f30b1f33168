"""Prometheus metrics of one worker, in a registry of its own (tests make many).

They count what the answer log's reports count (answers by outcome, refusals, votes and the
👎's reasons, quote checks, time to first text, tokens and their cost), without the words or
the places: ``docs/grafana-dashboard.json`` is built on them.

Every label's values come from a fixed set written here (:class:`Fixed`): a value from anywhere
else (a forged button's, a newer worker's) is counted as ``other``. A label that took whatever
it was given would let anyone who can press a button add a series a press: 100,000 forged
presses once made 73 MB of series and a 24.7 MB ``/metrics``. A provider is labelled by the
name the configuration gives it (bot/billing.py), the worker's own set, never by anything an
upstream sent."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Generic, TypeVar, get_args

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.metrics import MetricWrapperBase

from bot.answer import Status
from bot.answerlog import LOGGED_REFUSALS
from bot.billing import KINDS, KNOWN
from bot.i18n.conversation_words import REASONS, VOTES
from bot.registry import platform_names
from bot.state.failopen import OPERATIONS
from bot.verify.verdict import Verdict

if TYPE_CHECKING:
    from bot.answer import Outcome
    from bot.billing import Bill

__all__ = ["OTHER", "Fixed", "Metrics"]

OTHER = "other"
"""What a label value outside its fixed set is counted as."""
M = TypeVar("M", bound=MetricWrapperBase)


class Fixed(Generic[M]):
    """A labelled metric whose every label takes its values from a fixed set."""

    def __init__(self, metric: M, *allowed: Iterable[str]) -> None:
        self.metric = metric
        self._allowed = tuple(frozenset(values) for values in allowed)

    def labels(self, *values: str) -> M:
        """The metric's child for ``values``, each outside its set counted as :data:`OTHER`."""
        return self.metric.labels(
            *(
                v if v in allowed else OTHER
                for v, allowed in zip(values, self._allowed, strict=True)
            )
        )


class Metrics:
    def __init__(
        self, *, platforms: Iterable[str] | None = None, providers: Iterable[str] = ()
    ) -> None:
        """``platforms``: the names a platform label may take (the registered ones);
        ``providers``: the upstreams' names the configuration gives (besides the known
        providers')."""
        self.registry = CollectorRegistry()
        platform = frozenset(platform_names() if platforms is None else platforms)
        provider = frozenset(providers) | {known.provider for known in KNOWN.values()}
        self.answers = Fixed(
            Counter(
                "citebot_answers",
                "Answers by outcome.",
                ["platform", "outcome"],
                registry=self.registry,
            ),
            platform,
            get_args(Status),
        )
        self.first_text = Fixed(
            Histogram(
                "citebot_first_text_seconds",
                "From the question to the first visible text.",
                ["platform"],
                registry=self.registry,
                buckets=(0.25, 0.5, 1, 2, 4, 8, 15, 30, 60),
            ),
            platform,
        )
        self.answer_seconds = Fixed(
            Histogram(
                "citebot_answer_seconds",
                "From the question to the finished answer.",
                ["platform"],
                registry=self.registry,
                buckets=(1, 2, 5, 10, 20, 40, 80, 160),
            ),
            platform,
        )
        self.platform_429s = Fixed(
            Counter(
                "citebot_platform_rate_limited",
                "429s received from a platform.",
                ["platform"],
                registry=self.registry,
            ),
            platform,
        )
        self.upstream_retries = Counter(
            "citebot_upstream_retries",
            "Upstream attempts retried before the first token.",
            registry=self.registry,
        )
        self.dedup_hits = Fixed(
            Counter(
                "citebot_dedup_hits",
                "Platform events dropped as already answered.",
                ["platform"],
                registry=self.registry,
            ),
            platform,
        )
        self.state_failures = Fixed(
            Counter(
                "citebot_state_failures",
                "State store calls that failed or were skipped during an outage; the answer went "
                "on without the store (dedup and limits open, lease in-process).",
                ["operation"],
                registry=self.registry,
            ),
            OPERATIONS,
        )
        self.rate_limited_users = Fixed(
            Counter(
                "citebot_rate_limited_users",
                "Questions refused by the per-user rate limit.",
                ["platform"],
                registry=self.registry,
            ),
            platform,
        )

        self.refusals = Fixed(
            Counter(
                "citebot_refusals",
                "Questions refused by why (the refusals the answer log keeps): rate_limit, "
                "too_long, daily_questions, daily_questions_per_person, daily_tokens, "
                "daily_cost.",
                ["platform", "reason"],
                registry=self.registry,
            ),
            platform,
            LOGGED_REFUSALS,
        )
        self.votes = Fixed(
            Counter(
                "citebot_votes",
                "Votes on answers (a person's vote counted when it changed), up or down.",
                ["platform", "value"],
                registry=self.registry,
            ),
            platform,
            VOTES,
        )
        self.handoffs = Fixed(
            Counter(
                "citebot_handoffs",
                'Answers whose asker pressed "Ask a person" (once an answer).',
                ["platform"],
                registry=self.registry,
            ),
            platform,
        )
        self.down_reasons = Fixed(
            Counter(
                "citebot_down_reasons",
                "Why a 👎 was given, counted when its reason is (a 👎 given without one is not).",
                ["platform", "reason"],
                registry=self.registry,
            ),
            platform,
            REASONS,
        )
        self.quote_checks = Fixed(
            Counter(
                "citebot_quote_checks",
                "Cited quotes checked on their pages, by verdict: found, not_found, unreadable.",
                ["verdict"],
                registry=self.registry,
            ),
            (verdict.value for verdict in Verdict),
        )
        self.unfound_quotes = Fixed(
            Counter(
                "citebot_answers_quote_not_found",
                "Answers with at least one cited quote not found on its page.",
                ["platform"],
                registry=self.registry,
            ),
            platform,
        )
        self.tokens = Fixed(
            Counter(
                "citebot_tokens",
                "Upstream tokens billed, by kind (input, system, output), as the upstream "
                "reported them or as citebot estimated them (counted: reported, estimated).",
                ["platform", "provider", "kind", "counted"],
                registry=self.registry,
            ),
            platform,
            provider,
            KINDS,
            ("reported", "estimated"),
        )
        self.cost = Fixed(
            Counter(
                "citebot_cost_usd",
                "What answers cost, in US dollars: as the upstream reported it, else their "
                "tokens at the provider's prices (UPSTREAM_PRICES); answers of unknown price "
                "count nothing.",
                ["platform", "provider"],
                registry=self.registry,
            ),
            platform,
            provider,
        )

    def observe_answer(self, platform: str, outcome: Outcome, bill: Bill | None = None) -> None:
        self.answers.labels(platform, outcome.status).inc()
        if bill is not None:
            for kind, n in bill.tokens.items():
                counted = "estimated" if kind in bill.estimated else "reported"
                self.tokens.labels(platform, bill.provider, kind, counted).inc(n)
            if bill.cost:
                self.cost.labels(platform, bill.provider).inc(float(bill.cost))
        self.answer_seconds.labels(platform).observe(outcome.total_seconds)
        if outcome.first_text_seconds is not None:
            self.first_text.labels(platform).observe(outcome.first_text_seconds)
