"""The demo upstream on a loopback port, and readers that see what crosses its wire."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from httpx_sse import aconnect_sse

from bot.demo import running_demo

CORPUS_DIR = Path(__file__).resolve().parents[3] / "bot" / "demo" / "corpus"
MARKER = re.compile(r"\[\^(\d+)\]")


@pytest.fixture
async def demo_url() -> AsyncIterator[str]:
    async with running_demo(tokens_per_second=0) as url:
        yield url


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=10) as client:
        yield client


@dataclass
class Streamed:
    """Everything one streamed answer put on the wire, in order."""

    events: list[str]  # raw ``data:`` payloads, ``[DONE]`` included
    chunks: list[dict[str, Any]]  # the decoded chunks

    @property
    def text(self) -> str:
        return "".join(c["choices"][0]["delta"].get("content") or "" for c in self.chunks)

    @property
    def final(self) -> dict[str, Any]:
        return self.chunks[-1]

    @property
    def content_deltas(self) -> list[str]:
        return [c["choices"][0]["delta"]["content"] for c in self.chunks[1:-1]]


def body(
    question: str, *, history: Sequence[str] = (), stream: bool = True, **extra: Any
) -> dict[str, Any]:
    messages = []
    for turn in history:
        messages += [
            {"role": "user", "content": turn},
            {"role": "assistant", "content": "(an earlier answer)"},
        ]
    messages.append({"role": "user", "content": question})
    return {"model": "magisterium-1", "messages": messages, "stream": stream, **extra}


async def stream(http: httpx.AsyncClient, url: str, question: str, **extra: Any) -> Streamed:
    events: list[str] = []
    async with aconnect_sse(
        http, "POST", f"{url}/chat/completions", json=body(question, **extra)
    ) as source:
        assert source.response.status_code == 200
        assert source.response.headers["content-type"].startswith("text/event-stream")
        events = [event.data async for event in source.aiter_sse()]
    chunks = [json.loads(data) for data in events if data != "[DONE]"]
    return Streamed(events=events, chunks=chunks)


def corpus_texts(folder: Path = CORPUS_DIR) -> list[str]:
    return [
        p.read_text(encoding="utf-8")
        for p in sorted(folder.iterdir())
        if p.suffix in (".md", ".txt")
    ]


def statements(text: str) -> list[tuple[str, int]]:
    """Each statement of an answer with the footnote number that follows it."""
    parts = MARKER.split(text)
    return [(parts[i].strip(), int(parts[i + 1])) for i in range(0, len(parts) - 1, 2)]


def assert_backed(
    text: str, citations: Sequence[Mapping[str, Any]], sources: Iterable[str]
) -> None:
    """Seed 004's rule on the wire: valid footnotes, verbatim quotes, every statement backed."""
    by_index = {c["document_index"]: c for c in citations}
    used = {int(n) for n in MARKER.findall(text)}
    assert used, "an answer with citations names them in its text"
    assert {n - 1 for n in used} == set(by_index), "every footnote has its citation and back"
    assert len(by_index) == len(citations)
    texts = list(sources)
    for citation in citations:
        assert any(citation["cited_text"] in source for source in texts), citation["cited_text"]
        assert set(citation) == {
            "cited_text",
            "cited_text_heading",
            "document_title",
            "document_index",
            "document_author",
            "document_year",
            "document_reference",
            "source_url",
        }
    for statement, number in statements(text):
        assert statement, "no footnote stands alone"
        assert statement in by_index[number - 1]["cited_text"]
    assert not MARKER.split(text)[-1].strip(), "no statement after the last footnote"
