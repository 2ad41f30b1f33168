"""``citebot report``: the operators' report, from the answer log in the workers' store.

``--since 7d`` (days, hours or minutes; 7 days by default), ``--place PLACE`` (a server, or one
of its channels; every place by default), ``--format table`` (rich tables, the default),
``csv`` (one ``section,key,value`` row a number: a spreadsheet's, no cell of which it runs) or
``json`` (the report as ``PlatformKit.report`` gives it, exact). What askers wrote reaches a
terminal without the characters it would act on (:mod:`bot.printable`). Words are the
command line's language, as ``citebot ask`` finds it. A bad argument is one line, exit 2; a
store that does not answer is exit 1.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import sys
import time
from collections.abc import Iterator
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from bot.i18n.command_line import command_line_language
from bot.i18n.wording import Wording
from bot.ops.report import Report, build_report, made_own, spending, utc_minute
from bot.places import PlaceForms, SettingRefused
from bot.printable import spreadsheet_cell, terminal_text
from bot.state import open_state, store_failure
from config import Settings

__all__ = ["FORMATS", "describe", "parse_since", "report_command"]

FORMATS = ("table", "csv", "json")
EXIT_FAILED = 1
EXIT_REFUSED = 2
_PERIOD = re.compile(r"(\d{1,6})\s*([dhm])")
_SECONDS = {"d": 86400, "h": 3600, "m": 60}


def describe(parser: argparse.ArgumentParser, forms: PlaceForms) -> None:
    """The ``report`` subcommand's arguments, on the parser ``bot.__main__`` made for it
    (``forms``: how the registered platforms write a place)."""
    parser.add_argument("--since", default="7d", help="how far back: 7d, 24h, 30m (default 7d)")
    parser.add_argument("--place", metavar="PLACE", help=forms.help())
    parser.add_argument("--format", default="table", help="table (default), csv or json")


def parse_since(text: str) -> float | None:
    """Seconds in ``7d``, ``24h`` or ``30m``; None when ``text`` is no such period."""
    match = _PERIOD.fullmatch(text.strip().lower())
    if match is None or int(match[1]) == 0:
        return None
    return int(match[1]) * _SECONDS[match[2]]


async def report_command(settings: Settings, args: argparse.Namespace, forms: PlaceForms) -> int:
    """Run ``citebot report``, its place written in one of ``forms``; the exit status."""
    configured = settings.language if "language" in settings.model_fields_set else None
    wording = Wording(command_line_language(None, configured=configured, environ=os.environ))
    seconds = parse_since(args.since)
    refusal = None
    if seconds is None:
        refusal = wording.not_a_period(repr(args.since))
    elif args.format not in FORMATS:
        refusal = wording.not_a_report_format(repr(args.format))
    elif settings.state_url.strip().startswith("memory:"):
        refusal = (
            "STATE_URL: memory:// lives inside one process, so it holds no worker's answers;"
            " set the workers' STATE_URL (sqlite:///PATH or redis://...)"
        )
    try:
        place = forms.parse(args.place) if args.place is not None else None
    except SettingRefused as refused:
        refusal = refusal or refused.said(wording)
    if refusal is not None or seconds is None:
        print(f"citebot: {refusal}", file=sys.stderr)
        return EXIT_REFUSED
    until = time.time()
    try:
        async with open_state(settings.state_url, timeout=settings.state_timeout_seconds) as state:
            report = await build_report(
                state,
                since=until - seconds,
                until=until,
                platform=place.platform if place else None,
                server=place.server if place else None,
                channel=place.channel if place else None,
            )
    except Exception as error:
        failed = store_failure(settings.state_url, error)
        if failed is None:
            raise
        print(f"citebot: {failed}", file=sys.stderr)
        return EXIT_FAILED
    if args.format == "json":
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    elif args.format == "csv":
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(("section", "key", "value"))
        writer.writerows([spreadsheet_cell(cell) for cell in row] for row in csv_rows(report))
    else:
        print_tables(report, wording, settings.answer_log, sys.stdout)
    return 0


def csv_rows(report: Report) -> Iterator[tuple[str, str, str]]:
    """The report as ``section, key, value`` rows, its keys as the JSON names them."""
    yield "period", "since", utc_minute(report.since)
    yield "period", "until", utc_minute(report.until)
    yield "period", "place", report.place or ""
    for outcome, n in report.outcomes.items():
        yield "outcomes", outcome, str(n)
    for reason, n in report.refusals.items():
        yield "refusals", reason, str(n)
    yield "votes", "up", str(report.up)
    yield "votes", "down", str(report.down)
    for reason, n in report.down_reasons.items():
        yield "down_reasons", reason, str(n)
    for question, n in report.top_questions:
        yield "top_questions", question, str(n)
    yield "unfound_quotes", "answers", str(report.unfound_quotes)
    for site, n in report.unfound_sites:
        yield "unfound_sites", site, str(n)
    for name, seconds in (("p50", report.first_text_p50), ("p95", report.first_text_p95)):
        yield "first_text_seconds", name, "" if seconds is None else str(seconds)
    for kind, counts in report.tokens.items():
        yield "tokens", kind, str(sum(counts.values()))
    for counted in ("reported", "estimated"):
        yield "tokens", counted, str(report.tokens_counted(counted))
    yield "cost", "usd", str(report.cost)
    yield "cost", "unpriced_answers", str(report.unpriced)
    for channel, n in report.busiest_channels:
        yield "busiest_channels", channel, str(n)
    yield "own_answers", "answers", str(report.own_answers)
    yield "handoffs", "answers", str(report.handoffs)
    for site, n in report.untrusted_sites:
        yield "untrusted_sources", site, str(n)
    yield "records", "unreadable", str(report.unreadable)


def print_tables(report: Report, wording: Wording, mode: str, stream: TextIO) -> None:
    """The report as a terminal shows it: its period, then a small table a section."""
    console = Console(file=stream, highlight=False)
    labels = wording.report_labels
    console.print(
        Text(
            wording.report_period(report.place, utc_minute(report.since), utc_minute(report.until))
        ),
        style="bold",
    )
    if report.unreadable:
        console.print(Text(wording.records_unreadable(report.unreadable)), style="yellow")
    if not report.questions:
        console.print(Text(labels.nothing))
        return
    down_labels = wording.reason_labels.reasons
    reasons = {str(k): v for k, v in down_labels.items()} | {"none": labels.no_reason}
    seconds = [("p50", report.first_text_p50), ("p95", report.first_text_p95)]
    sections: list[tuple[str, list[tuple[str, str]]]] = [
        (
            labels.answers,
            [(labels.outcomes.get(o, o), wording.number(n)) for o, n in report.outcomes.items()]
            + [(labels.refusals.get(r, r), wording.number(n)) for r, n in report.refusals.items()]
            + [(label, wording.number(n)) for label, n in made_own(report, labels)],
        ),
        (labels.votes, [("👍", wording.number(report.up)), ("👎", wording.number(report.down))]),
        (
            labels.down_reasons,
            [(reasons.get(r, r), wording.number(n)) for r, n in report.down_reasons.items()],
        ),
        (labels.top_questions, [(q, wording.number(n)) for q, n in report.top_questions]),
        (
            labels.unfound_quotes,
            [(labels.answers, wording.number(report.unfound_quotes))]
            + [(f"{labels.sites}: {site}", wording.number(n)) for site, n in report.unfound_sites],
        ),
        (
            labels.first_text,
            [(name, wording.number(round(s, 2))) for name, s in seconds if s is not None],
        ),
        (labels.tokens, spending(report, wording)),
        (labels.channels, [(p, wording.number(n)) for p, n in report.busiest_channels]),
        (labels.untrusted, [(site, wording.number(n)) for site, n in report.untrusted_sites]),
    ]
    for title, rows in sections:
        if title == labels.top_questions and not report.questions_kept:
            console.print(Text(f"{title}: {wording.questions_not_kept(mode)}"))
            continue
        if not rows:
            continue
        console.print(Text(title, style="bold"))  # a title in the table would wrap at its width
        table = Table()
        table.add_column(Text(labels.what))
        table.add_column(Text(labels.count), justify="right")
        for what, count in rows:  # Text: a question's "[red]" is shown as asked, not as markup
            table.add_row(Text(terminal_text(what)), Text(count))
        console.print(table)
