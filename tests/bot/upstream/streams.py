"""What the answer client's tests share: reading a stream to its end, a chunk with any delta
fields, and a client that gives up quickly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.upstream.client import AnswerClient, RetryPolicy, Timeouts
from bot.upstream.events import AnswerDone, TextDelta, Turn
from tests.sim.upstream import UpstreamSim, chunk

__all__ = ["annotation", "collect", "delta", "impatient"]


async def collect(
    client: AnswerClient, question: str = "Why?", *, history: Sequence[Turn] = ()
) -> tuple[list[str], AnswerDone]:
    deltas: list[str] = []
    done = None
    async for event in client.stream(question, history=history):
        if isinstance(event, TextDelta):
            deltas.append(event.text)
        elif isinstance(event, AnswerDone):
            done = event
    assert done is not None
    return deltas, done


def delta(finish_reason: str | None = None, **fields: object) -> dict[str, Any]:
    """A chunk whose delta carries exactly ``fields`` (annotations, reasoning...)."""
    return {
        **chunk(),
        "choices": [{"index": 0, "delta": fields, "finish_reason": finish_reason}],
    }


def annotation(n: int) -> dict[str, Any]:
    """OpenAI's ``url_citation`` annotation of page ``n`` over the answer's first word."""
    return {
        "type": "url_citation",
        "url_citation": {
            "url": f"https://example.org/{n}",
            "title": f"Page {n}",
            "start_index": 0,
            "end_index": 6,
        },
    }


def impatient(upstream: UpstreamSim) -> AnswerClient:
    """A client that calls 0.3 s of silence a dead stream, and never retries."""
    return AnswerClient(
        base_url=upstream.base_url,
        api_key=None,
        model="m",
        timeouts=Timeouts(connect=2, idle=0.3, total=10),
        retry=RetryPolicy(max_retries=0),
    )
