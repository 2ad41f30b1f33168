"""Every benchmark in one command: ``python -m bench`` prints one table of results against
their targets and same-run baselines, writes ``bench/results.json`` and draws
``docs/concurrency.png``.

``python -m bench latency formatter`` runs only the named suites (the capacity sweep alone
takes several minutes).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.report import Result

SUITES = (
    "latency",
    "formatter",
    "footnotes",
    "sse",
    "platforms",
    "rate_limits",
    "capacity",
    "quotes",
    "scale",
    "answerlog",
    "memory",
    "matching",
    "hostile",
)
"""Module ``bench.bench_<suite>`` each, with ``measure() -> list[Result]``."""
RESULTS = Path(__file__).with_name("results.json")
CURVE = Path(__file__).parents[1] / "docs" / "concurrency.png"


def machine() -> dict[str, Any]:
    """What the numbers were measured on, since every number depends on it."""
    cpu = (
        next(
            (
                line.split(":", 1)[1].strip()
                for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")
            ),
            platform.processor(),
        )
        if Path("/proc/cpuinfo").exists()
        else platform.processor()
    )
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.release()}",
    }


def _number(value: float | None, unit: str = "") -> str:
    if value is None:
        return "–"
    shown = f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.2f}".rstrip("0").rstrip(".")
    return f"{shown} {unit}".strip()


def table(results: list[Result]) -> Table:
    out = Table(title="citebot benchmarks (simulators on loopback)")
    for column in ("metric", "subject", "value", "baseline", "ratio", "target", "met"):
        out.add_column(column, justify="left" if column in ("metric", "subject") else "right")
    for result in results:
        baseline = (
            f"{_number(result.baseline, result.unit)} ({result.baseline_name})"
            if result.baseline is not None
            else "–"
        )
        ratio = f"{result.ratio:.2f}x" if result.ratio is not None else "–"
        out.add_row(
            result.metric,
            result.subject,
            _number(result.value, result.unit),
            baseline,
            ratio,
            result.target,
            "[green]yes[/]" if result.met else "[red]no[/]",
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "suites", nargs="*", metavar="suite", help=f"any of {', '.join(SUITES)} (default: all)"
    )
    suites = parser.parse_args(argv).suites or list(SUITES)
    if unknown := sorted(set(suites) - set(SUITES)):
        parser.error(f"unknown suite {', '.join(unknown)}; the suites are {', '.join(SUITES)}")
    console = Console(width=140)
    results: list[Result] = []
    seconds: dict[str, float] = {}
    for suite in suites:
        console.rule(f"bench.bench_{suite}")
        started = time.perf_counter()
        results += importlib.import_module(f"bench.bench_{suite}").measure()
        seconds[suite] = round(time.perf_counter() - started, 1)
    console.print(table(results))
    RESULTS.write_text(
        json.dumps(
            {
                "command": " ".join(
                    ["python -m bench", *(argv if argv is not None else sys.argv[1:])]
                ),
                "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "machine": machine(),
                "seconds": seconds,
                "results": [result.as_json() for result in results],
            },
            indent=2,
        )
        + "\n"
    )
    console.print(f"wrote {RESULTS}")
    if "capacity" in suites:
        from bench.bench_capacity import draw_curve

        draw_curve(results, CURVE)
        console.print(f"drew {CURVE}")
    return 0 if all(result.met for result in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
