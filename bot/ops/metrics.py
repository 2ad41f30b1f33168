"""Prometheus metrics of one worker, in a registry of its own (tests make many)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Histogram

if TYPE_CHECKING:
    from bot.answer import Outcome

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

    def observe_answer(self, platform: str, outcome: Outcome) -> None:
        self.answers.labels(platform, outcome.status).inc()
        self.answer_seconds.labels(platform).observe(outcome.total_seconds)
        if outcome.first_text_seconds is not None:
            self.first_text.labels(platform).observe(outcome.first_text_seconds)
