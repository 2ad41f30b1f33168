"""The answer flow: what a platform is asked to show, in what order, at what pace."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.answer import Outcome, Question, answer_question
from bot.pacing import Pacer
from bot.render.ports import Payload
from bot.upstream.client import AnswerClient
from tests.bot.presenter import PlainPresenter
from tests.sim.recordings import recordings
from tests.sim.upstream import (
    Cut,
    Gate,
    Json,
    Pause,
    Stream,
    UpstreamSim,
    answer,
    chunk,
    magisterium_citation,
)

QUESTION = Question(text="What is hope?", platform="discord", user_id="u1", channel_id="c1")


@dataclass
class RecordingSink:
    """What the platform was asked to show, with when."""

    shows: list[tuple[float, tuple[Payload, ...], bool]] = field(default_factory=list)
    thread: list[Payload] = field(default_factory=list)
    first_shown: asyncio.Event = field(default_factory=asyncio.Event)

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        self.shows.append((time.monotonic(), tuple(messages), final))
        self.first_shown.set()

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        self.thread.extend(payloads)

    async def edit_thread(self, index: int, payload: Payload) -> None:
        self.thread[index] = payload

    @property
    def final(self) -> str:
        return "\n".join(m["content"] for m in self.shows[-1][1])


async def ask(client: AnswerClient, sink: RecordingSink, *, min_interval: float = 0.0) -> Outcome:
    return await answer_question(
        QUESTION,
        client=client,
        presenter=PlainPresenter(),
        sink=sink,
        pacer=Pacer(min_interval=min_interval),
    )


async def test_the_answer_is_shown_then_linked_and_its_cards_posted(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(
        answer(
            ["Hope is ", "a virtue[^1", "]."],
            [
                magisterium_citation(
                    0, "Hope is the theological virtue.", title="Catechism", reference="1817"
                )
            ],
        )
    )
    sink = RecordingSink()
    outcome = await ask(answer_client, sink)
    assert outcome.status == "answered"
    assert sink.shows[-1][2] is True
    assert sink.final == "Hope is a virtue[1](https://example.org/doc/1)."
    assert not any(final for _, _, final in sink.shows[:-1])
    cards = [card for payload in sink.thread for card in payload.get("cards", [])]
    assert cards[0]["title"] == "Catechism"
    assert cards[0]["quote"] == "Hope is the theological virtue."
    assert outcome.text == "Hope is a virtue[^1]."


async def test_the_first_text_is_shown_at_once_then_writes_are_spaced(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    pieces = [f"Word{n} " for n in range(30)]
    upstream.queue(answer(pieces, between=[Pause(0.03)]))
    sink = RecordingSink()
    outcome = await ask(answer_client, sink, min_interval=0.25)
    times = [at for at, _, _ in sink.shows]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert all(gap >= 0.24 for gap in gaps)
    assert len(sink.shows) < len(pieces) / 2  # deltas coalesce: the latest text wins
    assert sink.shows[0][1][0]["content"].startswith("Word0")
    assert outcome.first_token_seconds is not None
    assert outcome.first_text_seconds is not None
    assert outcome.first_text_seconds >= outcome.first_token_seconds
    assert outcome.writes == len(sink.shows)


async def test_nothing_is_written_twice(upstream: UpstreamSim, answer_client: AnswerClient) -> None:
    upstream.queue(answer(["Same", "", "", " text."], between=[Pause(0.02)]))
    sink = RecordingSink()
    await ask(answer_client, sink, min_interval=0.01)
    streamed = [messages for _, messages, final in sink.shows if not final]
    assert all(a != b for a, b in itertools.pairwise(streamed))


async def test_a_cut_stream_keeps_the_text_and_adds_a_note(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(Stream((chunk("Hope is a "), chunk("virtue[^1] that"), Cut())))
    sink = RecordingSink()
    outcome = await ask(answer_client, sink)
    assert outcome.status == "interrupted"
    assert sink.final.startswith("Hope is a virtue that")
    assert "interrupted" in sink.final
    assert "[^1]" not in sink.final


async def test_an_upstream_that_is_down_gets_one_friendly_message(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.default = Json(503, {"error": {"message": "maintenance"}})
    sink = RecordingSink()
    outcome = await ask(answer_client, sink)
    assert outcome.status == "failed"
    assert len(sink.shows) == 1
    assert "could not reach the answer service" in sink.final
    assert "maintenance" not in sink.final  # the upstream's words are for the log


async def test_a_rate_limited_upstream_says_when_to_retry(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.default = Json(429, {}, {"Retry-After": "300"})
    sink = RecordingSink()
    await ask(answer_client, sink)
    assert "try again in 5 minutes" in sink.final


async def test_the_content_filter_is_a_polite_refusal(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(answer([], finish_reason="content_filter"))
    sink = RecordingSink()
    outcome = await ask(answer_client, sink)
    assert outcome.status == "filtered"
    assert "I can't help with that question" in sink.final


async def test_cancelling_an_answer_closes_it_with_a_note(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(Stream((chunk("Half of the answer"), Gate())))
    sink = RecordingSink()
    task = asyncio.create_task(ask(answer_client, sink))
    await sink.first_shown.wait()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert sink.shows[-1][2] is True
    assert sink.final.startswith("Half of the answer")
    assert "interrupted" in sink.final


async def test_an_answer_cut_at_the_length_limit_says_so(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(answer(["A long answer that"], finish_reason="length"))
    sink = RecordingSink()
    outcome = await ask(answer_client, sink)
    assert outcome.status == "answered"
    assert sink.final.startswith("A long answer that")
    assert sink.final.endswith(
        "\n\n*The answer reached the length limit of the answer service "
        "and stops here. Ask a follow-up question for the rest.*"
    )


async def test_a_reasoning_model_shows_only_its_answer_and_keeps_only_that(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    """A live sonar-reasoning-pro stream: until its answer begins nothing is written, so the
    platform's "thinking…" status stays up; the reasoning reaches no message and no history."""
    (recording,) = [r for r in recordings() if r.name == "perplexity/sonar-reasoning-pro-stream"]
    upstream.queue(recording.reply)
    sink = RecordingSink()
    outcome = await ask(answer_client, sink)
    assert outcome.status == "answered"
    assert outcome.text.startswith("紅樓夢的作者是")  # what the next question's history holds
    shown = [m["content"] for _, messages, _ in sink.shows for m in messages]
    assert shown
    assert all("think>" not in text and "The user is asking" not in text for text in shown)
