"""Streams built to freeze a worker at the end of an answer, read by the client as the worker
reads them: every source is kept once and in order, and a link is still found behind runs of
brackets. (Their speed is ``python -m bench hostile``'s: 20,000 annotations took 12.6 s, and
a run of 20,000 "[" 2 s for each search result.)"""

from __future__ import annotations

from typing import Any

from bot.upstream.client import AnswerClient
from tests.bot.upstream.streams import annotation, collect, delta
from tests.sim.upstream import Stream, UpstreamSim, chunk


async def test_twenty_thousand_annotations_each_sent_twice_are_twenty_thousand_sources(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    """200 chunks of 100 annotations, each also repeated in a ``message`` (as Perplexity
    sends both on every chunk)."""
    chunks: list[Any] = [delta(role="assistant", content="Answer")]
    for first in range(0, 20_000, 100):
        batch = [annotation(n) for n in range(first, first + 100)]
        chunks.append(
            {
                **chunk(),
                "choices": [
                    {"index": 0, "delta": {"annotations": batch}, "message": {"annotations": batch}}
                ],
            }
        )
    chunks.append(chunk(finish_reason="stop"))
    upstream.queue(Stream(tuple(chunks)))
    _, done = await collect(answer_client)
    assert len(done.citations) == 20_000
    assert [c.number for c in done.citations] == list(range(1, 20_001))
    assert done.citations[12_345].source_url == "https://example.org/12345"
    assert done.citations[12_345].title == "Page 12345"


async def test_a_link_behind_twenty_thousand_brackets_cites_its_search_result(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    results = [{"url": f"https://example.org/{n}", "title": f"Result {n}"} for n in range(10)]
    tool = {"index": 0, "type": "search", "search_results": {"results": results}}
    link = "[the third](https://example.org/3)"
    text = "[" * 20_000 + "[a](" * 5_000 + f" See {link}."
    upstream.queue(
        Stream(
            (
                delta(role="assistant", executed_tools=[tool]),
                chunk(text),
                chunk(finish_reason="stop"),
            )
        )
    )
    _, done = await collect(answer_client)
    spans = {c.number: c.span for c in done.citations if c.span}
    assert spans == {4: (text.index(link), text.index(link) + len(link))}
    assert {c.scope for c in done.citations} == {"consulted"}
