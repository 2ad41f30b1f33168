"""The report in the App Home, read for the workspace's admins.

Only the settings page shows it (:mod:`.admin`: its admission is the page's, a workspace admin
or owner, or a ``SLACK_ADMIN_USERS`` user, and so is choosing its period), so whoever else
opens the Home tab reads nothing of it. The Home tab is drawn again whenever an admin looks at
another channel or changes a setting; those redraws reuse the report read in the last minute
(a report over a month of answers is read whole), while opening the tab or choosing a period
reads it afresh. The period travels in the view's ``private_metadata``, so whichever worker
draws the tab next keeps it.
"""

from __future__ import annotations

import logging
import time

from bot.adapter import PERIODS, Kit, Period, Report, StateUnavailable, Venue, reported_since
from bot.i18n.wording import Wording
from integrations.slack.blocks import Block
from integrations.slack.report_view import report_blocks, unread_report

__all__ = ["DEFAULT_PERIOD", "REUSED", "Reports", "period_of"]

log = logging.getLogger(__name__)

DEFAULT_PERIOD: Period = "7d"
REUSED = 60.0
"""Seconds a report read for a redraw (a context change, a setting changed) is shown again."""


def period_of(value: object) -> Period:
    """A period as a view or an action carries it; the default for anything else."""
    return next((period for period in PERIODS if period == value), DEFAULT_PERIOD)


class Reports:
    def __init__(self, kit: Kit) -> None:
        self._kit = kit
        self._read: dict[tuple[str, Period], tuple[float, Report]] = {}

    async def blocks(
        self, team: str, words: Wording, period: Period, *, fresh: bool
    ) -> list[Block]:
        """The report's part of an admin's Home tab (``fresh``: read now, whatever was read
        before)."""
        now = time.time()
        read = self._read.get((team, period))
        if fresh or read is None or now - read[0] > REUSED:
            try:
                report = await self._kit.report(Venue(server=team), reported_since(period, now))
            except StateUnavailable:
                since = now - reported_since(period, now).total_seconds()
                return unread_report(words, since, now, period)
            read = (now, report)
            self._read[(team, period)] = read
        kept = self._kit.settings.answer_log
        return report_blocks(read[1], period=period, words=words, kept=kept)
