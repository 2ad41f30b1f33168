"""Every recorded provider reply, replayed byte for byte over loopback to the real client."""

from __future__ import annotations

import pytest

from bot.upstream.client import AnswerClient
from bot.upstream.events import AnswerDone, AnswerEvent, Reasoning, TextDelta
from tests.sim.recordings import Recording, recordings
from tests.sim.upstream import UpstreamSim

RECORDINGS = recordings()


async def replay(
    recording: Recording, upstream: UpstreamSim, client: AnswerClient
) -> list[AnswerEvent]:
    upstream.queue(recording.reply)
    return [event async for event in client.stream("What does the recording answer?")]


def test_the_corpus_covers_every_provider_shape() -> None:
    """Magisterium's documented example in four languages, Perplexity streamed and whole (with
    a reasoning model), OpenAI search annotations, compatible servers that reason, Mistral's
    content parts, OpenRouter's web sources, Azure On Your Data in both API generations,
    Groq's compound search and DeepSeek's reasoner."""
    names = {recording.name for recording in recordings()}
    assert len([n for n in names if n.startswith("magisterium/")]) >= 4
    assert {
        "perplexity/sonar-citations-stream",
        "perplexity/sonar-reasoning-pro-stream",
        "openai/gpt-4o-search-preview",
        "openai/o4-mini-stream",
        "compatible/llama-cpp-gpt-oss-stream",
        "compatible/openrouter-grok-stream",
        "mistral/magistral-medium-stream",
        "mistral/magistral-medium-2507-stream",
        "openrouter/web-search-deepseek-chat-stream",
        "azure/on-your-data-2023-08-01-preview",
        "azure/on-your-data-docs-2024-10-21",
        "groq/compound-beta-stream",
        "deepseek/deepseek-reasoner-stream",
    } <= names
    assert all(r.expected["provenance"] for r in recordings())


@pytest.mark.parametrize("recording", RECORDINGS, ids=[r.name for r in RECORDINGS])
async def test_the_reader_gets_the_answer_once_without_reasoning(
    recording: Recording, upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    expected = recording.expected
    events = await replay(recording, upstream, answer_client)
    done = events[-1]
    assert isinstance(done, AnswerDone)
    shown = "".join(event.text for event in events if isinstance(event, TextDelta))
    assert shown == done.text == expected["answer"]
    assert "<think>" not in shown
    assert "</think>" not in shown
    assert any(isinstance(event, Reasoning) for event in events) is expected["reasoning"]
    assert done.finish_reason == expected["finish_reason"]
    assert done.related_questions == tuple(expected.get("related_questions", ()))


@pytest.mark.parametrize("recording", RECORDINGS, ids=[r.name for r in RECORDINGS])
async def test_each_source_is_counted_once_as_the_provider_numbered_it(
    recording: Recording, upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    done = (await replay(recording, upstream, answer_client))[-1]
    assert isinstance(done, AnswerDone)
    got = [
        {
            "number": c.number,
            "url": c.source_url,
            "title": c.title,
            "quote": c.cited_text,
            **({"span": list(c.span)} if c.span else {}),
            **{key: getattr(c, key) for key in ("author", "reference") if getattr(c, key)},
        }
        for c in done.citations
    ]
    assert got == recording.expected["citations"]
