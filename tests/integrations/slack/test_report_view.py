"""The report in an admin's Home tab at its widest, in every language, below the widest settings
page, is a view the simulated Slack takes; people's words in it format nothing and ping nobody,
and every one of the ten most asked questions and sites is listed."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n.wording import LANGUAGES, Wording
from bot.ops.report import PERIODS, TOP, Report
from integrations.slack.admin_view import home_view, settings_page
from integrations.slack.forgetting import forget_button
from integrations.slack.report_view import PERIOD_ACTION, report_blocks, unread_report
from tests.bot.ops.reports import widest_report
from tests.integrations.slack.test_pages import CHANNEL, TEAM, pings_in, widest_page
from tests.sim.slack.views import check_view

SERVER = f"slack:{TEAM}"
CHANNELS = [f"{SERVER}/C{n:010d}" for n in range(TOP)]


def _plain_lines(blocks: list[dict[str, Any]]) -> list[list[str]]:
    """The plain-text sections' lines: people's words and the sites."""
    return [
        block["text"]["text"].split("\n")
        for block in blocks
        if block["type"] == "section" and block["text"]["type"] == "plain_text"
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_widest_report_in_every_language_is_a_home_tab_slack_takes(language: str) -> None:
    words = Wording(language, "slack")
    page = settings_page(widest_page(language), words)
    for period in PERIODS:
        report = report_blocks(
            widest_report(SERVER, CHANNELS), period=period, words=words, kept="full"
        )
        view = home_view(page + report + forget_button(words), team=TEAM, channel=CHANNEL)
        assert check_view(view, surface="home") is None, (language, period)
        assert pings_in(view) == set(), (language, period)
        [select] = [b["accessory"] for b in report if b.get("accessory")]
        assert select["action_id"] == PERIOD_ACTION
        assert select["initial_option"]["text"]["text"] == words.report_periods()[period]
    questions, sites, untrusted = _plain_lines(report)
    assert len(questions) == TOP  # each cut short, so that all ten are listed
    assert len(sites) == TOP
    assert len(untrusted) == TOP
    assert questions[0].startswith("1. 0 @\u200beveryone **Is grace** <\u200b@123> <b>earned</b>?")
    for channel in CHANNELS:
        assert f"<#{channel.rpartition('/')[2]}>" in str(report)


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_empty_or_unread_report_says_so(language: str) -> None:
    words = Wording(language, "slack")
    empty = Report(since=0.0, until=86400.0, place=SERVER)
    for blocks, said in (
        (report_blocks(empty, period="today", words=words, kept="metadata"), "nothing"),
        (unread_report(words, 0.0, 86400.0, "30d"), "unread"),
    ):
        view = home_view(blocks, team=TEAM, channel=None)
        assert check_view(view, surface="home") is None, (language, said)
    shown = str(report_blocks(empty, period="today", words=words, kept="metadata"))
    assert words.report_labels.nothing.replace("&", "&amp;") in shown


def test_questions_not_kept_are_said_with_the_setting() -> None:
    words = Wording("en", "slack")
    report = Report(since=0.0, until=1.0, place=SERVER, outcomes={"answered": 1})
    shown = str(report_blocks(report, period="7d", words=words, kept="metadata"))
    assert words.questions_not_kept("metadata") in shown
