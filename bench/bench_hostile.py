"""Hostile input against one worker: its event loop and memory while quote checks read
pathological pages, and the upstream's sources parsed from pathological streams.

- **Stalls and memory.** A worker (``bench/hostile_worker.py``: the answer flow as ``citebot
  run`` runs it, with a 10 ms heartbeat on its event loop) keeps ``LONG`` answers streaming at
  50 words a second, then is asked ``CITING`` more, one every ``EVERY`` seconds, each citing
  the same three pathological pages served on loopback (8 MB of ``<div><p>`` blocks, 8 MB of
  links, 2 M characters of plain text checked against a 2,000-character quote) and an ordinary
  article. Its quote checks start as the worker starts them, in the background once the cards
  are posted; the pages are fetched with the service's limits (robots.txt, 0.5 s between
  requests to a host). The worker, and so its readers, run on core 0 (a worker with one core:
  the hardest case for its event loop), the simulators and this process on core 1. The
  heartbeat's lateness over ``SECONDS`` (p99 and max), the first text of the citing answers,
  and the peak resident memory of the worker and its children (psutil, every 50 ms) are set
  against the same run with ``QUOTE_CHECK=off``: ``PAIRS`` of runs, alternately, each figure
  the median of its runs (memory: the highest).
- **Parsing.** 20,000 ``url_citation`` annotations and a Groq answer of 20,000 ``[`` with ten
  search results, each through :class:`~bot.upstream.sources.Sources` as the client uses it,
  and a quote of 20,000 unclosed Markdown links read as its words (the checker's first step),
  against a part of each done as many times: linear work gives a ratio near 1.

Run: ``python -m bench.bench_hostile`` (about four minutes). ``BENCH_CITEBOT=DIR`` runs the
worker on another checkout's code (the "before" figures: a checkout of an older commit with
``bench/hostile_worker.py`` copied in).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
from aiohttp import web

from bench.capacity_world import SIMS_CORE, WORKER_CORE
from bench.report import Result
from bench.table import print_results
from bot.upstream.sources import Sources
from bot.verify.text import words
from tests.bot.upstream.streams import annotation, delta
from tests.sim.pages import ON_PAGE, Handler, article, running_site
from tests.sim.pathological import MB, blocks, links, made_up_words
from tests.sim.upstream import Numbered, UpstreamSim, answer, magisterium_citation

__all__ = ["measure"]

LONG = 100
CITING = 13
EVERY = 1.5
SECONDS = 20.0
PAIRS = 3
"""Runs with checks off and on, alternately: the machine's own noise moves single runs."""
WORDS = int((LONG * 0.05 + SECONDS + 15) * 50)
"""Long enough for the long answers to stream through the ramp and the whole measurement."""
TARGET_P99_MS = 20.0
ROOT = Path(__file__).resolve().parent.parent


def pages() -> dict[str, tuple[bytes, str, str]]:
    """Path: (body, content type, a quote the page does not hold; the article's it does)."""
    return {
        "/blocks": (blocks(8 * MB), "text/html", "word word word word and a word it lacks"),
        "/links": (links(8 * MB), "text/html", "link 7 link 8 link and no number"),
        "/long": (made_up_words(2_000_000, 1).encode(), "text/plain", made_up_words(2_000, 2)),
        "/article": (article(ON_PAGE).encode(), "text/html", ON_PAGE),
    }


async def run_worker(checks: bool) -> dict[str, Any]:
    """One worker run; its heartbeat and the peak memory of it and its readers."""
    code = os.environ.get("BENCH_CITEBOT", str(ROOT))
    upstream = UpstreamSim()
    async with running_site() as site, upstream.running():
        citations = []
        for n, (path, (body, content_type, quote)) in enumerate(pages().items()):
            site.routes[path] = _serving(body, content_type)
            citations.append(magisterium_citation(n, quote, title=path, url=site.url(path)))
        cited = answer(
            ["A gift.", *(f" Said here[^{n}]." for n in range(1, len(citations) + 1))],
            citations,
        )
        upstream.queue(*[Numbered(words=WORDS)] * LONG, *[cited] * CITING)
        env = {
            **{
                k: v
                for k, v in os.environ.items()
                if not k.startswith(("UPSTREAM_", "MAGISTERIUM_", "QUOTE_CHECK", "STATE_URL"))
            },
            "PYTHONPATH": code,
            "UPSTREAM_BASE_URL": upstream.base_url,
            "UPSTREAM_API_KEY": "sk-bench",
            "QUOTE_CHECK": "on" if checks else "off",
            "QUOTE_CHECK_ALLOW_HOSTS": site.allowance,
            "STATE_URL": "memory://",
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.hostile_worker",
            *map(str, (LONG, CITING, EVERY, SECONDS)),
            env=env,
            cwd=code,
            stdout=asyncio.subprocess.PIPE,
            preexec_fn=lambda: os.sched_setaffinity(0, {WORKER_CORE}),
        )
        sampler = asyncio.create_task(_peaks(process.pid))
        out, _ = await process.communicate()
        peaks = await sampler
    result: dict[str, Any] = json.loads(out)
    result.update({key: round(value / MB, 1) for key, value in peaks.items()})
    return result


def _serving(body: bytes, content_type: str) -> Handler:
    async def page(request: web.Request) -> web.Response:
        return web.Response(body=body, content_type=content_type, charset="utf-8")

    return page


async def _peaks(pid: int) -> dict[str, int]:
    """The largest resident memory of ``pid`` and its children together (and of each side
    alone), sampled every 50 ms until it exits."""
    peaks = {"peak_rss_mb": 0, "peak_worker_mb": 0, "peak_readers_mb": 0}
    with contextlib.suppress(psutil.NoSuchProcess):
        worker = psutil.Process(pid)
        while worker.is_running() and worker.status() != psutil.STATUS_ZOMBIE:
            own, readers = worker.memory_info().rss, 0
            for child in worker.children(recursive=True):
                with contextlib.suppress(psutil.NoSuchProcess):
                    readers += child.memory_info().rss
            for key, value in zip(peaks, (own + readers, own, readers), strict=True):
                peaks[key] = max(peaks[key], value)
            await asyncio.sleep(0.05)
    return peaks


def _summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's median over ``runs`` (the first text's over all their answers), and the
    highest of their memory peaks."""
    summary = {
        key: statistics.median(run[key] for run in runs)
        for key in ("p99_ms", "max_ms", "worker_cpu")
    }
    summary["first_text_median_ms"] = round(
        statistics.median(t for run in runs for t in run["first_text_ms"]), 1
    )
    for key in ("peak_rss_mb", "peak_worker_mb", "peak_readers_mb"):
        summary[key] = max(run[key] for run in runs)
    return summary


def _timed(work: Callable[[], object], repeat: int = 1) -> float:
    """Milliseconds ``work`` takes, ``repeat`` times over (best of three)."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        for _ in range(repeat):
            work()
        best = min(best, time.perf_counter() - began)
    return best * 1000


def _annotations(count: int) -> Callable[[], object]:
    chunk = delta(annotations=[annotation(n) for n in range(count)])

    def parse() -> object:
        sources = Sources()
        sources.take(chunk)
        return sources.citations("")

    return parse


def _brackets(count: int) -> Callable[[], object]:
    tool = {
        "index": 0,
        "search_results": {
            "results": [{"url": f"https://example.org/{n}", "title": "t"} for n in range(10)]
        },
    }
    chunk = delta(executed_tools=[tool])

    def parse() -> object:
        sources = Sources()
        sources.take(chunk)
        return sources.citations("[" * count)

    return parse


def _unclosed(count: int) -> Callable[[], object]:
    quote = "[a](" * count
    return lambda: words(quote)


def _parsing() -> list[Result]:
    """Each input whole against a part of it done as many times: linear work gives about 1x,
    quadratic the number of parts. The quote is cut in halves, not tenths: a string small
    enough for the CPU's cache is read several times faster a character, which is not the
    algorithm's doing."""
    rows = []
    for what, subject, make, parts in (
        ("upstream sources parsed: 20,000 url_citation annotations", "client", _annotations, 10),
        (
            "upstream sources parsed: a Groq answer of 20,000 '[' with 10 search results",
            "client",
            _brackets,
            10,
        ),
        ("a quote's words: 20,000 unclosed links '[a]('", "quote check", _unclosed, 2),
    ):
        whole, part = _timed(make(20_000)), _timed(make(20_000 // parts), repeat=parts)
        rows.append(
            Result(
                metric=what,
                subject=subject,
                value=round(whole, 1),
                unit="ms",
                target="≤ 1.5x (linear)",
                met=whole <= 1.5 * part,
                baseline=round(part, 1),
                baseline_name=f"1/{parts} of it, {parts} times",
            )
        )
    return rows


def measure() -> list[Result]:
    os.sched_setaffinity(0, {SIMS_CORE})
    try:
        runs = [
            asyncio.run(run_worker(checks=checks)) for _ in range(PAIRS) for checks in (False, True)
        ]
    finally:
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
    quiet, hostile = _summary(runs[0::2]), _summary(runs[1::2])

    def against_off(
        metric: str, key: str, unit: str, limit: float, *, relative: bool = False, **more: Any
    ) -> Result:
        """``hostile[key]`` held to ``limit`` (a multiple of ``quiet[key]`` if ``relative``)."""
        return Result(
            metric=metric,
            subject="worker",
            value=hostile[key],
            unit=unit,
            target=f"≤ {limit:g}x" if relative else f"≤ {limit:g} {unit}",
            met=hostile[key] <= (limit * quiet[key] if relative else limit),
            baseline=quiet[key],
            baseline_name="QUOTE_CHECK=off",
            **more,
        )

    return [
        against_off(
            f"event loop lateness, p99 of a 10 ms heartbeat ({LONG} answers in flight, checks "
            "reading hostile pages)",
            "p99_ms",
            "ms",
            TARGET_P99_MS,
            detail={"runs": runs, "long": LONG, "citing": CITING, "pairs": PAIRS},
        ),
        against_off("event loop lateness, max of the same heartbeat", "max_ms", "ms", 100.0),
        against_off(
            "first text of the answers asked meanwhile (median)",
            "first_text_median_ms",
            "ms",
            1.5,
            relative=True,
        ),
        against_off(
            "peak memory of the worker and its readers, same run", "peak_rss_mb", "MB", 400.0
        ),
        *_parsing(),
    ]


def main() -> None:
    results = measure()
    print_results("hostile input", results)
    for run in results[0].detail["runs"]:
        print(json.dumps({k: v for k, v in run.items() if k != "first_text_ms"}))


if __name__ == "__main__":
    main()
