"""How well quote checking tells a real quote from a wrong one, on 130 labelled real pages.

``bench/quotes/`` holds real public pages (provenance in ``sources.json``) and labelled
(page, quote) pairs: exact quotes, typographic variants, quotes shared with another page
(found), paraphrases, altered quotes and quotes from another page (not found). A loopback server
serves the pages and :class:`~bot.verify.QuoteChecker` checks every pair as the bot would. Then
the fuzzy step's threshold is swept over the same pages' scores: the band where precision and
recall of "found" both peak is reported, and ``THRESHOLD`` must sit inside it.

Run: ``python -m bench.bench_quotes`` (``measure()`` gives the Results).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from aiohttp import web
from rapidfuzz import fuzz

from bench.report import Result
from bench.table import print_table, verdict
from bot.verify import Verdict
from bot.verify.checker import QuoteChecker
from bot.verify.fetch import FetchLimits
from bot.verify.match import THRESHOLD, Text, match
from bot.verify.page import Page
from bot.verify.read import PageTexts
from bot.verify.text import words

DATA = Path(__file__).with_name("quotes")
TARGET_PRECISION = 0.98
TARGET_RECALL = 0.95
SWEEP = [90.0 + step / 2 for step in range(21)]
BASELINE_THRESHOLD = 90.0
BASELINE = f"rapidfuzz partial_ratio ≥ {BASELINE_THRESHOLD:g} on the same words"


def pairs() -> list[dict[str, str]]:
    return list(json.loads((DATA / "pairs.json").read_text()))


def _content_type(name: str) -> str:
    return "text/html" if name.endswith(".html") else "text/plain"


async def _verdicts(items: Sequence[dict[str, str]]) -> list[Verdict]:
    """Every pair checked by the real checker, each page served over loopback HTTP."""

    async def page(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        return web.Response(
            body=(DATA / "pages" / name).read_bytes(),
            content_type=_content_type(name),
            charset="utf-8",
        )

    app = web.Application()
    app.router.add_get("/pages/{name}", page)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        port = runner.addresses[0][1]
        limits = FetchLimits(host_spacing=0.0)
        async with QuoteChecker(allow_hosts=[("127.0.0.1", port)], limits=limits) as checker:
            return await checker.check_all(
                [(f"http://127.0.0.1:{port}/pages/{item['page']}", item["quote"]) for item in items]
            )
    finally:
        await runner.cleanup()


def _scores(items: Sequence[dict[str, str]], *, plain: bool = False) -> list[float]:
    """The matcher's score for each pair, read from the same pages without HTTP; ``plain``:
    the baseline, rapidfuzz's character ``partial_ratio`` on the same normalised words."""
    texts: dict[str, tuple[Text, ...]] = {}
    for item in items:
        name = item["page"]
        if name not in texts:
            body = (DATA / "pages" / name).read_bytes()
            read = PageTexts(
                Page(
                    url=name,
                    content_type=_content_type(name),
                    charset="utf-8",
                    body=body,
                    complete=True,
                )
            )
            main = read.main()
            texts[name] = (read.whole(),) if main is None else (main, read.whole())
    if plain:
        return [
            max(fuzz.partial_ratio(words(item["quote"]), t.words) for t in texts[item["page"]])
            for item in items
        ]
    return [match(item["quote"], texts[item["page"]]).score for item in items]


def _rates(said: Sequence[bool], truth: Sequence[bool]) -> tuple[float, float]:
    """Precision and recall of ``said`` against ``truth``."""
    hits = sum(s and t for s, t in zip(said, truth, strict=True))
    return hits / max(sum(said), 1), hits / max(sum(truth), 1)


def measure() -> list[Result]:
    items = pairs()
    verdicts = asyncio.run(_verdicts(items))
    truth = [item["label"] == "found" for item in items]
    found = [v is Verdict.FOUND for v in verdicts]
    missing = [v is Verdict.NOT_FOUND for v in verdicts]
    precision, recall = _rates(found, truth)
    not_precision, not_recall = _rates(missing, [not t for t in truth])
    scores = _scores(items)
    sweep = {t: _rates([s >= t for s in scores], truth) for t in SWEEP}
    best = max((p, r) for p, r in sweep.values())
    band = [t for t, rates in sweep.items() if rates == best]
    plain = _scores(items, plain=True)
    baseline = _rates([s >= BASELINE_THRESHOLD for s in plain], truth)
    wrong = [
        {"kind": item["kind"], "quote": item["quote"][:80], "verdict": str(v), "score": s}
        for item, v, s in zip(items, verdicts, scores, strict=True)
        if (v is Verdict.FOUND) != (item["label"] == "found")
    ]
    detail: dict[str, Any] = {
        "pairs": len(items),
        "pages": len({item["page"] for item in items}),
        "kinds": dict(Counter(item["kind"] for item in items)),
        "verdicts": dict(Counter(str(v) for v in verdicts)),
        "threshold": THRESHOLD,
        "best_band": [min(band), max(band)],
        "highest_not_found_score": max(s for s, t in zip(scores, truth, strict=True) if not t),
        "lowest_found_score": min(s for s, t in zip(scores, truth, strict=True) if t),
        "sweep": {f"{t:g}": {"precision": p, "recall": r} for t, (p, r) in sweep.items()},
        "baseline_sweep": {
            f"{t:g}": dict(
                zip(("precision", "recall"), _rates([s >= t for s in plain], truth), strict=True)
            )
            for t in SWEEP
        },
        "wrong": wrong,
    }
    subject = f"{len(items)} pairs, threshold {THRESHOLD:g}"
    in_band = min(band) <= THRESHOLD <= max(band)
    return [
        Result(
            metric="quote check: precision of found",
            subject=subject,
            value=100 * precision,
            unit="%",
            target=f"≥ {TARGET_PRECISION:.0%}",
            met=precision >= TARGET_PRECISION and in_band,
            baseline=100 * baseline[0],
            baseline_name=BASELINE,
            detail=detail,
        ),
        Result(
            metric="quote check: recall of found",
            subject=subject,
            value=100 * recall,
            unit="%",
            target=f"≥ {TARGET_RECALL:.0%}",
            met=recall >= TARGET_RECALL,
            baseline=100 * baseline[1],
            baseline_name=BASELINE,
        ),
        *(
            Result(
                metric=f"quote check: {name} of not_found",
                subject=subject,
                value=100 * value,
                unit="%",
                target="–",
                met=True,
            )
            for name, value in (("precision", not_precision), ("recall", not_recall))
        ),
    ]


def main() -> None:
    results = measure()
    detail = results[0].detail
    print_table(
        f"Quote checking on {detail['pairs']} pairs from {detail['pages']} real pages",
        ("metric", "value", BASELINE, "target"),
        [
            (
                r.metric,
                verdict(f"{r.value:.1f}%", r.met),
                "–" if r.baseline is None else f"{r.baseline:.1f}%",
                r.target,
            )
            for r in results
        ],
    )
    print_table(
        "Threshold sweep (the fuzzy step's score, 0-100)",
        ("threshold", "precision of found", "recall of found", "baseline's", "baseline's"),
        [
            (
                t,
                f"{rates['precision']:.3f}",
                f"{rates['recall']:.3f}",
                f"{detail['baseline_sweep'][t]['precision']:.3f}",
                f"{detail['baseline_sweep'][t]['recall']:.3f}",
            )
            for t, rates in detail["sweep"].items()
        ],
    )
    print(
        f"best band {detail['best_band']}, threshold {detail['threshold']:g}; highest score of a "
        f"quote not on its page {detail['highest_not_found_score']:.1f}, lowest of one on it "
        f"{detail['lowest_found_score']:.1f}; wrong: {detail['wrong']}"
    )


if __name__ == "__main__":
    main()
