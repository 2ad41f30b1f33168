"""The set a place's own answers are matched on: in each language citebot speaks, a few own
questions with paraphrases that should get their answer and near-misses (questions that share
their words but ask something else) that should get none.

One file a language (``en.txt``, ``pt_BR.txt``): a line ``= QUESTION`` is an own answer's
question, the ``+ QUESTION`` lines after it its paraphrases, a ``- QUESTION`` line a question
that should match no own answer; ``#`` starts a comment.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["LANGUAGES", "Probe", "Set", "load"]

FOLDER = Path(__file__).parent
LANGUAGES = tuple(sorted(path.stem for path in FOLDER.glob("*.txt")))


@dataclass(frozen=True, slots=True)
class Probe:
    question: str
    expected: int | None
    """The own question (its index) it should get the answer of; None: none."""


@dataclass(frozen=True, slots=True)
class Set:
    language: str
    questions: tuple[str, ...]
    """The own answers' questions."""
    probes: tuple[Probe, ...]


def load(language: str) -> Set:
    questions: list[str] = []
    probes: list[Probe] = []
    for number, line in enumerate((FOLDER / f"{language}.txt").read_text("utf-8").splitlines()):
        mark, _, text = line.partition(" ")
        if not line.strip() or mark == "#":
            continue
        if mark == "=":
            questions.append(text.strip())
        elif mark == "+" and questions:
            probes.append(Probe(text.strip(), len(questions) - 1))
        elif mark == "-":
            probes.append(Probe(text.strip(), None))
        else:
            raise ValueError(f"{language}.txt:{number + 1}: write '= ', '+ ' or '- ' first")
    return Set(language, tuple(questions), tuple(probes))
