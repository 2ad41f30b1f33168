"""Runaway answers: footnote matching with 2,000 citations, and what caps one answer.

Timed (best of several runs, in this process): :func:`bot.render.numbering.resolve` and the
whole final render (``AnswerFormatter.finish`` for Discord) of an answer with 2,000 footnotes
and 2,000 citations, each against ten times the same work at 200 (what linear time predicts);
the target is at most 1.5x that. Counted: the Discord messages of a 300 KB answer and the
thread messages of 1,000 citations behind one footnote, with and without the caps
(``MAX_ANSWER_MESSAGES`` 10, ``MAX_CARDS`` 20).

Run: ``python -m bench.bench_footnotes``.
"""

from __future__ import annotations

from collections.abc import Callable

from bench.bench_formatter import REPEATS, best
from bench.report import Result
from bench.table import print_table, verdict
from bot.render.formatter import AnswerFormatter
from bot.render.numbering import resolve
from bot.upstream.citations import Citation
from bot.upstream.events import AnswerDone
from integrations.discord.presenter import DiscordPresenter

CITATIONS = 2000
SMALL = 200
TARGET = 1.5
MAX_MESSAGES, MAX_CARDS = 10, 20


def citations(n: int, *, one_footnote: bool = False) -> tuple[Citation, ...]:
    return tuple(
        Citation(
            number=1 if one_footnote else i,
            cited_text=f"Passage {i} of the source, quoted at some length.",
            title=f"Document {i}",
            source_url=f"https://www.vatican.va/doc/{i}.html",
            reference=str(i),
        )
        for i in range(1, n + 1)
    )


def answer_text(n: int) -> str:
    return " ".join(f"Sentence {i} says something.[^{i}]" for i in range(1, n + 1))


def matching(n: int) -> Callable[[], object]:
    uses = [(i, f"Sentence {i} says something.") for i in range(1, n + 1)]
    cited = citations(n)
    return lambda: resolve(uses, cited)


def final_render(n: int) -> Callable[[], object]:
    text = answer_text(n)
    done = AnswerDone(text=text, finish_reason="stop", citations=citations(n))

    def run() -> object:
        formatter = AnswerFormatter(
            DiscordPresenter(), max_messages=10 * MAX_MESSAGES, max_cards=MAX_CARDS
        )
        formatter.feed(text)
        return formatter.finish(done)

    return run


def timed(metric: str, make: Callable[[int], Callable[[], object]]) -> Result:
    large = best(make(CITATIONS))
    linear = best(make(SMALL)) * CITATIONS / SMALL
    return Result(
        metric=metric,
        subject="formatter",
        value=large * 1000,
        unit="ms",
        target=f"≤ {TARGET:g}x linear",
        met=large <= TARGET * linear,
        baseline=linear * 1000,
        baseline_name=f"{SMALL:,} citations, x{CITATIONS // SMALL}",
        detail={"citations": CITATIONS, "best_of": REPEATS},
    )


def counted(metric: str, run: Callable[[int | None, int | None], int], capped: int) -> Result:
    uncapped = run(None, None)
    shown = run(MAX_MESSAGES, MAX_CARDS)
    return Result(
        metric=metric,
        subject="discord",
        value=shown,
        unit="messages",
        target=f"≤ {capped}",
        met=shown <= capped,
        baseline=uncapped,
        baseline_name="no caps",
    )


def long_answer(messages: int | None, cards: int | None) -> int:
    text = ("A sentence of a very long answer, one of thousands. " * 20 + "\n\n") * 290
    formatter = AnswerFormatter(DiscordPresenter(), max_messages=messages, max_cards=cards)
    formatter.feed(text)
    return len(formatter.finish(AnswerDone(text=text, finish_reason="stop")).answer)


def one_footnote(messages: int | None, cards: int | None) -> int:
    text = "Everything agrees.[^1]"
    formatter = AnswerFormatter(DiscordPresenter(), max_messages=messages, max_cards=cards)
    formatter.feed(text)
    done = AnswerDone(text=text, finish_reason="stop", citations=citations(1000, one_footnote=True))
    return len(formatter.finish(done).thread)


def measure() -> list[Result]:
    return [
        timed(f"footnote matching, {CITATIONS:,} citations", matching),
        timed(f"final render, {CITATIONS:,} footnotes and citations", final_render),
        counted("answer messages, a 300 KB answer", long_answer, MAX_MESSAGES),
        counted("thread messages, 1,000 citations behind one footnote", one_footnote, 4),
    ]


def main() -> None:
    results = measure()
    print_table(
        "Runaway answers",
        ("what", "measured", "baseline", "ratio"),
        [
            (
                r.metric,
                verdict(f"{r.value:,.1f} {r.unit}", r.met),
                f"{r.baseline or 0:,.1f} {r.unit} ({r.baseline_name})",
                f"{r.ratio or 0:.2f}x",
            )
            for r in results
        ],
    )


if __name__ == "__main__":
    main()
