"""A group's report as ``/report`` shows it: one HTML message in the admin's language
(:attr:`~bot.i18n.wording.Wording.report_labels`, as ``citebot report`` says them), within
Telegram's 4,096 characters as Telegram counts them (after the HTML is parsed), whatever was
asked: people's questions and the sites are escaped, their mentions inert, each cut short, and
a line that would not fit is left out. A Telegram place is its group, so the report has no
list of channels. Buttons under it choose the period again (``rp:today``, ``rp:7d``,
``rp:30d``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.adapter import PERIODS, Report, labelled, made_own, spending, utc_minute
from bot.i18n.wording import Wording
from bot.render.text import clip
from integrations.telegram.chatting import keyboard
from integrations.telegram.limits import TEXT
from integrations.telegram.markdown import TelegramHTML

__all__ = ["PERIOD", "period_buttons", "report_text"]

PERIOD = "rp:"
"""``callback_data`` prefix of a period's button."""
QUESTION = 72
"""Characters of a question in the most asked list (a question may hold 2,000)."""
SITE = 60
_HTML = TelegramHTML()


def period_buttons(current: str, words: Wording) -> dict[str, Any]:
    """One button a period, ✓ the one shown."""
    named = words.report_periods()
    return keyboard(
        [
            [
                (("✓ " if period == current else "") + named[period], f"{PERIOD}{period}")
                for period in PERIODS
            ]
        ]
    )


def report_text(report: Report, *, group: str, wording: Wording, kept: str) -> str:
    """``report`` of the group named ``group``; ``kept`` is ``ANSWER_LOG`` (why no question is
    listed)."""
    labels = wording.report_labels
    title = wording.report_period(group, utc_minute(report.since), utc_minute(report.until))
    lines = [f"<b>{_text(title)}</b>"]
    if report.unreadable:
        lines.append(_text(wording.records_unreadable(report.unreadable)))
    if not report.questions:
        return "\n".join([*lines, _text(labels.nothing)])
    number = wording.number
    reasons = {str(k): v for k, v in wording.reason_labels.reasons.items()}
    reasons["none"] = labels.no_reason
    first_text = " · ".join(
        f"{name} <b>{number(round(seconds, 2))}</b>"
        for name, seconds in (("p50", report.first_text_p50), ("p95", report.first_text_p95))
        if seconds is not None
    )
    sections: list[tuple[str, list[str]]] = [
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
        (labels.votes, [f"👍 <b>{number(report.up)}</b> · 👎 <b>{number(report.down)}</b>"]),
        (labels.down_reasons, _counts(labelled(report.down_reasons, reasons), wording)),
        (labels.top_questions, _questions(report, wording, kept)),
        (labels.unfound_quotes, _unfound(report, wording)),
        (labels.first_text, [first_text] if first_text else []),
        (
            labels.tokens,
            [
                f"{_text(label)}: <b>{_text(value)}</b>"
                for label, value in spending(report, wording)
            ],
        ),
        (
            labels.untrusted,
            [
                f"• {_text(clip(site, SITE))} · <b>{wording.number(n)}</b>"
                for site, n in report.untrusted_sites
            ],
        ),
    ]
    for heading, body in sections:
        if body:
            lines += ["", f"<b>{_text(heading)}</b>", *body]
    return _fitted(lines)


def _text(words: str) -> str:
    return _HTML.escape(words, line_start=True)


def _counts(rows: Iterable[tuple[str, int]], wording: Wording) -> list[str]:
    return [f"{_text(label)}: <b>{wording.number(n)}</b>" for label, n in rows]


def _questions(report: Report, wording: Wording, kept: str) -> list[str]:
    if not report.questions_kept:
        return [_text(wording.questions_not_kept(kept))]
    return [
        f"{rank}. {_text(clip(' '.join(question.split()), QUESTION))} · <b>{wording.number(n)}</b>"
        for rank, (question, n) in enumerate(report.top_questions, start=1)
    ]


def _unfound(report: Report, wording: Wording) -> list[str]:
    lines = [f"<b>{wording.number(report.unfound_quotes)}</b>"]
    if report.unfound_sites:
        lines.append(f"{_text(wording.report_labels.sites)}:")
    lines += [
        f"• {_text(clip(site, SITE))} · <b>{wording.number(n)}</b>"
        for site, n in report.unfound_sites
    ]
    return lines


def _fitted(lines: list[str]) -> str:
    """The lines that fit one message, as Telegram counts it: any that would not is left out
    (a list's last rows, at the widest)."""
    kept: list[str] = []
    room = TEXT
    for line in lines:
        length = _HTML.length(line) + (1 if kept else 0)
        if length > room:
            continue
        kept.append(line)
        room -= length
    return "\n".join(kept)
