"""Every recorded provider reply, replayed byte for byte over loopback to the real client."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from bot.billing import reported_kinds
from bot.connect import answer_client
from bot.upstream.client import AnswerClient
from bot.upstream.events import AnswerDone, AnswerEvent, Reasoning, TextDelta
from config import load_settings
from tests.sim.recordings import Recording, recordings
from tests.sim.upstream import Stream, UpstreamSim, chunk

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
    for event in map(json.loads, chunks):
        usage = event.get("usage") or (event.get("x_groq") or {}).get("usage")
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


USAGES: dict[str, tuple[dict[str, int] | None, str | None]] = {
    "azure/on-your-data-2023-08-01-preview": (
        {"prompt": 4546, "completion": 224, "total": 4770},
        None,
    ),
    "azure/on-your-data-docs-2024-10-21": ({"prompt": 33, "completion": 557, "total": 590}, None),
    "azure/on-your-data-docs-minimum": ({"prompt": 33, "completion": 557, "total": 590}, None),
    "compatible/llama-cpp-gpt-oss-stream": ({"prompt": 84, "completion": 62, "total": 146}, None),
    "compatible/openrouter-grok-stream": (
        {"prompt": 213, "completion": 290, "total": 503, "cached": 192, "reasoning": 264},
        "0.00044304",
    ),
    "deepseek/deepseek-reasoner-hello-stream": (
        {"prompt": 6, "completion": 212, "total": 218, "cached": 0, "reasoning": 198},
        None,
    ),
    "deepseek/deepseek-reasoner-stream": (
        {"prompt": 18, "completion": 219, "total": 237, "cached": 0, "reasoning": 205},
        None,
    ),
    "deepseek/deepseek-reasoner": (
        {"prompt": 18, "completion": 345, "total": 363, "cached": 0, "reasoning": 315},
        None,
    ),
    "groq/compound-beta-stream": ({"prompt": 5003, "completion": 359, "total": 5362}, None),
    "groq/compound-beta": ({"prompt": 5296, "completion": 387, "total": 5683}, None),
    "groq/compound-domain-filters": ({"prompt": 14100, "completion": 921, "total": 15021}, None),
    "magisterium/docs-en": (None, None),
    "magisterium/docs-ja": (None, None),
    "magisterium/docs-nl": (None, None),
    "magisterium/docs-pt": (None, None),
    "magisterium/docs-zh-hans": (None, None),
    "mistral/magistral-medium-2507-stream": ({"prompt": 10, "completion": 46, "total": 56}, None),
    "mistral/magistral-medium-2507": ({"prompt": 10, "completion": 46, "total": 56}, None),
    "mistral/magistral-medium-stream": ({"prompt": 10, "completion": 232, "total": 242}, None),
    "mistral/mistral-small-reasoning": (
        {"prompt": 31, "completion": 161, "total": 192, "cached": 0},
        None,
    ),
    "openai/gpt-4o-mini-search-preview-oneapi": (
        {"prompt": 9, "completion": 411, "total": 420, "cached": 0, "reasoning": 0},
        None,
    ),
    "openai/gpt-4o-search-preview": (
        {"prompt": 14, "completion": 603, "total": 617, "cached": 0, "reasoning": 0},
        None,
    ),
    "openai/o4-mini-stream": (
        {"prompt": 19, "completion": 148, "total": 167, "cached": 0, "reasoning": 128},
        None,
    ),
    "openrouter/web-search-deepseek-chat-stream": (
        {"prompt": 2317, "completion": 53, "total": 2370, "cached": 0, "reasoning": 0},
        "0.0076509169000000005",
    ),
    "openrouter/web-search-deepseek-chat": (
        {"prompt": 2315, "completion": 40, "total": 2355, "cached": 0, "reasoning": 0},
        "0.007637029",
    ),
    "openrouter/web-search-gpt-4.1-mini-stream": (
        {"prompt": 8174, "completion": 30, "total": 8204, "cached": 0, "reasoning": 0},
        "0.0133176",
    ),
    "perplexity/llama-sonar-stream": ({"prompt": 14, "completion": 19, "total": 33}, None),
    "perplexity/llama-sonar": ({"prompt": 14, "completion": 23, "total": 37}, None),
    "perplexity/sonar-citations-stream": ({"prompt": 10, "completion": 336, "total": 346}, None),
    "perplexity/sonar-citations": ({"prompt": 10, "completion": 251, "total": 261}, None),
    "perplexity/sonar-reasoning-pro-stream": (
        {"prompt": 17, "completion": 321, "total": 338},
        "0.009",
    ),
    "perplexity/sonar-text-stream": ({"prompt": 11, "completion": 434, "total": 445}, None),
}
"""What each recording's last ``usage`` says, read by hand from its bytes: the cached prompt
(OpenAI's and OpenRouter's ``prompt_tokens_details``, DeepSeek's and Mistral's), the reasoning
inside the completion (``completion_tokens_details``), and the cost where the provider says it
(OpenRouter's ``cost``, Perplexity's ``cost.total_cost``), to the digit JSON wrote."""


@pytest.mark.parametrize("recording", RECORDINGS, ids=[r.name for r in RECORDINGS])
async def test_every_count_of_the_usage_is_read_as_the_provider_sent_it(
    recording: Recording, upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    if recording.name not in USAGES:
        pytest.fail(f"{recording.name}: add what its usage says to USAGES")
    counts, cost = USAGES[recording.name]
    done = (await replay(recording, upstream, answer_client))[-1]
    assert isinstance(done, AnswerDone)
    assert (done.usage.counts() if done.usage else None) == counts
    assert (str(done.usage.cost) if done.usage and done.usage.cost is not None else None) == cost


DEEP_RESEARCH = {
    "prompt_tokens": 33,
    "completion_tokens": 11395,
    "total_tokens": 11428,
    "citation_tokens": 19028,
    "num_search_queries": 21,
    "reasoning_tokens": 193947,
    "cost": {
        "input_tokens_cost": 0.0,
        "output_tokens_cost": 0.091,
        "citation_tokens_cost": 0.038,
        "reasoning_tokens_cost": 0.582,
        "search_queries_cost": 0.105,
        "total_cost": 0.816,
    },
}
"""Perplexity's documented ``usage`` of a ``sonar-deep-research`` answer (its pricing guide's
worked example; no recording of that model was found): citation tokens and searches beside
the prompt, reasoning billed beyond the completion, the cost itemised."""


@pytest.mark.parametrize(
    ("usage", "counts", "kinds"),
    [
        (
            DEEP_RESEARCH,
            {
                "prompt": 33,
                "completion": 11395,
                "total": 11428,
                "extra_reasoning": 193947,
                "system": 19028,
                "search_queries": 21,
            },
            {"input": 33, "output": 11395 + 193947, "system": 19028},
        ),
        (  # DeepSeek's own cache counts, without OpenAI's details (its API reference)
            {
                "prompt_tokens": 18,
                "completion_tokens": 345,
                "total_tokens": 363,
                "prompt_cache_hit_tokens": 16,
                "prompt_cache_miss_tokens": 2,
            },
            {"prompt": 18, "completion": 345, "total": 363, "cached": 16},
            {"input": 18, "output": 345},
        ),
    ],
)
async def test_documented_usages_beyond_the_recordings_are_read_whole(
    usage: dict[str, Any],
    counts: dict[str, int],
    kinds: dict[str, int],
    upstream: UpstreamSim,
    answer_client: AnswerClient,
) -> None:
    upstream.queue(Stream((chunk("Researched."), chunk(finish_reason="stop", usage=usage))))
    done = [event async for event in answer_client.stream("Research this.")][-1]
    assert isinstance(done, AnswerDone)
    assert done.usage is not None
    assert done.usage.counts() == counts
    assert reported_kinds(done.usage.counts()) == kinds
    if usage is DEEP_RESEARCH:
        assert done.usage.cost == Decimal("0.816")
