"""How much streaming costs the formatter, against formatting the same answer in one piece.

A 20,000-character answer is fed in 1-character deltas with ``render()`` every 250 characters
(as the pacer flushes) and ``finish()`` at the end, then fed whole and finished. Both are timed
in this process (best of several runs); the ratio should stay at or below 3.

Run: ``python -m bench.bench_formatter`` (``measure()`` gives one Result per presenter).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from bench.report import Result
from bench.table import print_table, verdict
from bot.render.formatter import AnswerFormatter
from bot.render.ports import Presenter
from bot.upstream.citations import Citation
from bot.upstream.events import AnswerDone
from integrations.discord.presenter import DiscordPresenter
from integrations.slack.presenter import SlackPresenter
from integrations.telegram.presenter import TelegramPresenter
from integrations.terminal.presenter import TerminalPresenter

LENGTH = 20_000
FLUSH_EVERY = 250
REPEATS = 5
TARGET = 3.0

_PARAGRAPHS = [
    "The Church teaches that **faith and reason** are like two wings on which the human "
    "spirit rises to the contemplation of truth.[^1] Grace does not destroy nature but "
    "perfects it.[^2][^3] See [the Catechism](https://www.vatican.va/ccc) for more.",
    "- Charity is the form of all the virtues.[^4]\n- Hope looks to what is not yet seen.[^5]"
    "\n- Faith is the assent of the mind to truth revealed.[^1]",
    "> Scripture and Tradition flow from the same divine wellspring.[^6]",
    "```python\nsources = [c for c in citations if c.url]\nprint(sources[1])\n```",
    "### A short heading\n\nThe *Summa* asks whether `a[1]` is a footnote; it is not.[^7]",
]


def answer_text(length: int = LENGTH) -> str:
    parts: list[str] = []
    size = 0
    while size < length:
        part = _PARAGRAPHS[len(parts) % len(_PARAGRAPHS)]
        parts.append(part)
        size += len(part) + 2
    return "\n\n".join(parts)[:length]


def citations() -> tuple[Citation, ...]:
    return tuple(
        Citation(
            number=n,
            cited_text=f"Quoted passage {n}. " * 20,
            title=f"Doc {n}",
            source_url=f"https://www.vatican.va/doc/{n}.html",
            reference=str(n),
        )
        for n in range(1, 8)
    )


def streamed(presenter: Presenter, text: str, done: AnswerDone) -> None:
    formatter = AnswerFormatter(presenter)
    for index, char in enumerate(text, 1):
        formatter.feed(char)
        if index % FLUSH_EVERY == 0:
            formatter.render()
    formatter.render()
    formatter.finish(done)


def whole(presenter: Presenter, text: str, done: AnswerDone) -> None:
    formatter = AnswerFormatter(presenter)
    formatter.feed(text)
    formatter.finish(done)


def best(run: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def measure() -> list[Result]:
    """Per presenter: streamed formatting time against the one-piece baseline (target ≤ 3x)."""
    text = answer_text()
    done = AnswerDone(text=text, finish_reason="stop", citations=citations())
    results = []
    for presenter in (
        DiscordPresenter(),
        SlackPresenter(),
        TelegramPresenter(),
        TerminalPresenter(),
    ):
        stream_time = best(partial(streamed, presenter, text, done))
        whole_time = best(partial(whole, presenter, text, done))
        formatter = AnswerFormatter(presenter)
        formatter.feed(text)
        results.append(
            Result(
                metric="formatting cost",
                subject=presenter.name,
                value=stream_time * 1000,
                unit="ms",
                target=f"≤ {TARGET:g}x",
                met=stream_time <= TARGET * whole_time,
                baseline=whole_time * 1000,
                baseline_name="the same answer in one piece",
                detail={
                    "characters": len(text),
                    "flush_every": FLUSH_EVERY,
                    "best_of": REPEATS,
                    "messages": len(formatter.finish(done).answer),
                },
            )
        )
    return results


def main() -> None:
    results = measure()
    print_table(
        f"Formatting a {LENGTH:,}-character answer (best of {REPEATS})",
        ("presenter", "1-char deltas, render every 250", "one piece", "ratio", "messages"),
        [
            (
                r.subject,
                f"{r.value:.1f} ms",
                f"{r.baseline or 0:.1f} ms",
                verdict(f"{r.ratio or 0:.2f}x", r.met),
                str(r.detail["messages"]),
            )
            for r in results
        ],
    )


if __name__ == "__main__":
    main()
