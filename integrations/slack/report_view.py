"""The workspace's report in its admins' Home tab, under the settings: a heading naming the
period with a select of today, 7 or 30 days, then a section for each part of the report that
has something to say, in the admin's language (:attr:`~bot.i18n.wording.Wording.report_labels`,
as ``citebot report`` and Discord's card say them).

People's words (the most asked questions) and the sites are shown as plain text, which Slack
formats in no way and parses for no mention (mrkdwn has no escape for ``*`` or ``_``), each cut
short, ten at most; the busiest channels are channel links, which ping no one. Each section
stays within Block Kit's 3,000 characters whatever was asked, and the widest report in every
language passes the simulator's view checks (``tests/integrations/slack/test_pages.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.adapter import PERIODS, Period, Report, labelled, made_own, spending, utc_minute
from bot.i18n.wording import Wording
from bot.render.text import clip
from bot.render.thread import listed
from integrations.slack.blocks import Block, context, plain_text, section
from integrations.slack.limits import SECTION_TEXT
from integrations.slack.markdown import mrkdwn

__all__ = ["PERIOD_ACTION", "PERIOD_BLOCK", "report_blocks", "unread_report"]

PERIOD_ACTION = "citebot_report_period"
PERIOD_BLOCK = "report:period"
QUESTION = 100
"""Characters of a question in the most asked list (a question may hold 2,000)."""
SITE = 60
OPTION_ROOM = 75


def period_heading(words: Wording, since: float, until: float, period: Period) -> Block:
    """The report's heading, with the select that changes its period."""
    heading = words.report_period(
        words.settings_page.workspace, utc_minute(since), utc_minute(until)
    )
    names = words.report_periods()
    options = [{"text": plain_text(names[value], OPTION_ROOM), "value": value} for value in PERIODS]
    block = section(f"*{mrkdwn(heading)}*")
    block["block_id"] = PERIOD_BLOCK
    block["accessory"] = {
        "type": "static_select",
        "action_id": PERIOD_ACTION,
        "options": options,
        "initial_option": options[PERIODS.index(period)],
    }
    return block


def unread_report(words: Wording, since: float, until: float, period: Period) -> list[Block]:
    """The store could not be read: the heading (to try another period) and why."""
    return [
        {"type": "divider"},
        period_heading(words, since, until, period),
        context(mrkdwn(words.could_not_read_report())),
    ]


def report_blocks(report: Report, *, period: Period, words: Wording, kept: str) -> list[Block]:
    """``report`` of the workspace; ``kept`` is ``ANSWER_LOG`` (why no question is listed)."""
    blocks = [{"type": "divider"}, period_heading(words, report.since, report.until, period)]
    if report.unreadable:
        blocks.append(context(mrkdwn(words.records_unreadable(report.unreadable))))
    labels = words.report_labels
    if not report.questions:
        return [*blocks, context(mrkdwn(labels.nothing))]
    reasons = {str(k): v for k, v in words.reason_labels.reasons.items()}
    reasons["none"] = labels.no_reason
    up, down = words.number(report.up), words.number(report.down)
    asked = labelled(report.outcomes, labels.outcomes) + labelled(report.refusals, labels.refusals)
    asked += made_own(report, labels)
    parts = [
        _part(labels.answers, _counts(asked, words)),
        _part(labels.votes, [f"👍 *{up}* · 👎 *{down}*"]),
        _part(labels.down_reasons, _counts(labelled(report.down_reasons, reasons), words)),
        _part(labels.first_text, _first_text(report, words)),
        _part(
            labels.tokens,
            [f"{mrkdwn(label)}: *{mrkdwn(value)}*" for label, value in spending(report, words)],
        ),
        _part(
            labels.channels,
            [f"{_channel(where)} · *{words.number(n)}*" for where, n in report.busiest_channels],
        ),
    ]
    blocks += [part for part in parts if part is not None]
    blocks += _questions(report, words, kept)
    blocks += _unfound(report, words)
    if report.untrusted_sites:
        sites = [f"{clip(site, SITE)} · {words.number(n)}" for site, n in report.untrusted_sites]
        blocks += [section(f"*{mrkdwn(labels.untrusted)}*"), _plain(sites)]
    return blocks


def _counts(rows: Iterable[tuple[str, int]], words: Wording) -> list[str]:
    return [f"{mrkdwn(label)}: *{words.number(n)}*" for label, n in rows]


def _part(label: str, lines: list[str]) -> Block | None:
    """One part of the report: its label in bold, then its lines while they fit."""
    if not lines:
        return None
    heading = f"*{mrkdwn(label)}*"
    shown = listed(lines, line=str, room=SECTION_TEXT - len(heading) - 10, rest=lambda n: "…")
    return section("\n".join([heading, *shown]))


def _plain(lines: list[str]) -> Block:
    """Lines of people's words or sites: plain text, formatting nothing."""
    shown = listed(lines, line=str, room=SECTION_TEXT - 10, rest=lambda n: "…")
    return {"type": "section", "text": plain_text("\n".join(shown), SECTION_TEXT)}


def _questions(report: Report, words: Wording, kept: str) -> list[Block]:
    label = words.report_labels.top_questions
    if not report.questions_kept:
        return [section(f"*{mrkdwn(label)}*\n{mrkdwn(words.questions_not_kept(kept))}")]
    lines = [
        f"{rank}. {clip(' '.join(question.split()), QUESTION)} · {words.number(n)}"
        for rank, (question, n) in enumerate(report.top_questions, start=1)
    ]
    return [section(f"*{mrkdwn(label)}*"), _plain(lines)]


def _unfound(report: Report, words: Wording) -> list[Block]:
    labels = words.report_labels
    if not report.unfound_quotes:
        return []
    counted = section(f"*{mrkdwn(labels.unfound_quotes)}*: *{words.number(report.unfound_quotes)}*")
    if not report.unfound_sites:
        return [counted]
    sites = [f"{clip(site, SITE)} · {words.number(n)}" for site, n in report.unfound_sites]
    return [counted, context(mrkdwn(f"{labels.sites}:")), _plain(sites)]


def _first_text(report: Report, words: Wording) -> list[str]:
    shown = [
        f"{name} *{words.number(round(seconds, 2))}*"
        for name, seconds in (("p50", report.first_text_p50), ("p95", report.first_text_p95))
        if seconds is not None
    ]
    return [" · ".join(shown)] if shown else []


def _channel(place: str) -> str:
    """A reported place (``slack:TEAM/CHANNEL``) as a channel link, which pings no one."""
    channel = place.partition("/")[2]
    return f"<#{channel}>" if channel else "—"
