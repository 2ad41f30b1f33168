"""The periods a platform's report offers (today, 7 and 30 days) reach back as they say."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.ops.report import reported_since


def test_today_reaches_back_to_midnight_utc_and_the_others_by_days() -> None:
    now = datetime(2026, 12, 8, 14, 30, tzinfo=UTC).timestamp()
    assert reported_since("today", now) == timedelta(hours=14, minutes=30)
    assert reported_since("7d", now) == timedelta(days=7)
    assert reported_since("30d", now) == timedelta(days=30)
    assert reported_since("forged", now) == timedelta(days=7)  # as the commands default
