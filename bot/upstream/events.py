"""What the answer client yields: text as it arrives, then one final event."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from bot.upstream.citations import Citation

__all__ = ["AnswerDone", "AnswerEvent", "Reasoning", "TextDelta", "Turn", "Usage"]


@dataclass(frozen=True, slots=True)
class Turn:
    """One message sent upstream before the question: an instruction or an earlier turn."""

    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True, slots=True)
class TextDelta:
    """A piece of answer text, in order; footnote markers may be split across deltas."""

    text: str


@dataclass(frozen=True, slots=True)
class Reasoning:
    """The model is reasoning: nothing to show, but the answer is alive, so the platform's
    "thinking…" status stays up (the reasoning itself is never shown or kept)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Usage:
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    total_tokens: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerDone:
    """The end of an answer: everything that only the last chunk carries."""

    text: str
    finish_reason: str
    citations: tuple[Citation, ...] = ()
    related_questions: tuple[str, ...] = ()
    usage: Usage | None = None
    skipped_chunks: int = 0
    model: str | None = field(default=None)


AnswerEvent = TextDelta | Reasoning | AnswerDone
