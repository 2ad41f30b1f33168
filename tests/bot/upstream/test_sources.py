"""Where each provider's sources are found in its chunks, gathered over a whole answer, and the
client reading them off a real stream. The provider objects come from the recorded corpus."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.upstream.client import AnswerClient
from bot.upstream.sources import Sources
from tests.bot.upstream.streams import collect, delta
from tests.sim.recordings import ROOT
from tests.sim.upstream import Comment, Stream, UpstreamSim, chunk, magisterium_citation


def recorded(name: str) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads((ROOT / name).read_text(encoding="utf-8"))
    return reply


def recorded_chunks(name: str) -> list[dict[str, Any]]:
    """The JSON chunks of a recorded stream, in order."""
    events = (ROOT / name).read_text(encoding="utf-8").split("\n\n")
    return [json.loads(event[6:]) for event in events if event.startswith("data: {")]


def message_of(reply: Mapping[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = reply["choices"][0]["message"]
    return message


def gathered(*chunks: Mapping[str, Any]) -> Sources:
    sources = Sources()
    for one in chunks:
        sources.take(one)
    return sources


def test_azure_older_api_citations_are_a_json_string_in_a_tool_message() -> None:
    """api-version 2023-08-01-preview: no title, URL or file path; each still a source, its
    content the quote, ``[docN]`` its number."""
    reply = recorded("azure/on-your-data-2023-08-01-preview.json")
    citations = gathered(reply).citations("")
    assert [(c.number, c.title, c.source_url, c.provider) for c in citations] == [
        (n, None, None, "azure") for n in range(1, 6)
    ]
    assert citations[0].cited_text.startswith("Microsoft Developer\nVideo Name: Focus on code")
    assert citations[0].raw["chunk_id"] == "0"


def test_azure_context_citations_and_a_file_path_when_the_title_is_null() -> None:
    message = message_of(recorded("azure/on-your-data-docs-2024-10-21.json"))
    (citation,) = gathered({"choices": [{"message": message}]}).citations("")
    assert citation.title == "Citation Title 2"
    untitled = {**message["context"]["citations"][0], "title": None}
    context = {**message["context"], "citations": [untitled]}
    # streamed, the context comes on a delta (the API reference's chunk schema)
    (citation,) = gathered(delta(role="assistant", context=context)).citations("")
    assert citation.title == "contoso2.txt"
    assert citation.cited_text == "Citation content 2."
    assert citation.source_url == "https://contoso.blob.windows.net/container/contoso2.txt"


def test_openrouter_zero_width_spans_at_the_start_cite_the_whole_answer() -> None:
    chunks = recorded_chunks("openrouter/web-search-deepseek-chat-stream.sse")
    citations = gathered(*chunks).citations("")
    assert [(c.span, c.scope) for c in citations] == [(None, "answer")] * 5
    assert citations[1].title is None  # a blank title: the card is called by its host
    assert citations[0].cited_text == ""  # OpenRouter's page text is context, not a quote


def test_groq_searches_reported_twice_count_once_and_a_linked_result_is_cited() -> None:
    chunks = recorded_chunks("groq/compound-beta-stream.sse")
    sources = gathered(*chunks)
    consulted = sources.citations("Partly cloudy.")
    assert len(consulted) == 16
    assert {(c.scope, c.span) for c in consulted} == {("consulted", None)}
    weather, ventusky = (
        "[WeatherAPI](https://www.weatherapi.com/)",
        "<https://www.ventusky.com/san-francisco>",
    )
    bare = "https://www.wunderground.com/weather/us/ca/san-francisco"
    text = f"Partly cloudy ({weather}), {bare} and {ventusky}."
    spans = {c.number: c.span for c in sources.citations(text) if c.span}
    # a Markdown link and an autolink cite their result; a bare URL is no link
    assert spans == {
        1: (text.index(weather), text.index(weather) + len(weather)),
        5: (text.index(ventusky), text.index(ventusky) + len(ventusky)),
    }


async def test_duplicate_finish_chunks_and_comment_lines_lose_nothing(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    """OpenRouter closes with two ``finish_reason`` chunks, the second carrying only usage,
    and sends ``: OPENROUTER PROCESSING`` comments: the citations of the first still count."""
    citation = magisterium_citation(0, "Grace builds on nature.")
    upstream.queue(
        Stream(
            (
                Comment("OPENROUTER PROCESSING"),
                chunk("Grace[^1]."),
                chunk("", finish_reason="stop", citations=[citation]),
                chunk("", finish_reason="stop", usage={"total_tokens": 9}),
            )
        )
    )
    deltas, done = await collect(answer_client)
    assert deltas == ["Grace[^1]."]
    assert [c.cited_text for c in done.citations] == ["Grace builds on nature."]
    assert done.usage is not None
    assert done.usage.total_tokens == 9


async def test_azure_streamed_context_names_the_doc_markers(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    context = message_of(recorded("azure/on-your-data-docs-2024-10-21.json"))["context"]
    upstream.queue(
        Stream(
            (
                delta(role="assistant", context=context),
                chunk("Content of the completion [do"),
                chunk("c1]."),
                chunk(finish_reason="stop"),
            )
        )
    )
    deltas, done = await collect(answer_client)
    assert "".join(deltas) == done.text == "Content of the completion [doc1]."
    assert [(c.number, c.title) for c in done.citations] == [(1, "Citation Title 2")]
