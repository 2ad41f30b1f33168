"""The demo upstream over real loopback HTTP, read as the answer client reads Magisterium."""

from __future__ import annotations

import httpx
import pytest
from httpx_sse import aconnect_sse

from bot.demo import NOTHING_FOUND, running_demo
from tests.bot.demo.conftest import MARKER, assert_backed, body, corpus_texts, stream


async def test_deploy_question_streams_a_cited_answer_from_the_deploy_guide(
    http: httpx.AsyncClient, demo_url: str
) -> None:
    answer = await stream(http, demo_url, "How do I deploy citebot?")

    assert answer.chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    assert answer.events[-1] == "[DONE]"
    assert "[DONE]" not in answer.events[:-1]
    assert all(c["object"] == "chat.completion.chunk" for c in answer.chunks)
    assert len({c["id"] for c in answer.chunks}) == 1
    assert all("citations" not in c for c in answer.chunks[:-1])
    final = answer.final
    assert final["choices"] == [{"index": 0, "delta": {}, "finish_reason": "stop"}]
    assert "`citebot run`" in answer.text
    first = final["citations"][0]
    assert first["document_title"] == "Deploying citebot as a worker"
    assert (first["document_author"], first["document_year"]) == ("The citebot team", "2026")
    assert first["source_url"] == f"{demo_url.removesuffix('/v1')}/corpus/04-deploying"
    assert_backed(answer.text, final["citations"], corpus_texts())
    usage = final["usage"]
    assert usage["completion_tokens"] == len(answer.content_deltas)
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


async def test_markers_reach_the_wire_split_across_deltas(
    http: httpx.AsyncClient, demo_url: str
) -> None:
    answer = await stream(http, demo_url, "How do Slack threads and mentions work?")

    assert any("[" in d and "]" not in d for d in answer.content_deltas)
    assert MARKER.search(answer.text)
    assert_backed(answer.text, answer.final["citations"], corpus_texts())


async def test_non_streaming_completion_carries_top_level_citations(
    http: httpx.AsyncClient, demo_url: str
) -> None:
    response = await http.post(
        f"{demo_url}/chat/completions",
        json=body("Which variables configure Slack?", stream=False),
        headers={"Authorization": "Bearer any-key"},
    )

    assert response.status_code == 200
    reply = response.json()
    assert reply["object"] == "chat.completion"
    assert reply["choices"][0]["finish_reason"] == "stop"
    assert reply["choices"][0]["message"]["role"] == "assistant"
    text = reply["choices"][0]["message"]["content"]
    assert "SLACK_BOT_TOKEN" in text
    assert_backed(text, reply["citations"], corpus_texts())


async def test_related_questions_come_on_the_final_chunk_only_when_asked(
    http: httpx.AsyncClient, demo_url: str
) -> None:
    asked = await stream(http, demo_url, "How do I deploy citebot?", return_related_questions=True)
    plain = await stream(http, demo_url, "How do I deploy citebot?")

    related = asked.final["related_questions"]
    assert related
    assert all(q.endswith("?") for q in related)
    assert "How do I deploy citebot?" not in related
    assert all("related_questions" not in c for c in asked.chunks[:-1])
    assert "related_questions" not in plain.final


async def test_a_question_the_corpus_cannot_answer_gets_a_polite_uncited_reply(
    http: httpx.AsyncClient, demo_url: str
) -> None:
    answer = await stream(http, demo_url, "What is the best recipe for sourdough bread?")

    assert answer.text == NOTHING_FOUND
    assert answer.final["citations"] == []
    assert answer.final["choices"][0]["finish_reason"] == "stop"
    assert answer.events[-1] == "[DONE]"


@pytest.mark.parametrize(
    "question",
    [
        'How do I "deploy citebot',
        "deploy*",
        "NEAR(deploy citebot",
        "-deploy -",
        "column:deploy title: body:",
        "deploy AND OR NOT ( ) { } ^ +",
        "'; DROP TABLE passages; --",
        "?!",
    ],
)
async def test_search_syntax_in_a_question_never_breaks_the_answer(
    http: httpx.AsyncClient, demo_url: str, question: str
) -> None:
    answer = await stream(http, demo_url, question)

    assert answer.events[-1] == "[DONE]"
    if answer.final["citations"]:
        assert_backed(answer.text, answer.final["citations"], corpus_texts())
    else:
        assert answer.text == NOTHING_FOUND


async def test_a_question_in_another_language_is_answered_or_politely_declined(
    http: httpx.AsyncClient, demo_url: str
) -> None:
    french = await stream(http, demo_url, "Comment déployer citebot sur un serveur ?")
    spanish = await stream(http, demo_url, "¿Cuál es la capital de Francia?")
    chinese = await stream(http, demo_url, "如何部署？")

    assert_backed(french.text, french.final["citations"], corpus_texts())
    assert spanish.text == NOTHING_FOUND
    assert chinese.events[-1] == "[DONE]"


async def test_a_short_follow_up_borrows_the_topic_of_the_earlier_question(
    http: httpx.AsyncClient, demo_url: str
) -> None:
    answer = await stream(
        http, demo_url, "And with Slack?", history=["How do I deploy citebot as a worker?"]
    )

    assert "Socket Mode" in answer.text
    assert_backed(answer.text, answer.final["citations"], corpus_texts())


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (b'{"model": "magisterium-1"}', "messages"),
        (b'{"messages": []}', "messages"),
        (b'{"messages": [{"role": "system", "content": "be brief"}]}', "user message"),
        (b'{"messages": [{"content": "no role"}]}', "role"),
    ],
)
async def test_a_bad_request_is_a_400_in_the_openai_error_shape(
    http: httpx.AsyncClient, demo_url: str, payload: bytes, message: str
) -> None:
    response = await http.post(
        f"{demo_url}/chat/completions",
        content=payload,
        headers={"Content-Type": "application/json"},
    )

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert message in error["message"]


async def test_models_health_and_unknown_routes(http: httpx.AsyncClient, demo_url: str) -> None:
    models = await http.get(f"{demo_url}/models")
    root = demo_url.removesuffix("/v1")
    health = await http.get(f"{root}/healthz")
    unversioned = await http.post(
        f"{root}/chat/completions", json=body("What is citebot?", stream=False)
    )
    missing = await http.get(f"{demo_url}/nowhere")

    assert [m["id"] for m in models.json()["data"]] == ["magisterium-1"]
    assert health.json()["status"] == "ok"
    assert unversioned.json()["citations"]
    assert missing.status_code == 404
    assert missing.json()["error"]["message"]


async def test_pacing_sends_one_delta_per_token_and_survives_a_client_hanging_up(
    http: httpx.AsyncClient,
) -> None:
    async with running_demo(tokens_per_second=40) as url:
        async with aconnect_sse(
            http, "POST", f"{url}/chat/completions", json=body("How do I deploy citebot?")
        ) as source:
            deltas = []
            async for event in source.aiter_sse():
                deltas.append(event.json()["choices"][0]["delta"])
                if len(deltas) == 4:
                    break
        # The answer would take seconds more at 40 tokens a second; the server keeps serving.
        after = await http.get(f"{url.removesuffix('/v1')}/healthz")

    assert deltas[0] == {"role": "assistant", "content": ""}
    assert all(0 < len(d["content"]) <= 8 for d in deltas[1:])
    assert after.status_code == 200


async def test_a_paced_answer_arrives_whole_one_delta_per_token(
    http: httpx.AsyncClient, demo_url: str
) -> None:
    unpaced = await stream(http, demo_url, "How do I deploy citebot?")
    async with running_demo(tokens_per_second=5000) as url:
        paced = await stream(http, url, "How do I deploy citebot?")

    assert paced.text == unpaced.text
    assert len(paced.content_deltas) == paced.final["usage"]["completion_tokens"] > 50
    # the same citations, each linking to the page of the server that gave it
    assert [
        {**c, "source_url": c["source_url"].replace(url[:-3], demo_url[:-3])}
        for c in paced.final["citations"]
    ] == unpaced.final["citations"]
