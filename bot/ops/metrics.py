"""Prometheus metrics of one worker, in a registry of its own (tests make many).

They count what the answer log's reports count (answers by outcome, refusals, votes and the
👎's reasons, quote checks, time to first text, tokens and their cost), without the words or
the places; a provider is labelled by the name the configuration gives it, never by anything
an upstream sent (bot/billing.py), so the labels stay a small fixed set:
``docs/grafana-dashboard.json`` is built on them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Histogram

if TYPE_CHECKING:
    from bot.answer import Outcome
    from bot.billing import Bill

__all__ = ["Metrics"]


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.answers = Counter(
            "citebot_answers",
            "Answers by outcome.",
            ["platform", "outcome"],
            registry=self.registry,
        )
        self.first_text = Histogram(
            "citebot_first_text_seconds",
            "From the question to the first visible text.",
            ["platform"],
            registry=self.registry,
            buckets=(0.25, 0.5, 1, 2, 4, 8, 15, 30, 60),
        )
        self.answer_seconds = Histogram(
            "citebot_answer_seconds",
            "From the question to the finished answer.",
            ["platform"],
            registry=self.registry,
            buckets=(1, 2, 5, 10, 20, 40, 80, 160),
        )
        self.platform_429s = Counter(
            "citebot_platform_rate_limited",
            "429s received from a platform.",
            ["platform"],
            registry=self.registry,
        )
        self.upstream_retries = Counter(
            "citebot_upstream_retries",
            "Upstream attempts retried before the first token.",
            registry=self.registry,
        )
        self.dedup_hits = Counter(
            "citebot_dedup_hits",
            "Platform events dropped as already answered.",
            ["platform"],
            registry=self.registry,
        )
        self.state_failures = Counter(
            "citebot_state_failures",
            "State store calls that failed or were skipped during an outage; the answer went on "
            "without the store (dedup and limits open, lease in-process).",
            ["operation"],
            registry=self.registry,
        )
        self.rate_limited_users = Counter(
            "citebot_rate_limited_users",
            "Questions refused by the per-user rate limit.",
            ["platform"],
            registry=self.registry,
        )

        self.refusals = Counter(
            "citebot_refusals",
            "Questions refused by why (the refusals the answer log keeps): rate_limit, "
            "too_long, daily_questions, daily_questions_per_person, daily_tokens, daily_cost.",
            ["platform", "reason"],
            registry=self.registry,
        )
        self.votes = Counter(
            "citebot_votes",
            "Votes on answers (a person's vote counted when it changed), up or down.",
            ["platform", "value"],
            registry=self.registry,
        )
        self.down_reasons = Counter(
            "citebot_down_reasons",
            "Why a 👎 was given, counted when its reason is (a 👎 given without one is not).",
            ["platform", "reason"],
            registry=self.registry,
        )
        self.quote_checks = Counter(
            "citebot_quote_checks",
            "Cited quotes checked on their pages, by verdict: found, not_found, unreadable.",
            ["verdict"],
            registry=self.registry,
        )
        self.unfound_quotes = Counter(
            "citebot_answers_quote_not_found",
            "Answers with at least one cited quote not found on its page.",
            ["platform"],
            registry=self.registry,
        )
        self.tokens = Counter(
            "citebot_tokens",
            "Upstream tokens billed, by kind (input, system, output), as the upstream reported "
            "them or as citebot estimated them (counted: reported, estimated).",
            ["platform", "provider", "kind", "counted"],
            registry=self.registry,
        )
        self.cost = Counter(
            "citebot_cost_usd",
            "What answers cost, in US dollars: as the upstream reported it, else their tokens "
            "at the provider's prices (UPSTREAM_PRICES); answers of unknown price count nothing.",
            ["platform", "provider"],
            registry=self.registry,
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
