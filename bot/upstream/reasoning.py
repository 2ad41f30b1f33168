"""Keeps a model's reasoning out of the answer and out of the conversation history.

Reasoning models send their chain of thought in one of two ways: in delta fields of their own
(``reasoning_content`` from DeepSeek, vLLM and llama.cpp; ``reasoning`` from OpenRouter and
Groq), or inside the answer text between ``<think>`` and ``</think>`` (Perplexity's
``sonar-reasoning`` models, DeepSeek-R1 behind some gateways). The fields are simply not text;
the tags need :class:`ThinkFilter`, because a stream splits them anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["REASONING_FIELDS", "Filtered", "ThinkFilter", "reasoning_of"]

OPEN = "<think>"
CLOSE = "</think>"

REASONING_FIELDS = ("reasoning_content", "reasoning")
"""Delta (or message) fields that carry reasoning, never answer text."""


def reasoning_of(part: Mapping[str, object]) -> bool:
    """Whether a delta or message carries reasoning in a field of its own."""
    return any(isinstance(part.get(key), str) and part.get(key) for key in REASONING_FIELDS)


@dataclass(frozen=True, slots=True)
class Filtered:
    """What one piece of content leaves for the reader, and whether it held reasoning."""

    text: str
    reasoned: bool


def _held_prefix(text: str, tag: str) -> int:
    """The length of the longest end of ``text`` that could still grow into ``tag``."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(text[-size:]):
            return size
    return 0


class ThinkFilter:
    """Streams answer text through, dropping ``<think>…</think>`` blocks.

    A block counts only where it opens a line (the start of the answer, or after a newline and
    blanks): an answer that mentions the tag inline ("wrap it in `<think>`") keeps its words.
    Whitespace right after a closing tag is dropped, so the answer starts at its first word.
    The end of a piece that could still become a tag is held until the next piece decides it.
    """

    def __init__(self) -> None:
        self._held = ""
        self._inside = False
        self._line_start = True
        self._trim = False

    @property
    def tail(self) -> str:
        """Held text that turned out to be answer after all (when the stream ends here)."""
        return "" if self._inside else self._held

    def feed(self, piece: str) -> Filtered:
        text, self._held = self._held + piece, ""
        shown: list[str] = []
        reasoned = False
        at = 0
        while at < len(text):
            if self._inside:
                close = text.find(CLOSE, at)
                reasoned = True
                if close < 0:
                    rest = text[at:]
                    self._held = rest[len(rest) - _held_prefix(rest, CLOSE) :]
                    break
                at = close + len(CLOSE)
                self._inside, self._trim, self._line_start = False, True, True
                continue
            if self._trim:
                stripped = len(text) - len(text[at:].lstrip())
                if stripped == len(text):
                    break
                at, self._trim = stripped, False
            opening = self._opening(text, at)
            if opening is None:
                rest = text[at:]
                held = _held_prefix(rest, OPEN)
                if held and not self._opens_line(text, at, len(text) - held):
                    held = 0
                self._show(shown, rest[: len(rest) - held])
                self._held = rest[len(rest) - held :]
                break
            self._show(shown, text[at:opening])
            at = opening + len(OPEN)
            self._inside = reasoned = True
        return Filtered("".join(shown), reasoned)

    def _opening(self, text: str, at: int) -> int | None:
        """Where the next ``<think>`` that opens a line starts, if one does."""
        found = text.find(OPEN, at)
        while found >= 0:
            if self._opens_line(text, at, found):
                return found
            found = text.find(OPEN, found + 1)
        return None

    def _opens_line(self, text: str, at: int, where: int) -> bool:
        before = text[at:where]
        newline = before.rfind("\n")
        if newline < 0 and not self._line_start:
            return False
        return not before[newline + 1 :].strip(" \t")

    def _show(self, shown: list[str], text: str) -> None:
        if not text:
            return
        shown.append(text)
        newline = text.rfind("\n")
        if newline >= 0:
            self._line_start = not text[newline + 1 :].strip(" \t")
        else:
            self._line_start = self._line_start and not text.strip(" \t")
