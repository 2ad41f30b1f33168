"""How many answers one worker process carries on one core, what each costs in memory, and how
fast it stops.

The worker under test is ``citebot run`` itself (``bench/capacity_worker.py`` only picks the
upstream transport) in its own process pinned to core 0, on the Discord adapter with the real
pacing (``DISCORD_PACER``: writes ≥ 1 s apart per answer; Discord's buckets kept by the
core's write budget) and the default settings except ``MAX_IN_FLIGHT`` and
``RATE_LIMIT_PER_MINUTE`` (raised so nothing queues). The upstream and Discord simulators and
the load driver run in this process, pinned to core 1. One question per channel, so no
channel's bucket is shared across answers.

- **Knee**: for each step (50, 100, 150, 200, 300, 400, … answers in flight) a fresh worker is
  warmed up with 5 short answers, then asked ``N`` questions at 100 a second. Each answer is
  numbered words (``w0000 w0001 …``) at 50 a second, long enough to stay in flight to the end.
  After every answer has started and 3 s more, a 10 s window: for each flush of an answer (the
  requests of one paced write: an edit, plus the followup when it outgrew its message) the
  added latency is its arrival at the Discord simulator minus the upstream's send time of the
  newest word it carries (CLOCK_MONOTONIC is system-wide). p95 over every flush in the window.
  The sweep stops at the first step over 250 ms (or where not every answer started), then
  tries one step halfway back; the knee is the largest step within 250 ms.
- **Transports**: the sweep runs for httpx's own ``AsyncHTTPTransport`` and httpx-aiohttp's
  ``AiohttpTransport``; the comparison is the worker's CPU per answer in flight (ms of CPU per
  second) at 100 answers, a steadier number than the knee; the loser is the baseline.
- **Memory**: the worker's RSS (psutil) once warmed up and idle, against its RSS at the end of
  the window with 300 answers in flight (about 20 s of text each), divided by 300.
- **Shutdown**: 50 answers of 60 s in flight, SIGTERM to the worker, seconds until it exited
  (target: the default 20 s grace + 3 s); then every answer's last message must carry the
  "interrupted" note (or the answer ended): none left mid-stream. Default
  ``SHUTDOWN_GRACE_SECONDS`` (20).

The worker runs on uvloop's event loop when it is installed, as ``citebot run`` does
(``event_loop`` in the results' detail says which loop measured).

The measurement is bounded by the worker if the simulators' core stays well below busy: each
step records both cores' use (``sims_cpu``, ``worker_cpu`` in the results' detail).

Run: ``python -m bench.bench_capacity`` (about six minutes); ``python -m bench capacity`` also
draws ``docs/concurrency.png``.
"""

from __future__ import annotations

import asyncio
import math
import os
from pathlib import Path
from typing import Any

from bench.capacity_world import SIMS_CORE, Step, run_shutdown, run_step
from bench.report import Result
from bench.table import print_results, print_table, verdict
from bot.worker import event_loop_factory

__all__ = ["draw_curve", "measure"]

TRANSPORTS = ("httpx", "aiohttp")
STEPS = (50, 100, 150, 200, 300, 400, 500, 600, 800, 1000)
LIMIT_MS = 250.0
KNEE_TARGET = 300
COMPARE_AT = 100
MEMORY_AT = 300
SHUTDOWN_AT = 50
CURVE = Path(__file__).resolve().parent.parent / "docs" / "concurrency.png"


def _within(step: Step) -> bool:
    return step.p95_ms <= LIMIT_MS


async def sweep(transport: str) -> list[Step]:
    """Steps up until p95 passes the limit, then one step halfway back."""
    steps: list[Step] = []
    for in_flight in STEPS:
        steps.append(await run_step(transport, in_flight))
        if not _within(steps[-1]) and in_flight >= COMPARE_AT:
            break
    passing = [s.in_flight for s in steps if _within(s)]
    failing = [s.in_flight for s in steps if not _within(s)]
    if passing and failing and failing[0] - max(passing) > 50:
        steps.append(await run_step(transport, (failing[0] + max(passing)) // 2))
    return sorted(steps, key=lambda s: s.in_flight)


def knee(steps: list[Step]) -> int:
    return max((s.in_flight for s in steps if _within(s)), default=0)


def _point(step: Step) -> tuple[int, float | None]:
    return step.in_flight, None if math.isinf(step.p95_ms) else round(step.p95_ms, 1)


def _best(sweeps: dict[str, list[Step]]) -> str:
    """The higher knee; on a tie, the less CPU per answer."""
    return max(TRANSPORTS, key=lambda t: (knee(sweeps[t]), -_cpu_at(sweeps[t], COMPARE_AT)))


async def _measure() -> tuple[dict[str, list[Step]], Step, tuple[float, int, int]]:
    sweeps = {transport: await sweep(transport) for transport in TRANSPORTS}
    best = _best(sweeps)
    memory = next((s for s in sweeps[best] if s.in_flight == MEMORY_AT), None)
    if memory is None:
        memory = await run_step(best, MEMORY_AT)
    return sweeps, memory, await run_shutdown(best, SHUTDOWN_AT)


def _cpu_at(steps: list[Step], in_flight: int) -> float:
    return next(s.cpu_ms_per_answer_second for s in steps if s.in_flight == in_flight)


def measure() -> list[Result]:
    os.sched_setaffinity(0, {SIMS_CORE})
    try:
        sweeps, memory, (seconds, left, code) = asyncio.run(_measure())
    finally:
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
    knees = {t: knee(steps) for t, steps in sweeps.items()}
    best = _best(sweeps)
    other = next(t for t in TRANSPORTS if t != best)
    steps_detail = {
        t: [
            {
                "in_flight": s.in_flight,
                "p95_ms": _point(s)[1],
                "flushes": len(s.latencies_ms),
                "started": s.started,
                "worker_cpu": round(s.worker_cpu, 2),
                "sims_cpu": round(s.sims_cpu, 2),
            }
            for s in steps
        ]
        for t, steps in sweeps.items()
    }
    per_answer = (memory.rss_loaded - memory.rss_idle) / memory.in_flight / 1024
    loop = "uvloop" if event_loop_factory() is not None else "asyncio"
    return [
        Result(
            metric="answers in flight with p95 added latency ≤ 250 ms",
            subject=f"worker, {best}",
            value=knees[best],
            unit="answers",
            target=f"≥ {KNEE_TARGET}",
            met=knees[best] >= KNEE_TARGET,
            detail={
                "transport": best,
                "knees": knees,
                "event_loop": loop,
                "curves": {t: [_point(s) for s in steps] for t, steps in sweeps.items()},
                "steps": steps_detail,
            },
        ),
        Result(
            metric="worker CPU per answer in flight",
            subject=f"worker, {best}",
            value=round(_cpu_at(sweeps[best], COMPARE_AT), 2),
            unit="ms/s",
            target=f"below the other transport's (at {COMPARE_AT} in flight)",
            met=_cpu_at(sweeps[best], COMPARE_AT) <= _cpu_at(sweeps[other], COMPARE_AT),
            baseline=round(_cpu_at(sweeps[other], COMPARE_AT), 2),
            baseline_name=f"{other} transport",
            detail={
                "knees": knees,
                "event_loop": loop,
                "at_knee": {
                    t: round(_cpu_at(steps, knees[t]), 2) if knees[t] else None
                    for t, steps in sweeps.items()
                },
            },
        ),
        Result(
            metric="memory per answer in flight",
            subject=f"worker, {best}",
            value=round(per_answer, 1),
            unit="KiB",
            target="≤ 64 KiB",
            met=per_answer <= 64,
            detail={
                "in_flight": memory.in_flight,
                "rss_idle_kib": memory.rss_idle // 1024,
                "rss_loaded_kib": memory.rss_loaded // 1024,
            },
        ),
        Result(
            metric=f"SIGTERM to exit, {SHUTDOWN_AT} answers in flight",
            subject="worker",
            value=round(seconds, 1),
            unit="s",
            target="≤ 23 s",
            met=seconds <= 23,
            detail={"exit_code": code, "left_mid_stream": left},
        ),
        Result(
            metric="answers left mid-stream at shutdown",
            subject="worker",
            value=left,
            unit="answers",
            target="0",
            met=left == 0,
        ),
    ]


def draw_curve(results: list[Result], path: Path) -> None:
    """p95 added latency against answers in flight, one line per transport, the 250 ms limit
    and the knee marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    found = next(r for r in results if "curves" in r.detail)
    curves: dict[str, Any] = found.detail["curves"]
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=120)
    for transport, points in curves.items():
        shown = [(n, p95) for n, p95 in points if p95 is not None]
        axes.plot(
            [n for n, _ in shown],
            [p95 for _, p95 in shown],
            marker="o",
            label=f"{transport} (knee {found.detail['knees'][transport]})",
        )
    axes.axhline(LIMIT_MS, color="grey", linestyle="--", label=f"{LIMIT_MS:.0f} ms")
    best = found.detail["transport"]
    at = dict((n, p95) for n, p95 in curves[best] if p95 is not None).get(int(found.value))
    if at is not None:
        axes.plot(
            [found.value],
            [at],
            marker="*",
            markersize=16,
            color="crimson",
            linestyle="none",
            label=f"knee: {found.value:.0f} answers ({best})",
        )
    axes.set_yscale("log")
    axes.set_xlabel("answers in flight (one worker process, one core)")
    axes.set_ylabel("p95 added latency, ms")
    axes.set_title("Discord writes at 50 tokens/s, real pacing")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main() -> None:
    results = measure()
    knee_result = results[0]
    rows = []
    for transport, steps in knee_result.detail["steps"].items():
        for step in steps:
            p95 = step["p95_ms"]
            shown = "not all started" if p95 is None else f"{p95:,.0f} ms"
            rows.append(
                [
                    transport,
                    str(step["in_flight"]),
                    verdict(shown, p95 is not None and p95 <= LIMIT_MS),
                    str(step["flushes"]),
                    f"{step['worker_cpu']:.0%}",
                    f"{step['sims_cpu']:.0%}",
                ]
            )
    print_table(
        "p95 added latency by answers in flight",
        ["transport", "in flight", "p95", "flushes", "worker core", "sims core"],
        rows,
    )
    print_results("capacity", results)
    draw_curve(results, CURVE)


if __name__ == "__main__":
    main()
