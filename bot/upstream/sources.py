"""Where each provider puts its sources in what it sends, gathered over a whole answer.

A stream spreads them out: OpenAI and OpenRouter annotate any delta (OpenRouter's web plugin
sends each source on its own chunk before the first word), Azure On Your Data sends its
``context`` on the first delta, Groq's compound models report each search twice (running, then
with its results), Magisterium and Perplexity repeat or send their ``citations`` on the last
chunk. :class:`Sources` takes every chunk (or a whole completion) once and gives the answer's
:class:`~bot.upstream.citations.Citation` list at its end, whatever chunk came last: a provider
that sends ``finish_reason`` twice loses nothing.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot.upstream.citations import (
    Citation,
    azure_citations,
    groq_citations,
    magisterium_citations,
    openai_citations,
    perplexity_citations,
)

log = logging.getLogger(__name__)

__all__ = ["Sources"]


class Sources:
    """The sources an answer's chunks name, kept until the answer ends."""

    def __init__(self) -> None:
        self._listed: Sequence[object] = ()
        """The latest top-level ``citations`` (Magisterium's objects, Perplexity's URLs)."""
        self._search_results: object = None
        self._annotations: list[object] = []
        self._context: Sequence[object] = ()
        """Azure On Your Data's citations, the latest sent."""
        self._searches: dict[int, Sequence[Mapping[str, Any]]] = {}
        """Groq's search results by the index of the search that found them."""

    def take(self, chunk: Mapping[str, Any]) -> None:
        """Read what one chunk (or a whole completion) says about sources."""
        listed = chunk.get("citations")
        if isinstance(listed, Sequence) and not isinstance(listed, str) and listed:
            self._listed = listed
            self._search_results = chunk.get("search_results")
        for part in _parts(chunk):
            annotations = part.get("annotations")
            if isinstance(annotations, Sequence) and not isinstance(annotations, str):
                self._annotations.extend(annotations)
            context = _azure_context(part.get("context"))
            if context:
                self._context = context
            tools = part.get("executed_tools")
            if isinstance(tools, Sequence) and not isinstance(tools, str):
                for position, tool in enumerate(tools):
                    if isinstance(tool, Mapping):
                        index = tool.get("index")
                        key = index if isinstance(index, int) else position
                        self._searches[key] = _search_results(tool)

    def citations(self, text: str) -> tuple[Citation, ...]:
        """The answer's citations in the provider's numbering; ``text`` is the answer (the
        links in it say which of Groq's results it cites)."""
        if self._listed:
            if all(isinstance(item, str) for item in self._listed):
                found = perplexity_citations(self._listed, self._search_results)
            else:
                found = magisterium_citations(self._listed)
            return tuple(sorted(found, key=lambda c: c.number))
        if self._context:
            return azure_citations(self._context)
        if self._annotations:
            return openai_citations(self._annotations)
        results = [result for found in self._searches.values() for result in found]
        return groq_citations(results, text)


def _parts(chunk: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Each choice's delta (streaming) and message (a whole completion; Perplexity sends both
    on every chunk): annotations that come twice are counted once by their normaliser."""
    choices = chunk.get("choices")
    if not isinstance(choices, Sequence) or isinstance(choices, str):
        return
    for choice in choices:
        if isinstance(choice, Mapping):
            for key in ("delta", "message"):
                part = choice.get(key)
                if isinstance(part, Mapping):
                    yield part


def _azure_context(context: object) -> Sequence[object]:
    """Azure On Your Data's citations: ``context.citations`` since API version 2024-02-15, and
    before it a JSON string in the content of a ``tool`` message of ``context.messages``."""
    if not isinstance(context, Mapping):
        return ()
    citations = context.get("citations")
    if isinstance(citations, Sequence) and not isinstance(citations, str):
        return citations
    messages = context.get("messages")
    if not isinstance(messages, Sequence) or isinstance(messages, str):
        return ()
    for message in messages:
        if not isinstance(message, Mapping) or message.get("role") != "tool":
            continue
        content = message.get("content")
        if isinstance(content, str):
            try:
                content = json.loads(content)
            except ValueError:
                log.warning("skipped an On Your Data tool message that is not JSON")
                continue
        found = _azure_context(content)
        if found:
            return found
    return ()


def _search_results(tool: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
    results = tool.get("search_results")
    listed = results.get("results") if isinstance(results, Mapping) else None
    if not isinstance(listed, Sequence) or isinstance(listed, str):
        return ()
    return [result for result in listed if isinstance(result, Mapping)]
