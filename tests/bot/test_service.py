"""The answer service: the rules around an answer that a community relies on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

import httpx
import pytest

from bot.admission import Admission
from bot.answer import Question
from bot.ingress import Ingress
from bot.ops.health import health_routes
from bot.pacing import Pacer
from bot.render.ports import Payload
from bot.service import AnswerService, Limits
from bot.state import open_state
from bot.upstream.client import AnswerClient
from tests.bot.presenter import PlainPresenter
from tests.patience import PATIENCE
from tests.sim.upstream import Gate, Stream, UpstreamSim, answer, chunk

NOW = Pacer(min_interval=0.0)


@dataclass
class Sink:
    """One conversation's view: the messages shown, latest last."""

    shown: list[str] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        self.shown.append("\n".join(m["content"] for m in messages))
        self.changed.set()

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        pass

    async def edit_thread(self, index: int, payload: Payload) -> None:
        pass

    async def wait_for(self, words: str) -> None:
        async with asyncio.timeout(PATIENCE):
            while not any(words in text for text in self.shown):
                self.changed.clear()
                await self.changed.wait()


@pytest.fixture
async def service(answer_client: AnswerClient) -> AsyncIterator[AnswerService]:
    async with open_state("memory://") as state:
        yield AnswerService(
            client=answer_client,
            state=state,
            admission=Admission(max_in_flight=1),
            limits=Limits(questions_per_minute=3, max_question_length=50),
        )


def question(text: str, *, user: str = "U1", thread: str | None = None) -> Question:
    return Question(text=text, platform="discord", user_id=user, channel_id="C1", thread_id=thread)


async def ask(service: AnswerService, q: Question, sink: Sink | None = None) -> Sink:
    sink = sink or Sink()
    await service.ask(q, presenter=PlainPresenter(), sink=sink, pacer=NOW)
    return sink


async def test_a_user_asking_too_often_is_told_when_to_come_back(
    service: AnswerService, upstream: UpstreamSim
) -> None:
    for n in range(3):
        await ask(service, question(f"Question {n}?"))
    refused = await ask(service, question("One more?"))
    assert refused.shown == [
        "You have asked a lot of questions in a short time. Please wait 60 seconds and ask again."
    ]
    assert len(upstream.requests) == 3
    other_user = await ask(service, question("Mine?", user="U2"))
    assert other_user.shown[-1] == "Hello world."


async def test_a_question_over_the_length_limit_is_refused_one_at_it_is_answered(
    service: AnswerService, upstream: UpstreamSim
) -> None:
    refused = await ask(service, question("x" * 51))
    assert refused.shown == ["That question is too long: please use at most 50 characters."]
    assert upstream.requests == []
    at_the_limit = await ask(service, question("x" * 50))
    assert at_the_limit.shown[-1] == "Hello world."  # "at most 50" is what the service takes


async def test_over_the_workers_cap_a_question_is_queued_and_told_its_place(
    service: AnswerService, upstream: UpstreamSim
) -> None:
    upstream.queue(Stream((chunk("Slow answer"), Gate())), answer(["Second answer."]))
    answering = Sink()
    first = asyncio.create_task(ask(service, question("First?"), answering))
    await answering.wait_for("Slow answer")
    waiting = Sink()
    second = asyncio.create_task(ask(service, question("Second?", user="U2"), waiting))
    await waiting.wait_for("number 1 in line")
    upstream.release()
    await asyncio.gather(first, second)
    assert waiting.shown[0].startswith(
        "Many questions are being answered right now; yours is number 1 in line"
    )
    assert waiting.shown[-1] == "Second answer."


async def test_one_thread_answers_one_question_at_a_time_in_order_with_memory(
    service: AnswerService, upstream: UpstreamSim
) -> None:
    upstream.queue(
        Stream((chunk("First answer."), Gate(), chunk(finish_reason="stop"))),
        answer(["Second answer."]),
    )
    answering = Sink()
    first = asyncio.create_task(ask(service, question("First?", thread="T1"), answering))
    await answering.wait_for("First answer.")
    waiting = Sink()
    second = asyncio.create_task(ask(service, question("Second?", thread="T1"), waiting))
    await waiting.wait_for("as soon as I have answered the question before it in this thread")
    assert len(upstream.requests) == 1  # the second waits for the thread
    upstream.release()
    await asyncio.gather(first, second)
    assert upstream.questions[1] == [
        {"role": "user", "content": "First?"},
        {"role": "assistant", "content": "First answer."},
        {"role": "user", "content": "Second?"},
    ]


async def test_draining_refuses_new_questions_and_interrupts_late_answers(
    service: AnswerService, upstream: UpstreamSim
) -> None:
    upstream.queue(Stream((chunk("Half an answer"), Gate())))
    sink = Sink()
    running = asyncio.create_task(ask(service, question("Long?"), sink))
    await sink.wait_for("Half an answer")
    await service.drain(grace=0.2)
    assert running.cancelled() or running.done()
    assert sink.shown[-1].startswith("Half an answer")
    assert "interrupted" in sink.shown[-1]
    late = await ask(service, question("Anyone?"))
    assert late.shown == ["citebot is restarting. Please ask again in a moment."]


async def test_health_endpoints_say_alive_ready_and_count_answers(
    service: AnswerService, upstream: UpstreamSim
) -> None:
    ready = {"slack": asyncio.Event()}
    routes = health_routes(service=service, ready=ready)
    async with (
        Ingress(host="127.0.0.1").serving(0, routes) as port,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
    ):
        assert (await http.get("/healthz")).json() == {"status": "ok"}
        not_yet = await http.get("/readyz")
        assert not_yet.status_code == 503
        assert not_yet.json()["platforms"] == {"slack": False}
        ready["slack"].set()
        assert (await http.get("/readyz")).status_code == 200
        await ask(service, question("Counted?"))
        metrics = (await http.get("/metrics")).text
        assert 'citebot_answers_total{outcome="answered",platform="discord"} 1.0' in metrics
        await service.drain(grace=0)
        assert (await http.get("/readyz")).status_code == 503  # a draining worker takes no work
