"""The report's embed at its widest, in every language, keeps Discord's limits; people's words in
it ping nobody and format nothing."""

from __future__ import annotations

import pytest

from bot.i18n.wording import LANGUAGES, Wording
from bot.ops.report import TOP, Report
from integrations.discord import limits
from integrations.discord.cards import embed_size
from integrations.discord.report_view import report_embed
from tests.bot.ops.reports import widest_report
from tests.integrations.discord.payloads import live_mentions

CHANNELS = [f"discord:81384788765712384/{4199 + n}" for n in range(TOP)]


def widest() -> Report:
    return widest_report("discord:81384788765712384", CHANNELS)


def channel_link(place: str) -> str:
    return f"<#{place.rpartition('/')[2]}>"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_widest_report_keeps_discords_limits_in_every_language(language: str) -> None:
    wording = Wording(language=language, platform="discord")
    server = "S" * 100  # a server's name is at most 100 characters
    embed = report_embed(widest(), server=server, place=channel_link, wording=wording, kept="full")
    assert len(embed["title"]) <= limits.EMBED_TITLE
    fields = embed.get("fields", [])
    assert len(fields) == 9
    for field in fields:
        assert 0 < len(field["name"]) <= limits.EMBED_FIELD_NAME
        assert 0 < len(field["value"]) <= limits.EMBED_FIELD_VALUE
    assert embed_size(embed) <= limits.EMBED_TOTAL
    texts = [embed["title"], *(f"{f['name']}\n{f['value']}" for f in fields)]
    mentions = [mention for text in texts for mention in live_mentions(text)]
    assert sorted(set(mentions)) == ["<#4"]  # only the channels' links, which ping no one
    questions = fields[3]["value"].split("\n")
    assert questions[0].startswith("1. 0 @\u200beveryone \\*\\*Is grace\\*\\* <\u200b@123>")
    assert len(questions) == TOP  # each cut short, so that all ten are listed
    assert len(fields[4]["value"].split("\n")) == 2 + TOP  # the count, the heading, ten sites


def test_a_count_the_labels_do_not_know_is_shown_under_its_own_name() -> None:
    report = Report(since=0, until=1, place=None, outcomes={"answered": 2, "mislaid": 1})
    embed = report_embed(report, server="S", place=str, wording=Wording(), kept="metadata")
    [answers, *_] = embed.get("fields", [])
    assert answers["value"] == "Answered: **2**\nmislaid: **1**"
