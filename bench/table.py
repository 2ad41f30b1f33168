"""One way for a benchmark module run on its own to print its detailed table."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bench.report import Result

__all__ = ["print_results", "print_table", "verdict"]


def print_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """The first column names the row (left), the rest are numbers (right)."""
    table = Table(title=title)
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index == 0 else "right")
    for row in rows:
        table.add_row(*row)
    Console(width=120).print(table)


def verdict(text: str, met: bool) -> str:
    """``text`` coloured by whether its target was met."""
    style = "green" if met else "red"
    return f"[{style}]{text}[/{style}]"


def print_results(title: str, results: Sequence[Result]) -> None:
    """One row a result: its value coloured by its target, its baseline, the target."""
    print_table(
        title,
        ["metric", "value", "baseline", "target"],
        [
            [
                escape(r.metric),
                verdict(f"{r.value:g} {r.unit}", r.met),
                f"{r.baseline:g} {r.unit} ({r.baseline_name})" if r.baseline is not None else "–",
                r.target,
            ]
            for r in results
        ],
    )
