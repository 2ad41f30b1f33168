"""``citebot settings``: the operators' view of every place's settings, on the workers' store.

It opens ``STATE_URL`` itself (the workers' SQLite file or Redis), so a change is applied by
every worker within about a second, with nothing to restart. What it lists goes to stdout (a
table in a terminal, tab-separated lines when piped; ``export`` prints JSON), what it says
about it to stderr, in the command line's language as ``citebot ask`` finds it
(``CITEBOT_LANGUAGE``, else the locale). A bad place, key or value is one line
naming it and what is allowed, exit 2, and nothing changes; a store that does not answer is
exit 1. Changes are recorded as made by ``operator``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from bot.i18n.command_line import command_line_language
from bot.i18n.wording import Wording
from bot.places.document import MAX_DOCUMENT_BYTES, parsed_document
from bot.places.keys import KEYS, written
from bot.places.own import as_changed
from bot.places.place import PlaceForms
from bot.places.refused import SettingRefused
from bot.places.resolver import Places
from bot.printable import terminal_text
from bot.state import SettingChange, open_state, store_failure
from config import Settings

__all__ = ["OPERATOR", "Output", "describe", "settings_command", "with_places"]

OPERATOR = "operator"
"""Who the history says made the command line's changes."""
EXIT_FAILED = 1
EXIT_REFUSED = 2


def describe(parser: argparse.ArgumentParser, forms: PlaceForms) -> None:
    """The ``settings`` subcommand's arguments, on the parser ``bot.__main__`` made for it
    (``forms``: how the registered platforms write a place)."""
    actions = parser.add_subparsers(dest="settings_action", required=True, metavar="ACTION")
    place_help = forms.help()
    show = actions.add_parser("show", help="a place's settings, or every place that has some")
    show.add_argument("place", nargs="?", metavar="PLACE", help=place_help)
    change = actions.add_parser("set", help="set a setting in a place")
    change.add_argument("place", metavar="PLACE", help=place_help)
    change.add_argument("key", metavar="KEY", help=", ".join(KEYS))
    change.add_argument("value", nargs="+", metavar="VALUE", help="on/off, a number, none...")
    unset = actions.add_parser("unset", help="let a place take a setting from above again")
    unset.add_argument("place", metavar="PLACE", help=place_help)
    unset.add_argument("key", metavar="KEY", help=", ".join(KEYS))
    actions.add_parser("export", help="every place's settings as JSON, on stdout")
    load = actions.add_parser("import", help="set places' settings from export's JSON")
    load.add_argument("file", metavar="FILE", help="a file export wrote, or - for stdin")
    history = actions.add_parser("history", help="who changed what, and when")
    history.add_argument("place", nargs="?", metavar="PLACE", help=place_help)


async def settings_command(settings: Settings, args: argparse.Namespace, forms: PlaceForms) -> int:
    """Run ``citebot settings ACTION``, its places written in one of ``forms``; the exit
    status."""
    return await with_places(
        settings,
        lambda places, output: _ACTIONS[args.settings_action](places, args, output, forms),
    )


async def with_places(settings: Settings, run: Callable[[Places, Output], Awaitable[int]]) -> int:
    """Run a command on the places in ``STATE_URL``'s store (``citebot settings``, ``citebot
    answers``); its exit status, or 2 for a refused place, key or value (said in one line) and
    1 for a store that does not answer."""
    configured = settings.language if "language" in settings.model_fields_set else None
    wording = Wording(command_line_language(None, configured=configured, environ=os.environ))
    if settings.state_url.strip().startswith("memory:"):
        print(
            "citebot: STATE_URL: memory:// lives inside one process, so its settings would"
            " reach no worker; set the workers' STATE_URL (sqlite:///PATH or redis://...)",
            file=sys.stderr,
        )
        return EXIT_REFUSED
    output = Output(sys.stdout, wording)
    try:
        async with open_state(settings.state_url, timeout=settings.state_timeout_seconds) as state:
            return await run(Places(state, defaults=settings), output)
    except SettingRefused as refused:
        print(f"citebot: {refused.said(wording)}", file=sys.stderr)
        return EXIT_REFUSED
    except Exception as error:
        failed = store_failure(settings.state_url, error)
        if failed is None:
            raise
        print(f"citebot: {failed}", file=sys.stderr)
        return EXIT_FAILED


class Output:
    """Rows as a table in a terminal, as tab-separated lines when piped."""

    def __init__(self, stream: TextIO, wording: Wording) -> None:
        self.console = Console(file=stream, highlight=False)
        self.stream = stream
        self.wording = wording
        self.labels = wording.settings_labels

    def rows(self, heads: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """Rows of what admins wrote, without the characters a terminal would act on."""
        rows = [[terminal_text(cell) for cell in row] for row in rows]
        if not self.console.is_terminal:
            for row in rows:
                print("\t".join(row), file=self.stream)
            return
        table = Table()
        for index, head in enumerate(heads):
            table.add_column(Text(head), no_wrap=index == 0)
        for row in rows:  # Text: an admin's "[red]" is shown as written, never as markup
            table.add_row(*map(Text, row))
        self.console.print(table)

    def say(self, sentence: str) -> None:
        print(sentence, file=sys.stderr)

    def change(self, change: SettingChange) -> None:
        old, new = (
            self.labels.not_set if v is None else as_changed(change.key, v)
            for v in (change.old, change.new)
        )
        said = f"{change.place} {change.key}: {old} → {new}"
        print(terminal_text(said), file=self.stream)


async def _show(places: Places, args: argparse.Namespace, output: Output, forms: PlaceForms) -> int:
    labels = output.labels
    if args.place is None:
        every = await places.export()
        if not every:
            output.say(output.wording.no_place_settings())
        rows = [
            [place, key, value]
            for place, keys in every.items()
            for key, value in keys.items()
            if isinstance(value, str)  # own answers: citebot answers list PLACE
        ]
        output.rows([labels.place, labels.setting, labels.value], rows)
        return 0
    effective = await places.of(forms.parse(args.place))
    rows = []
    for key in KEYS:
        where = effective.set_in[key]
        rows.append(
            [key, written(getattr(effective, key)), labels.default if where is None else str(where)]
        )
    output.rows([labels.setting, labels.value, labels.set_in], rows)
    return 0


async def _set(places: Places, args: argparse.Namespace, output: Output, forms: PlaceForms) -> int:
    made = await places.set(forms.parse(args.place), args.key, " ".join(args.value), by=OPERATOR)
    _report([] if made is None else [made], output)
    return 0


async def _unset(
    places: Places, args: argparse.Namespace, output: Output, forms: PlaceForms
) -> int:
    made = await places.unset(forms.parse(args.place), args.key, by=OPERATOR)
    _report([] if made is None else [made], output)
    return 0


async def _export(
    places: Places, args: argparse.Namespace, output: Output, forms: PlaceForms
) -> int:
    print(json.dumps(await places.export(), ensure_ascii=False, indent=2), file=output.stream)
    return 0


async def _import(
    places: Places, args: argparse.Namespace, output: Output, forms: PlaceForms
) -> int:
    try:
        read = await asyncio.to_thread(_read, args.file)
    except OSError as error:
        output.say(f"citebot: {args.file}: {error.strerror}")
        return EXIT_REFUSED
    document = parsed_document(read)
    made = await places.import_(document, forms=forms, by=OPERATOR)
    _report(made, output)
    if made:
        output.say(output.wording.settings_changed(len(made)))
    return 0


async def _history(
    places: Places, args: argparse.Namespace, output: Output, forms: PlaceForms
) -> int:
    labels = output.labels
    changes = await places.history(None if args.place is None else forms.parse(args.place))
    if not changes:
        output.say(output.wording.no_setting_changes())
    rows = [
        [
            datetime.fromtimestamp(change.at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            change.by,
            change.place,
            change.key,
            as_changed(change.key, change.old) or labels.not_set,
            as_changed(change.key, change.new) or labels.not_set,
        ]
        for change in changes
    ]
    heads = [labels.when, labels.by, labels.place, labels.setting, labels.before, labels.after]
    output.rows(heads, rows)
    return 0


def _read(file: str) -> bytes:
    """The file's bytes, one past the most a document may be (so that more is seen)."""
    if file == "-":
        return sys.stdin.buffer.read(MAX_DOCUMENT_BYTES + 1)
    with Path(file).open("rb") as opened:
        return opened.read(MAX_DOCUMENT_BYTES + 1)


def _report(made: Sequence[SettingChange], output: Output) -> None:
    if not made:
        output.say(output.wording.nothing_changed())
    for change in made:
        output.change(change)


_Action = Callable[[Places, argparse.Namespace, Output, PlaceForms], Awaitable[int]]
_ACTIONS: dict[str, _Action] = {
    "show": _show,
    "set": _set,
    "unset": _unset,
    "export": _export,
    "import": _import,
    "history": _history,
}
