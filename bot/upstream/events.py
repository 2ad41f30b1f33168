"""What the answer client yields: text as it arrives, then one final event."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from decimal import Decimal
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
    """The tokens an upstream says an answer cost, each as far as it says (None: not said)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    total_tokens: int | None = None
    cached_tokens: int | None = None
    """Of the prompt, read from the provider's cache (OpenAI's
    ``prompt_tokens_details.cached_tokens``, DeepSeek's ``prompt_cache_hit_tokens``)."""
    reasoning_tokens: int | None = None
    """Of the completion, spent reasoning (``completion_tokens_details.reasoning_tokens``)."""
    extra_reasoning_tokens: int | None = None
    """Reasoning billed beyond the completion (Perplexity's ``reasoning_tokens``)."""
    system_tokens: int | None = None
    """Tokens billed for retrieval, beyond the prompt and the answer (Perplexity's
    ``citation_tokens``)."""
    search_queries: int | None = None
    """Searches the provider ran (Perplexity's ``num_search_queries``), billed by the
    thousand: in the cost only where the upstream reports it."""
    cost: Decimal | None = None
    """US dollars, as the upstream reports them (OpenRouter's ``cost``, Perplexity's
    ``cost.total_cost``)."""

    def counts(self) -> dict[str, int]:
        """The counts said, by short name (``prompt``, ``completion``, ``total``, ``cached``,
        ``reasoning``, ``extra_reasoning``, ``system``, ``search_queries``): what the answer
        log keeps as reported."""
        said = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "cost"}
        return {
            name.removesuffix("_tokens"): value for name, value in said.items() if value is not None
        }


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
