"""Own answers: how often a question gets the right own answer (recall), and how often an own
answer it gets is the right one (precision), in every language citebot speaks.

The set (``bench/own_answers/``) holds, for each language, five questions a community answers
itself (Sunday Mass, the office's hours, confession, the group's rules, First Communion), three
or four paraphrases of each that should get its answer, and near-misses that share their words
but ask something else ("why is Mass on Sunday", "when is Mass on Saturday", "who made the
rules"), which should get none. Each probe is matched against all five, as a place's question
is. Precision counts every own answer served: one served to a near-miss, or the wrong one to a
paraphrase, is a miss of precision (worse than asking the sources, so the target is 1.0).

The baseline is the obvious matcher the field reaches for first, RapidFuzz's
``token_set_ratio`` on the case-folded text at the threshold where it does best (its F1),
measured on the same set in the same run. The threshold sweep shows what each threshold of
citebot's own similarity would give.

Run: ``python -m bench matching`` (a second).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, utils

from bench.own_answers import LANGUAGES, Set, load
from bench.report import Result
from bench.table import print_table, verdict
from bot.matching import THRESHOLD, best_match, read_question

Matcher = Callable[[str, Sequence[tuple[int, str]], str, float], tuple[int, float] | None]
"""A question, the own questions by index, their language and a threshold -> the index
matched and its score."""
SWEEP = (0.6, 0.67, 0.7, 0.75, 0.8, 0.85, 0.9, 1.0)
BASELINE_SWEEP = (60.0, 70.0, 75.0, 80.0, 85.0, 90.0, 95.0)


@dataclass(frozen=True, slots=True)
class Score:
    served: int
    right: int
    paraphrases: int

    @property
    def precision(self) -> float:
        return self.right / self.served if self.served else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.paraphrases if self.paraphrases else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def __add__(self, other: Score) -> Score:
        return Score(
            self.served + other.served,
            self.right + other.right,
            self.paraphrases + other.paraphrases,
        )


def _citebot(
    question: str, candidates: Sequence[tuple[int, str]], language: str, threshold: float
) -> tuple[int, float] | None:
    written = [(index, kept, language) for index, kept in candidates]
    return best_match(question, written, threshold=threshold)


def _token_set(
    question: str, candidates: Sequence[tuple[int, str]], language: str, threshold: float
) -> tuple[int, float] | None:
    scored = [
        (fuzz.token_set_ratio(question, kept, processor=utils.default_process), index)
        for index, kept in candidates
    ]
    best, index = max(scored)
    return (index, best) if best >= threshold else None


def score(matcher: Matcher, cases: Set, threshold: float) -> Score:
    candidates = list(enumerate(cases.questions))
    served = right = 0
    for probe in cases.probes:
        found = matcher(probe.question, candidates, cases.language, threshold)
        if found is not None:
            served += 1
            right += found[0] == probe.expected
    paraphrases = sum(probe.expected is not None for probe in cases.probes)
    return Score(served, right, paraphrases)


def _total(matcher: Matcher, sets: Sequence[Set], threshold: float) -> Score:
    total = Score(0, 0, 0)
    for cases in sets:
        total += score(matcher, cases, threshold)
    return total


def _cost(rounds: int = 200) -> tuple[float, float]:
    """Microseconds to match one question against 200 own answers (the most a channel and its
    server keep; each own question read once, as a worker caches them), and to read it alone:
    the work every question asked in a place with own answers costs."""
    kept = [(n, f"When is the {n}th meeting of group {n} on Sunday?", "en") for n in range(200)]
    best_match("warm the cache", kept)
    asked = [f"What time is the {n}th gathering of the choir on Saturday?" for n in range(rounds)]
    started = time.perf_counter()
    for question in asked:
        best_match(question, kept)
    matching = (time.perf_counter() - started) / rounds * 1e6
    read_question.cache_clear()
    started = time.perf_counter()
    for question in asked:
        read_question(question, "en")
    reading = (time.perf_counter() - started) / rounds * 1e6
    return matching, reading


def measure() -> list[Result]:
    sets = [load(language) for language in LANGUAGES]
    started = time.perf_counter()
    by_language = {cases.language: score(_citebot, cases, THRESHOLD) for cases in sets}
    probes = sum(len(cases.probes) for cases in sets)
    per_probe = (time.perf_counter() - started) / probes * 1e6
    overall = _total(_citebot, sets, THRESHOLD)
    baseline_threshold = max(BASELINE_SWEEP, key=lambda t: _total(_token_set, sets, t).f1)
    baseline = _total(_token_set, sets, baseline_threshold)
    rows = [
        [language, f"{s.precision:.2f}", f"{s.recall:.2f}", f"{s.served}", f"{s.paraphrases}"]
        for language, s in by_language.items()
    ]
    print_table(
        f"own answers matched at {THRESHOLD} (bot.matching)",
        ["language", "precision", "recall", "served", "paraphrases"],
        [*rows, ["all", f"{overall.precision:.2f}", f"{overall.recall:.2f}", "", ""]],
    )
    sweep = {t: _total(_citebot, sets, t) for t in SWEEP}
    print_table(
        "threshold sweep (all languages)",
        ["threshold", "precision", "recall", "F1"],
        [
            [f"{t}", f"{s.precision:.2f}", f"{s.recall:.2f}", f"{s.f1:.2f}"]
            for t, s in sweep.items()
        ],
    )
    print_table(
        f"baseline: token_set_ratio ≥ {baseline_threshold:g}",
        ["matcher", "precision", "recall"],
        [
            [
                "bot.matching",
                verdict(f"{overall.precision:.2f}", overall.precision == 1.0),
                f"{overall.recall:.2f}",
            ],
            ["token_set_ratio", f"{baseline.precision:.2f}", f"{baseline.recall:.2f}"],
        ],
    )
    detail = {
        "threshold": THRESHOLD,
        "languages": {
            language: {"precision": s.precision, "recall": s.recall, "served": s.served}
            for language, s in by_language.items()
        },
        "sweep": {str(t): {"precision": s.precision, "recall": s.recall} for t, s in sweep.items()},
        "microseconds_a_probe": round(per_probe, 1),
    }
    per_question, reading = _cost()
    return [
        Result(
            metric="own answers: a question against 200 (a channel's and its server's)",
            subject="matching",
            value=per_question,
            unit="µs",
            target="≤ 5 ms",
            met=per_question <= 5000,
            baseline=reading,
            baseline_name="reading the question alone",
        ),
        Result(
            metric="own answers: precision",
            subject="matching",
            value=overall.precision,
            unit="",
            target="1.00",
            met=overall.precision == 1.0,
            baseline=baseline.precision,
            baseline_name=f"token_set_ratio ≥ {baseline_threshold:g}",
            detail=detail,
        ),
        Result(
            metric="own answers: recall",
            subject="matching",
            value=overall.recall,
            unit="",
            target="≥ 0.80",
            met=overall.recall >= 0.8,
            baseline=baseline.recall,
            baseline_name=f"token_set_ratio ≥ {baseline_threshold:g}",
        ),
    ]


if __name__ == "__main__":
    measure()
