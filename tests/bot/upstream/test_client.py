"""The answer client against a real SSE upstream on loopback."""

from __future__ import annotations

import logging

import httpx
import pytest

from bot.upstream.client import AnswerClient, RetryPolicy, Timeouts
from bot.upstream.errors import (
    BadKey,
    ContentFiltered,
    RateLimited,
    StreamCut,
    TokenLimit,
    UpstreamDown,
)
from bot.upstream.events import TextDelta, Turn
from tests.bot.upstream.streams import collect, delta, impatient
from tests.sim.upstream import (
    Comment,
    Cut,
    Json,
    Pause,
    Stream,
    UpstreamSim,
    answer,
    chunk,
    magisterium_citation,
)

CITATION = magisterium_citation(
    0,
    "34. Church teaching on moral matters is founded &apos;not only&apos; on reason",
    title="Cherishing Life",
    author="Catholic Bishops’ Conference",
    reference="34",
)


def url_citation(url: str, start: int, end: int) -> dict[str, object]:
    return {
        "type": "url_citation",
        "url_citation": {"url": url, "title": url, "start_index": start, "end_index": end},
    }


async def test_markers_split_across_deltas_arrive_intact_and_in_order(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(
        answer(
            ["Faith and reason", " agree[", "^1", "][^", "2]."],
            [CITATION, magisterium_citation(1, "Second.")],
        )
    )
    deltas, done = await collect(answer_client)
    assert "".join(deltas) == "Faith and reason agree[^1][^2]."
    assert done.text == "Faith and reason agree[^1][^2]."
    assert [c.number for c in done.citations] == [1, 2]
    assert done.citations[0].cited_text.startswith(
        "34. Church teaching on moral matters is founded 'not only'"
    )
    assert done.finish_reason == "stop"


async def test_citations_are_read_only_from_the_final_chunk(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    early = chunk("Text[^1]", citations=[magisterium_citation(0, "an early, wrong citation")])
    upstream.queue(Stream((early, chunk(finish_reason="stop", citations=[CITATION]))))
    _, done = await collect(answer_client)
    assert [c.title for c in done.citations] == ["Cherishing Life"]


async def test_keep_alive_comments_are_ignored_and_history_is_sent(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(
        answer(["One", " two."], [CITATION], between=[Comment()], related=["What is reason?"])
    )
    history = (Turn("user", "First question"), Turn("assistant", "First answer"))
    deltas, done = await collect(answer_client, "Second question", history=history)
    assert "".join(deltas) == "One two."
    assert done.related_questions == ("What is reason?",)
    sent = upstream.requests[0].body
    assert sent["stream"] is True
    assert sent["model"] == "magisterium-1"
    assert sent["messages"] == [
        {"role": "user", "content": "First question"},
        {"role": "assistant", "content": "First answer"},
        {"role": "user", "content": "Second question"},
    ]


async def test_a_429_is_retried_after_the_retry_after_it_names(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(Json(429, {"message": "slow down"}, {"Retry-After": "1"}), answer(["Ok."]))
    deltas, _ = await collect(answer_client)
    assert deltas == ["Ok."]
    first, second = upstream.requests
    assert second.at - first.at >= 0.95


async def test_a_500_forever_becomes_upstream_down_after_bounded_retries(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.default = Json(500, {"detail": "database on fire"})
    with pytest.raises(UpstreamDown) as caught:
        await collect(answer_client)
    assert len(upstream.requests) == 3  # the first try and two retries
    assert "database on fire" in str(caught.value)


async def test_rate_limit_past_the_retries_says_when_to_come_back(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.default = Json(429, {"error": {"message": "quota"}}, {"Retry-After": "120"})
    with pytest.raises(RateLimited) as caught:
        await collect(answer_client)
    assert caught.value.retry_after == 120
    assert len(upstream.requests) == 1  # waiting two minutes is not a retry worth making


@pytest.mark.parametrize(
    ("status", "body", "error"),
    [
        (401, {"error": {"message": "invalid api key"}}, BadKey),
        (400, {"message": "maximum context length exceeded: too many tokens"}, TokenLimit),
    ],
)
async def test_errors_that_retrying_cannot_fix_are_raised_at_once(
    upstream: UpstreamSim,
    answer_client: AnswerClient,
    status: int,
    body: object,
    error: type[Exception],
) -> None:
    upstream.default = Json(status, body)
    with pytest.raises(error):
        await collect(answer_client)
    assert len(upstream.requests) == 1


async def test_a_stream_cut_mid_answer_keeps_the_text_so_far(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(Stream((chunk("The answer "), chunk("begins"), Cut())))
    seen: list[str] = []
    with pytest.raises(StreamCut) as caught:
        async for event in answer_client.stream("Why?"):
            assert isinstance(event, TextDelta)
            seen.append(event.text)
    assert caught.value.partial_text == "The answer begins" == "".join(seen)
    assert len(upstream.requests) == 1  # never retried after the first token


async def test_a_long_answer_keeps_every_token_in_order_whole_or_cut(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    words = [f"w{n:03d} " for n in range(200)]  # more tokens than the client keeps apart
    upstream.queue(answer(words), Stream((*(chunk(w) for w in words), Cut())))
    deltas, done = await collect(answer_client)
    assert done.text == "".join(words) == "".join(deltas)
    with pytest.raises(StreamCut) as caught:
        await collect(answer_client)
    assert caught.value.partial_text == "".join(words)


async def test_a_stream_that_ends_without_its_final_chunk_is_cut(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(Stream((chunk("Half an answer"),)))
    with pytest.raises(StreamCut) as caught:
        await collect(answer_client)
    assert caught.value.partial_text == "Half an answer"


async def test_one_malformed_chunk_is_skipped_and_logged(
    upstream: UpstreamSim, answer_client: AnswerClient, caplog: pytest.LogCaptureFixture
) -> None:
    upstream.queue(
        Stream(
            (
                chunk("Before "),
                "{not json",
                chunk("after."),
                chunk(finish_reason="stop", citations=[]),
            )
        )
    )
    with caplog.at_level(logging.WARNING, logger="bot.upstream.client"):
        deltas, done = await collect(answer_client)
    assert "".join(deltas) == "Before after."
    assert done.skipped_chunks == 1
    assert "malformed chunk" in caplog.text


async def test_an_error_object_mid_stream_keeps_the_text(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(Stream((chunk("Partial"), {"error": {"message": "overloaded"}})))
    with pytest.raises(StreamCut) as caught:
        await collect(answer_client)
    assert caught.value.partial_text == "Partial"
    assert "overloaded" in str(caught.value)


async def test_an_error_object_before_any_text_is_retried(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(Stream(({"error": {"message": "warming up"}},), done=False), answer(["Fine."]))
    deltas, _ = await collect(answer_client)
    assert deltas == ["Fine."]
    assert len(upstream.requests) == 2


async def test_content_filter_is_its_own_error(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(answer([], finish_reason="content_filter"))
    with pytest.raises(ContentFiltered):
        await collect(answer_client)


async def test_silence_between_events_times_out_as_a_cut_stream(upstream: UpstreamSim) -> None:
    upstream.queue(Stream((chunk("Thinking"), Pause(1.5), chunk(" done."))))
    async with impatient(upstream) as client:
        with pytest.raises(StreamCut) as caught:
            await collect(client)
    assert caught.value.partial_text == "Thinking"
    assert "no answer for" in str(caught.value)


async def test_an_unreachable_upstream_is_down_not_a_traceback() -> None:
    async with AnswerClient(
        base_url="http://127.0.0.1:9/v1",
        api_key=None,
        model="m",
        timeouts=Timeouts(connect=0.5, idle=1, total=5),
        retry=RetryPolicy(max_retries=1, base_delay=0.01),
    ) as client:
        with pytest.raises(UpstreamDown, match="unreachable"):
            await collect(client)


async def test_the_key_is_sent_as_a_bearer_and_never_shown(upstream: UpstreamSim) -> None:
    from pydantic import SecretStr

    upstream.default = Json(401, {"error": {"message": "bad key"}})
    async with AnswerClient(
        base_url=upstream.base_url, api_key=SecretStr("sk-secret-123"), model="m"
    ) as client:
        with pytest.raises(BadKey) as caught:
            await collect(client)
    assert upstream.requests[0].headers["Authorization"] == "Bearer sk-secret-123"
    assert "sk-secret-123" not in str(caught.value)


@pytest.mark.parametrize("transport", ["default (aiohttp)", "httpx"])
async def test_either_transport_reads_every_chunk_shape_and_keeps_the_text_of_a_cut(
    upstream: UpstreamSim, transport: str
) -> None:
    """The default transport was chosen by a benchmark; httpx's own must read the same wire."""
    annotated = {
        **chunk(" too"),
        "choices": [
            {
                "index": 0,
                "finish_reason": None,
                "delta": {
                    "content": " too",
                    "annotations": [
                        {
                            "type": "url_citation",
                            "url_citation": {
                                "url": "https://example.org/a",
                                "title": "A",
                                "start_index": 0,
                                "end_index": 3,
                            },
                        }
                    ],
                },
            }
        ],
    }
    related = {**chunk(" and"), "related_questions": ["Why not?"]}
    upstream.queue(
        Stream((chunk("Plain"), annotated, related, chunk(" more."), chunk(finish_reason="stop"))),
        Stream((chunk("Cut "), chunk("here"), Cut())),
    )
    own = httpx.AsyncHTTPTransport() if transport == "httpx" else None
    async with AnswerClient(
        base_url=upstream.base_url,
        api_key=None,
        model="m",
        retry=RetryPolicy(max_retries=0),
        transport=own,
    ) as client:
        deltas, done = await collect(client)
        with pytest.raises(StreamCut) as caught:
            await collect(client)
    assert deltas == ["Plain", " too", " and", " more."]
    assert done.related_questions == ("Why not?",)
    assert [c.source_url for c in done.citations] == ["https://example.org/a"]
    assert caught.value.partial_text == "Cut here"


async def test_annotations_on_the_final_chunk_are_counted_once(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    """gpt-4o-search-preview sends its annotations with ``finish_reason`` on a last,
    content-less delta (openai/openai-java#297 shows one); they were read twice."""
    upstream.queue(
        Stream(
            (
                chunk("The eruption was small. "),
                chunk("([reuters.com](https://www.reuters.com/a))"),
                delta("stop", annotations=[url_citation("https://www.reuters.com/a", 24, 66)]),
            )
        )
    )
    _, done = await collect(answer_client)
    assert [(c.number, c.source_url, c.span) for c in done.citations] == [
        (1, "https://www.reuters.com/a", (24, 66))
    ]


async def test_annotations_on_a_delta_and_on_the_final_chunk_each_count_once(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    repeated = url_citation("https://a.example/1", 0, 4)
    upstream.queue(
        Stream(
            (
                delta(content="One. ", annotations=[repeated]),
                chunk("Two."),
                # a gateway that repeats what it already sent, plus the new one
                delta("stop", annotations=[repeated, url_citation("https://b.example/2", 5, 9)]),
            )
        )
    )
    _, done = await collect(answer_client)
    assert [c.source_url for c in done.citations] == ["https://a.example/1", "https://b.example/2"]


async def test_a_whole_json_completion_to_a_stream_request_is_read_as_the_answer(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    """Some OpenAI-compatible gateways answer ``stream: true`` with one JSON completion."""
    message = {
        "role": "assistant",
        "content": "Small eruption. ([x.is](https://x.is/n))",
        "annotations": [url_citation("https://x.is/n", 16, 40)],
    }
    upstream.queue(
        Json(
            200,
            {
                "object": "chat.completion",
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 3, "completion_tokens": 5, "total_tokens": 8},
            },
        )
    )
    deltas, done = await collect(answer_client)
    assert upstream.requests[-1].body["stream"] is True
    assert deltas == [message["content"]] == [done.text]
    assert [c.source_url for c in done.citations] == ["https://x.is/n"]
    assert done.usage is not None
    assert done.usage.total_tokens == 8
