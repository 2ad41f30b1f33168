"""The report of a period, one function for every way it is shown: ``citebot report`` in a
terminal, and each platform's own (``PlatformKit.report``), which render the neutral
:class:`Report` this returns in their own way, with :attr:`~bot.i18n.wording.Wording.
report_labels`.

It reads the answer log a batch at a time and keeps only counts (and the first-text times, for
their percentiles), so a report over 100,000 answers holds no more than their counts.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from bot.billing import KINDS, reported_kinds
from bot.state import AnswerLogStore, LoggedAnswer
from bot.state.logged import PERSON

if TYPE_CHECKING:
    from bot.i18n.report_words import ReportLabels
    from bot.i18n.wording import Wording

__all__ = [
    "PERIODS",
    "TOP",
    "Period",
    "Report",
    "build_report",
    "labelled",
    "made_own",
    "percentile",
    "reported_since",
    "spending",
    "utc_minute",
]

TOP = 10
"""Rows of each ranked list (questions, sites, channels)."""
Period = Literal["today", "7d", "30d"]
PERIODS: tuple[Period, ...] = ("today", "7d", "30d")
"""The periods a platform's admins pick a report for (:meth:`Wording.report_periods` names
them)."""
_ASKED = ("answered", "interrupted", "failed", "filtered")
_TRAILING = re.compile(r"[\s?!.。？！…]+$")


@dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    """What was asked in a place (every place when ``place`` is None) from ``since`` until
    ``until`` (seconds since the epoch), and what became of it."""

    since: float
    until: float
    place: str | None
    outcomes: dict[str, int] = field(default_factory=dict)
    """``answered``, ``interrupted``, ``failed``, ``filtered``, ``refused`` -> how many."""
    refusals: dict[str, int] = field(default_factory=dict)
    """Why questions were refused -> how many."""
    up: int = 0
    down: int = 0
    down_reasons: dict[str, int] = field(default_factory=dict)
    """A 👎's reason (``bot.i18n.conversation_words.REASONS``, or ``none``) -> how many."""
    questions_kept: bool = False
    """Whether the log kept any question's words in the period (``ANSWER_LOG``)."""
    top_questions: tuple[tuple[str, int], ...] = ()
    unfound_quotes: int = 0
    """Answers with at least one cited quote not found on its page."""
    unfound_sites: tuple[tuple[str, int], ...] = ()
    """The sites of those quotes -> how many quotes not found there."""
    first_text_p50: float | None = None
    first_text_p95: float | None = None
    tokens: dict[str, dict[str, int]] = field(default_factory=dict)
    """Kind (``input``, ``system``, ``output``) -> ``reported`` and ``estimated`` tokens (as
    the upstream reported them; as citebot estimated them, where it reported none)."""
    cost: Decimal = Decimal(0)
    """US dollars, to the millionth: every answer of known price."""
    unpriced: int = 0
    """Answers that used tokens at a price nobody knows (their cost is not in :attr:`cost`)."""
    busiest_channels: tuple[tuple[str, int], ...] = ()
    """Places (``discord:GUILD/CHANNEL``) -> questions asked there."""
    own_answers: int = 0
    """Questions given the place's own answer instead of the sources'."""
    handoffs: int = 0
    """Answers whose asker asked for a person ("Ask a person")."""
    untrusted_sites: tuple[tuple[str, int], ...] = ()
    """Sites of cited sources outside their place's trusted sources -> how many."""
    unreadable: int = 0
    """Records of the period the store held that could not be read (damaged): left out of
    every count above, and said (:meth:`Wording.records_unreadable`). A channel's report
    counts its server's, whose channel cannot be read either."""

    @property
    def questions(self) -> int:
        """Every question of the period, refused ones included."""
        return sum(self.outcomes.values())

    def tokens_counted(self, counted: str) -> int:
        """Every kind's tokens, ``reported`` or ``estimated``."""
        return sum(kinds.get(counted, 0) for kinds in self.tokens.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "since": self.since,
            "until": self.until,
            "questions": self.questions,
            "outcomes": self.outcomes,
            "refusals": self.refusals,
            "votes": {"up": self.up, "down": self.down, "down_reasons": self.down_reasons},
            "top_questions": (
                [{"question": q, "count": n} for q, n in self.top_questions]
                if self.questions_kept
                else None
            ),
            "unfound_quotes": {
                "answers": self.unfound_quotes,
                "sites": [{"site": site, "count": n} for site, n in self.unfound_sites],
            },
            "first_text_seconds": {"p50": self.first_text_p50, "p95": self.first_text_p95},
            "tokens": {
                "reported": self.tokens_counted("reported"),
                "estimated": self.tokens_counted("estimated"),
                "by_kind": {kind: dict(counts) for kind, counts in self.tokens.items()},
            },
            "cost": {"usd": str(self.cost), "unpriced_answers": self.unpriced},
            "busiest_channels": [{"place": p, "count": n} for p, n in self.busiest_channels],
            "own_answers": self.own_answers,
            "handoffs": self.handoffs,
            "untrusted_sources": [{"site": site, "count": n} for site, n in self.untrusted_sites],
            "unreadable_records": self.unreadable,
        }


def reported_since(period: str, now: float) -> timedelta:
    """How far back ``period`` reaches from ``now``: today is the UTC day, as the daily limits
    count it; anything else the last 7 or 30 days (7 for any other value)."""
    if period == "today":
        start = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        return timedelta(seconds=now - start.timestamp())
    return timedelta(days=30 if period == "30d" else 7)


def utc_minute(seconds: float) -> str:
    """A report's time as its heading says it (in UTC, to the minute)."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M")


def spending(report: Report, wording: Wording) -> list[tuple[str, str]]:
    """The report's tokens and cost as every platform lists them, each row a label and its
    value in ``wording``'s language: each kind's tokens, those of them citebot estimated, the
    cost in US dollars, and the answers of unknown price left out of it."""
    labels = wording.report_labels
    rows = [
        (labels.kinds[kind], wording.number(sum(report.tokens[kind].values())))
        for kind in KINDS
        if kind in report.tokens
    ]
    if rows:
        rows.append((labels.estimated, wording.number(report.tokens_counted("estimated"))))
    if report.cost or (not report.unpriced and rows):
        rows.append((labels.cost, wording.dollars(report.cost)))
    if report.unpriced:
        rows.append((labels.unpriced, wording.number(report.unpriced)))
    return rows


def made_own(report: Report, labels: ReportLabels) -> list[tuple[str, int]]:
    """What a place's own answers and "Ask a person" did, as every platform lists them with
    the report's answers: the questions its own answers took, the answers whose asker asked
    for a person (each left out while none did)."""
    rows = [(labels.own_answers, report.own_answers), (labels.handoffs, report.handoffs)]
    return [(label, n) for label, n in rows if n]


def labelled(counts: dict[str, int], labels: dict[str, str]) -> list[tuple[str, int]]:
    """Each count under its label, in the labels' order, as a platform lists them; a key the
    labels do not know (a newer worker's) under its own name, after them."""
    known = [(labels[key], counts[key]) for key in labels if key in counts]
    return known + [(key, n) for key, n in counts.items() if key not in labels]


class _Tally:
    """The counts a report is made of, taken one record at a time."""

    def __init__(self) -> None:
        self.outcomes: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()
        self.votes: Counter[str] = Counter()
        self.down_reasons: Counter[str] = Counter()
        self.questions: Counter[str] = Counter()
        self.asked_as: dict[str, str] = {}
        self.unfound = 0
        self.sites: Counter[str] = Counter()
        self.first_text: list[float] = []
        self.tokens: dict[str, Counter[str]] = {}
        self.cost = Decimal(0)
        self.unpriced = 0
        self.channels: Counter[str] = Counter()
        self.own_answers = 0
        self.untrusted: Counter[str] = Counter()
        self.unreadable = 0

    def take(self, record: LoggedAnswer) -> None:
        self.outcomes[record.outcome] += 1
        if record.refused_by:
            self.refusals[record.refused_by] += 1
        for vote in record.votes:
            self.votes[vote.value] += 1
            if vote.value == "down":
                self.down_reasons[vote.reason or "none"] += 1
        if record.question:
            asked = _normalised(record.question)
            self.questions[asked] += 1
            self.asked_as.setdefault(asked, record.question.strip())
        self.own_answers += record.own_answer is not None
        self.untrusted.update(_site(s.url) for s in record.sources if s.trusted is False)
        unfound = [s.url for s in record.sources if s.verdict == "not_found"]
        if unfound:
            self.unfound += 1
            self.sites.update(_site(url) for url in unfound)
        if record.outcome in _ASKED and record.first_text_seconds is not None:
            self.first_text.append(record.first_text_seconds)
        reported = reported_kinds(record.reported)
        for kind in KINDS:
            for counted, n in (
                ("reported", reported.get(kind)),
                ("estimated", record.estimated.get(kind)),
            ):
                if n:
                    self.tokens.setdefault(kind, Counter())[counted] += n
        if record.cost is not None:
            self.cost += record.cost
        elif record.tokens:
            self.unpriced += 1
        if record.place is not None:
            self.channels[record.place] += 1

    def report(self, *, since: float, until: float, place: str | None, top: int) -> Report:
        return Report(
            since=since,
            until=until,
            place=place,
            outcomes=dict(self.outcomes),
            refusals=dict(self.refusals),
            up=self.votes["up"],
            down=self.votes["down"],
            down_reasons=dict(self.down_reasons.most_common()),
            questions_kept=bool(self.questions),
            top_questions=tuple(
                (self.asked_as[asked], n) for asked, n in self.questions.most_common(top)
            ),
            unfound_quotes=self.unfound,
            unfound_sites=tuple(self.sites.most_common(top)),
            first_text_p50=percentile(self.first_text, 50),
            first_text_p95=percentile(self.first_text, 95),
            tokens={kind: dict(self.tokens[kind]) for kind in KINDS if kind in self.tokens},
            cost=self.cost,
            unpriced=self.unpriced,
            busiest_channels=tuple(self.channels.most_common(top)),
            own_answers=self.own_answers,
            handoffs=self.votes[PERSON],
            untrusted_sites=tuple(self.untrusted.most_common(top)),
            unreadable=self.unreadable,
        )


async def build_report(
    log: AnswerLogStore,
    *,
    since: float,
    until: float,
    platform: str | None = None,
    server: str | None = None,
    channel: str | None = None,
    top: int = TOP,
) -> Report:
    """The report of what was asked from ``since`` until ``until``: everywhere, in one
    ``server`` of ``platform``, or in one ``channel`` of it. Raises
    :class:`~bot.state.StateUnavailable` when the store cannot be read."""
    tally = _Tally()
    async for batch in log.logged_answers(
        since=since, until=until, platform=platform, server=server
    ):
        tally.unreadable += batch.unreadable
        for record in _in_channel(batch, channel):
            tally.take(record)
    place = None
    if platform is not None and server is not None:
        place = f"{platform}:{server}" + (f"/{channel}" if channel else "")
    return tally.report(since=since, until=until, place=place, top=top)


def percentile(values: Sequence[float], percent: float) -> float | None:
    """The nearest-rank percentile: the smallest value that ``percent`` % of them do not
    exceed (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(math.ceil(percent / 100 * len(ordered)), 1) - 1]


def _in_channel(records: Iterable[LoggedAnswer], channel: str | None) -> Iterable[LoggedAnswer]:
    return records if channel is None else (r for r in records if r.channel == channel)


def _normalised(question: str) -> str:
    """A question as the most-asked list groups it: case, spacing, width and the closing
    punctuation aside."""
    folded = unicodedata.normalize("NFKC", question).casefold()
    return _TRAILING.sub("", " ".join(folded.split()))


def _site(url: str | None) -> str:
    host = urlsplit(url or "").hostname or "?"
    return host.removeprefix("www.")
