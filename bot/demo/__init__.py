"""The embedded demo upstream: an OpenAI-compatible server that answers, Magisterium-style,
with verbatim quotes from a small corpus (citebot's own documentation, or ``DEMO_CORPUS``)."""

from __future__ import annotations

from bot.demo.answerer import NOTHING_FOUND, Answer, WireCitation, compose_answer
from bot.demo.index import BUNDLED_CORPUS, Corpus, CorpusError
from bot.demo.pages import quote_check_host
from bot.demo.server import running_demo, serve_demo, started_demo

__all__ = [
    "BUNDLED_CORPUS",
    "NOTHING_FOUND",
    "Answer",
    "Corpus",
    "CorpusError",
    "WireCitation",
    "compose_answer",
    "quote_check_host",
    "running_demo",
    "serve_demo",
    "started_demo",
]
