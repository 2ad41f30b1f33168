"""The shared formatter: see ``bot.formatting`` (re-exported here, as FORMATTER-API.md names it)."""

from __future__ import annotations

from bot.dialect import CitationCard, Dialect, Payload
from bot.formatting.answer import AnswerFormatter, RenderedAnswer, notice

__all__ = [
    "AnswerFormatter",
    "CitationCard",
    "Dialect",
    "Payload",
    "RenderedAnswer",
    "notice",
]
