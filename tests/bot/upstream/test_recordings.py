"""Every recorded provider reply, replayed byte for byte over loopback to the real client."""

from __future__ import annotations

import json

import pytest

from bot.connect import answer_client
from bot.upstream.client import AnswerClient
from bot.upstream.events import AnswerDone, AnswerEvent, Reasoning, TextDelta
from config import load_settings
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


def last_usage(recording: Recording) -> int | None:
    """The total tokens the recording's last ``usage`` (or Groq's ``x_groq.usage``) reports,
    read from its raw bytes: every event of a stream, or the whole reply."""
    text = recording.reply.body.decode("utf-8")
    chunks = [text]
    if recording.reply.content_type == "text/event-stream":
        datas = [line.removeprefix("data:").strip() for line in text.splitlines()]
        chunks = [data for data in datas if data.startswith("{")]
    total = None
    for chunk in map(json.loads, chunks):
        usage = chunk.get("usage") or (chunk.get("x_groq") or {}).get("usage")
        if isinstance(usage, dict) and usage.get("total_tokens") is not None:
            total = usage["total_tokens"]
    return total


@pytest.mark.parametrize("recording", RECORDINGS, ids=[r.name for r in RECORDINGS])
async def test_the_tokens_are_the_last_usage_the_provider_reported(
    recording: Recording, upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    """Where each provider puts them: OpenAI and llama.cpp on a last chunk with no choices,
    after the one with ``finish_reason``; Mistral and DeepSeek on that one; Perplexity on every
    chunk; Groq in ``x_groq``; Magisterium nowhere (its tokens are then estimated)."""
    done = (await replay(recording, upstream, answer_client))[-1]
    assert isinstance(done, AnswerDone)
    reported = done.usage.total_tokens if done.usage is not None else None
    assert reported == last_usage(recording)
    if recording.name.startswith("magisterium/"):
        assert reported is None


async def test_openai_and_openrouter_are_asked_for_the_usage_of_a_stream_others_are_not(
    upstream: UpstreamSim,
) -> None:
    """As their recordings' requests asked for it (openai/o4-mini-stream); a strict server
    would refuse the unknown field, so no other upstream is sent it."""
    for url, asked in (
        ("https://api.openai.com/v1", True),
        ("https://openrouter.ai/api/v1", True),
        ("https://www.magisterium.com/api/v1", False),
        ("http://localhost:8080/v1", False),
    ):
        settings = load_settings({"UPSTREAM_BASE_URL": url}, env_file=None)
        async with answer_client(settings) as client:
            assert client.usage_in_stream is asked
    async with AnswerClient(
        base_url=upstream.base_url, api_key=None, model="gpt-4o", usage_in_stream=True
    ) as client:
        [event async for event in client.stream("Hello?")]
    assert upstream.requests[0].body["stream_options"] == {"include_usage": True}
