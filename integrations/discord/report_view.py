"""The report of a server as ``/citebot report`` shows it: one embed, its title the server and
the period, a field for each part of the report that has something to say, in the admin's
language (:attr:`~bot.i18n.wording.Wording.report_labels`, as ``citebot report`` says them).

Everything fits Discord's limits whatever was asked: the questions (people's words, escaped,
their mentions inert) and the sites are listed while they fit a field's 1,024 characters, each
cut short, so the embed stays far inside the 6,000 a message may carry. Channels are shown as
their links (``<#id>``), which never ping anyone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.adapter import Period, Report, labelled, made_own, spending, utc_minute
from bot.i18n.wording import Wording
from bot.render.text import clip
from integrations.discord import limits
from integrations.discord.markdown import DiscordMarkdown
from integrations.discord.types import Embed, EmbedField

__all__ = ["PERIODS", "report_embed"]

PERIODS: dict[Period, str] = {"today": "today (UTC)", "7d": "last 7 days", "30d": "last 30 days"}
"""The periods an admin may pick, as the command offers them."""
QUESTION = 72
"""Characters of a question in the most asked list, escaped (a question may hold 2,000): ten
such lines fit a field's 1,024 characters with their counts."""
SITE = 60
_MARKDOWN = DiscordMarkdown()


def report_embed(
    report: Report, *, server: str, place: Callable[[str], str], wording: Wording, kept: str
) -> Embed:
    """``report`` of the server named ``server``; ``place`` names a reported channel
    (``discord:GUILD/CHANNEL``), ``kept`` is ``ANSWER_LOG`` (why no question is listed)."""
    labels = wording.report_labels
    title = wording.report_period(server, utc_minute(report.since), utc_minute(report.until))
    embed: Embed = {"title": clip(title, limits.EMBED_TITLE)}
    if report.unreadable:  # a footer is plain text
        embed["footer"] = {"text": wording.records_unreadable(report.unreadable)}
    if not report.questions:
        embed["description"] = _text(labels.nothing)
        return embed
    asked = labelled(report.outcomes, labels.outcomes)
    asked += labelled(report.refusals, labels.refusals)
    asked += made_own(report, labels)
    reasons = {str(k): v for k, v in wording.reason_labels.reasons.items()}
    reasons["none"] = labels.no_reason
    up, down = wording.number(report.up), wording.number(report.down)
    fields = [
        _field(labels.answers, _counts(asked, wording)),
        _field(labels.votes, f"👍 **{up}** · 👎 **{down}**"),
        _field(labels.down_reasons, _counts(labelled(report.down_reasons, reasons), wording)),
        _field(labels.top_questions, _questions(report, wording, kept)),
        _field(labels.unfound_quotes, _unfound(report, wording)),
        _field(labels.first_text, _first_text(report, wording)),
        _field(
            labels.tokens,
            _fitted(
                f"{_text(label)}: **{_text(value)}**" for label, value in spending(report, wording)
            ),
        ),
        _field(
            labels.channels,
            _fitted(
                f"{place(where)} · **{wording.number(n)}**" for where, n in report.busiest_channels
            ),
        ),
        _field(
            labels.untrusted,
            _fitted(
                f"- {_shown(site, SITE)} · **{wording.number(n)}**"
                for site, n in report.untrusted_sites
            ),
        ),
    ]
    embed["fields"] = [field for field in fields if field["value"]]
    return embed


def _text(words: str) -> str:
    return _MARKDOWN.escape(words, line_start=True)


def _shown(words: str, limit: int) -> str:
    """Someone's words escaped (no formatting, mentions inert), then cut to ``limit``: a cut
    inside an escape leaves a backslash or a ``<`` before the ellipsis, which shows as is."""
    return clip(_MARKDOWN.escape(words, line_start=False), limit)


def _field(name: str, value: str) -> EmbedField:
    return {"name": clip(name, limits.EMBED_FIELD_NAME), "value": value, "inline": False}


def _counts(rows: Iterable[tuple[str, int]], wording: Wording) -> str:
    return _fitted(f"{_text(label)}: **{wording.number(n)}**" for label, n in rows)


def _fitted(lines: Iterable[str]) -> str:
    """The lines while they fit a field's value."""
    kept: list[str] = []
    room = limits.EMBED_FIELD_VALUE
    for line in lines:
        if len(line) + (1 if kept else 0) > room:
            break
        room -= len(line) + (1 if kept else 0)
        kept.append(line)
    return "\n".join(kept)


def _questions(report: Report, wording: Wording, kept: str) -> str:
    if not report.questions_kept:
        return _text(wording.questions_not_kept(kept))
    return _fitted(
        f"{rank}. {_shown(' '.join(question.split()), QUESTION)} · **{wording.number(n)}**"
        for rank, (question, n) in enumerate(report.top_questions, start=1)
    )


def _unfound(report: Report, wording: Wording) -> str:
    sites = [
        f"- {_shown(site, SITE)} · **{wording.number(n)}**" for site, n in report.unfound_sites
    ]
    heading = [f"**{wording.number(report.unfound_quotes)}**"]
    if sites:
        heading.append(f"{_text(wording.report_labels.sites)}:")
    return _fitted([*heading, *sites])


def _first_text(report: Report, wording: Wording) -> str:
    shown = [
        f"{name} **{wording.number(round(seconds, 2))}**"
        for name, seconds in (("p50", report.first_text_p50), ("p95", report.first_text_p95))
        if seconds is not None
    ]
    return " · ".join(shown)
