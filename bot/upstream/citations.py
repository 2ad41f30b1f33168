"""One citation model for every provider, and the normalisers that build it.

Providers disagree on where sources live (Magisterium's ``citations`` objects, Perplexity's URL
list plus ``search_results``, OpenAI's and OpenRouter's ``url_citation`` annotations, Azure On
Your Data's ``context``, Groq's ``executed_tools``). Everything downstream of the client sees
only :class:`Citation`; the provider's own object rides along untouched in ``raw`` so nothing it
said is lost. Where each provider puts them in its chunks is :mod:`bot.upstream.sources`.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal
from urllib.parse import urlsplit

log = logging.getLogger(__name__)

__all__ = [
    "Citation",
    "Scope",
    "azure_citations",
    "groq_citations",
    "magisterium_citations",
    "openai_citations",
    "perplexity_citations",
    "safe_url",
]

Scope = Literal["footnote", "answer", "consulted"]
"""What of the answer a source supports: where a footnote names it (a marker with its number, or
its span), the answer as a whole (a card with no footnote), or nothing the provider says (a
source it consulted: listed as such unless a footnote names it)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Citation:
    """A source that supports part of an answer.

    ``number`` is the one-based footnote number the provider's text uses for it. ``span`` is
    the supported part of the answer as a character range, when the provider reports one
    instead of writing a marker (OpenAI annotations). ``scope`` says what it supports
    (:data:`Scope`).
    """

    number: int
    cited_text: str = ""
    heading: str | None = None
    title: str | None = None
    author: str | None = None
    year: str | None = None
    reference: str | None = None
    source_url: str | None = None
    provider: str = "magisterium"
    span: tuple[int, int] | None = None
    scope: Scope = "footnote"
    raw: Mapping[str, Any] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, hash=False
    )

    def to_json(self) -> dict[str, Any]:
        """The citation as the ``--json`` output and the logs show it."""
        return {
            "number": self.number,
            "cited_text": self.cited_text,
            "heading": self.heading,
            "title": self.title,
            "author": self.author,
            "year": self.year,
            "reference": self.reference,
            "source_url": self.source_url,
            "provider": self.provider,
            "span": list(self.span) if self.span else None,
            "raw": dict(self.raw),
        }


def safe_url(value: object) -> str | None:
    """Keep a URL only when it is an absolute http(s) link: nothing else is ever made a link."""
    if not isinstance(value, str):
        return None
    url = value.strip()
    if any(ch.isspace() or ord(ch) < 32 for ch in url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return url


def _text(value: object) -> str | None:
    """Decode entities and blank-to-None a field that may be missing, null or not a string."""
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    decoded = html.unescape(value).strip()
    return decoded or None


def _frozen(raw: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(raw))


def magisterium_citations(items: Sequence[object]) -> tuple[Citation, ...]:
    citations: list[Citation] = []
    for position, item in enumerate(items):
        if not isinstance(item, Mapping):
            log.warning("skipped a citation that is not an object (position %d)", position)
            continue
        index = item.get("document_index")
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            log.warning(
                "citation at position %d has no usable document_index; using its position", position
            )
            index = position
        citations.append(
            Citation(
                number=index + 1,
                cited_text=_text(item.get("cited_text")) or "",
                heading=_text(item.get("cited_text_heading")),
                title=_text(item.get("document_title")),
                author=_text(item.get("document_author")),
                year=_text(item.get("document_year")),
                reference=_text(item.get("document_reference")),
                source_url=safe_url(item.get("source_url")),
                provider="magisterium",
                raw=_frozen(item),
            )
        )
    return tuple(citations)


def perplexity_citations(urls: Sequence[object], results: object) -> tuple[Citation, ...]:
    by_url: dict[str, Mapping[str, Any]] = {}
    if isinstance(results, Sequence):
        for result in results:
            if isinstance(result, Mapping) and isinstance(result.get("url"), str):
                by_url.setdefault(result["url"], result)
    citations = []
    for position, url in enumerate(urls):
        result = by_url.get(url, {}) if isinstance(url, str) else {}
        raw: dict[str, Any] = {"url": url, **({"search_result": dict(result)} if result else {})}
        citations.append(
            Citation(
                number=position + 1,
                cited_text=_text(result.get("snippet")) or "",
                title=_text(result.get("title")),
                year=_text(result.get("date")),
                source_url=safe_url(url),
                provider="perplexity",
                raw=_frozen(raw),
            )
        )
    return tuple(citations)


def openai_citations(annotations: Sequence[object]) -> tuple[Citation, ...]:
    """OpenAI's ``url_citation`` annotations, and OpenRouter's (the same shape, with the page's
    text in ``content``, which is search context rather than a quote). OpenRouter's web plugin
    gives every source a zero-width span at 0: not a footnote before the first word but a
    source of the answer as a whole. One repeated (a gateway that sends them on every chunk, or
    twice) is counted once: the same link, title and span make the same citation."""
    citations: list[Citation] = []
    seen: set[tuple[str | None, str | None, tuple[int, int] | None]] = set()
    for item in annotations:
        if not isinstance(item, Mapping) or item.get("type") != "url_citation":
            continue
        body = item.get("url_citation")
        if not isinstance(body, Mapping):
            continue
        start, end = body.get("start_index"), body.get("end_index")
        span = (start, end) if isinstance(start, int) and isinstance(end, int) else None
        url, title = safe_url(body.get("url")), _text(body.get("title"))
        if (url, title, span) in seen:
            continue
        seen.add((url, title, span))
        citations.append(
            Citation(
                number=len(citations) + 1,
                title=title,
                source_url=url,
                provider="openai",
                span=None if span == (0, 0) else span,
                scope="answer" if span == (0, 0) else "footnote",
                raw=_frozen(item),
            )
        )
    return tuple(citations)


def azure_citations(items: Sequence[object]) -> tuple[Citation, ...]:
    """Azure OpenAI On Your Data: the answer's ``[docN]`` is the Nth citation. A citation may
    have no title or URL (the index's fields are the operator's choice): its file path names it
    then, and it still gets its card, with its words."""
    citations: list[Citation] = []
    for position, item in enumerate(items):
        if not isinstance(item, Mapping):
            log.warning("skipped a citation that is not an object (position %d)", position)
            continue
        citations.append(
            Citation(
                number=position + 1,
                cited_text=_text(item.get("content")) or "",
                title=_text(item.get("title")) or _text(item.get("filepath")),
                source_url=safe_url(item.get("url")),
                provider="azure",
                raw=_frozen(item),
            )
        )
    return tuple(citations)


def groq_citations(results: Sequence[Mapping[str, Any]], text: str) -> tuple[Citation, ...]:
    """Groq's compound models: the results of their web searches are sources consulted; one
    the answer links (``[words](url)`` or ``<url>``) is cited there, the link its span."""
    citations: list[Citation] = []
    links = _links(text)
    for result in results:
        url = safe_url(result.get("url"))
        span = links.get(url) if url else None
        citations.append(
            Citation(
                number=len(citations) + 1,
                cited_text=_text(result.get("content")) or "",
                title=_text(result.get("title")),
                source_url=url,
                provider="groq",
                span=span,
                scope="consulted",
                raw=_frozen(result),
            )
        )
    return tuple(citations)


def _links(text: str) -> dict[str, tuple[int, int]]:
    """Where ``text`` first links each URL, as a Markdown link or an autolink: one pass over
    the text, whatever the number of search results looked up in it."""
    first: dict[str, tuple[int, int]] = {}
    for link in _LINK.finditer(text):
        first.setdefault(link["url"] or link["auto"], link.span())
    return first


_LINK = re.compile(
    # A label holds no bracket and a URL no parenthesis but balanced pairs ("Foo_(bar)"): no
    # run of "[" or "(" is scanned again from each of its characters.
    r"\[[^\[\]\n]*\]\(\s*<?(?P<url>[^\s()<>]+(?:\([^\s()<>]*\)[^\s()<>]*)*)>?\s*\)"
    r"|<(?P<auto>[^\s<>]+)>"
)
