"""A place's report as ``report`` shows it in Teams: one Adaptive Card in the admin's language
(:attr:`~bot.i18n.wording.Wording.report_labels`, as ``citebot report`` says them), each
section a list of facts, people's questions and the sites clipped (a ``FactSet`` shows them as
written), and a button a period under it (today in UTC, the last 7 days, the last 30) that shows
the report again in its place."""

from __future__ import annotations

from collections.abc import Iterable

from microsoft_teams.cards import ActionSet, CardElement, Fact, FactSet, TextBlock

from bot.adapter import PERIODS, Report, labelled, made_own, spending, utc_minute
from bot.i18n.wording import Wording
from bot.render.ports import Payload
from bot.render.text import clip
from integrations.teams.cards import adaptive, attached, submit

__all__ = ["REPORT", "report_card"]

REPORT = "report"
"""``value.citebot`` of a period's button; ``period`` says which."""
QUESTION = 72
"""Characters of a question in the most asked list (a question may hold 2,000)."""
SITE = 60
PLACE = 80


def report_card(
    report: Report, *, place: str, period: str, wording: Wording, kept: str, team: bool = False
) -> Payload:
    """``report`` of the place named ``place``, with the period buttons (``period`` marked;
    ``team``: they show the team's report, asked from a channel); ``kept`` is ``ANSWER_LOG``
    (why no question is listed)."""
    labels = wording.report_labels
    title = wording.report_period(
        clip(place, PLACE), utc_minute(report.since), utc_minute(report.until)
    )
    body: list[CardElement] = [TextBlock(text=title, weight="Bolder", size="Medium", wrap=True)]
    if report.unreadable:
        body.append(TextBlock(text=wording.records_unreadable(report.unreadable), wrap=True))
    if not report.questions:
        body.append(TextBlock(text=labels.nothing, wrap=True))
    else:
        body += _sections(report, wording, kept)
    named = wording.report_periods()
    buttons = [
        submit(
            ("✓ " if each == period else "") + named[each],
            {"citebot": REPORT, "period": each, "team": team},
        )
        for each in PERIODS
    ]
    body.append(ActionSet(actions=list(buttons)))
    return attached(adaptive(body))


def _sections(report: Report, wording: Wording, kept: str) -> list[CardElement]:
    labels = wording.report_labels
    number = wording.number
    reasons = {str(k): v for k, v in wording.reason_labels.reasons.items()}
    reasons["none"] = labels.no_reason
    first_text = [
        (name, number(round(seconds, 2)))
        for name, seconds in (("p50", report.first_text_p50), ("p95", report.first_text_p95))
        if seconds is not None
    ]
    if report.questions_kept:
        top = [
            (f"{rank}. {clip(' '.join(question.split()), QUESTION)}", number(n))
            for rank, (question, n) in enumerate(report.top_questions, start=1)
        ]
    else:
        top = [(wording.questions_not_kept(kept), "")]
    unfound = [("", number(report.unfound_quotes))]
    unfound += [(clip(site, SITE), number(n)) for site, n in report.unfound_sites]
    sections: list[tuple[str, list[tuple[str, str]]]] = [
        (
            labels.answers,
            _counts(
                [
                    *labelled(report.outcomes, labels.outcomes),
                    *labelled(report.refusals, labels.refusals),
                    *made_own(report, labels),
                ],
                wording,
            ),
        ),
        (labels.votes, [("👍", number(report.up)), ("👎", number(report.down))]),
        (labels.down_reasons, _counts(labelled(report.down_reasons, reasons), wording)),
        (labels.top_questions, top),
        (labels.unfound_quotes, unfound),
        (labels.first_text, first_text),
        (labels.tokens, spending(report, wording)),
        (labels.untrusted, [(clip(site, SITE), number(n)) for site, n in report.untrusted_sites]),
    ]
    body: list[CardElement] = []
    for heading, rows in sections:
        if rows:
            body.append(TextBlock(text=heading, weight="Bolder", wrap=True, separator=True))
            body.append(FactSet(facts=[Fact(title=title, value=value) for title, value in rows]))
    return body


def _counts(rows: Iterable[tuple[str, int]], wording: Wording) -> list[tuple[str, str]]:
    return [(label, wording.number(n)) for label, n in rows]
