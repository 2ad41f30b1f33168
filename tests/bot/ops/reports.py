"""The widest report, for each platform's test that its rendering keeps the platform's limits
in every language."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from bot.answerlog import LOGGED_REFUSALS
from bot.billing import KINDS
from bot.i18n.conversation_words import REASONS
from bot.ops.report import TOP, Report

__all__ = ["widest_report"]


def widest_report(place: str, channels: Sequence[str] = ()) -> Report:
    """Every part of a report of ``place`` at once, each list full, every word as long as it
    may be, with what a platform's formatting would read (mentions, markup, tags)."""
    question = "@everyone **Is grace** <@123> <b>earned</b>? " + "grace " * 400  # 2,000 characters
    return Report(
        since=0.0,
        until=86400.0 * 30,
        place=place,
        outcomes=dict.fromkeys(("answered", "interrupted", "failed", "filtered", "refused"), 10**9),
        refusals=dict.fromkeys(sorted(LOGGED_REFUSALS), 10**9),
        up=10**9,
        down=10**9,
        down_reasons={str(reason): 10**9 for reason in (*REASONS, "none")},
        questions_kept=True,
        top_questions=tuple((f"{n} {question}"[:2000], 10**9) for n in range(TOP)),
        unfound_quotes=10**9,
        unfound_sites=tuple((f"{n}{'x' * 60}.{'y' * 60}.example.org", 10**9) for n in range(TOP)),
        first_text_p50=12345.678,
        first_text_p95=23456.789,
        tokens={kind: {"reported": 10**12, "estimated": 10**12} for kind in KINDS},
        cost=Decimal("123456789012.345678"),
        unpriced=10**9,
        busiest_channels=tuple((channel, 10**9) for channel in channels),
        own_answers=10**9,
        handoffs=10**9,
        untrusted_sites=tuple((f"{n}{'u' * 60}.{'v' * 60}.example.net", 10**9) for n in range(TOP)),
        unreadable=10**9,
    )
