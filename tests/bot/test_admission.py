"""The per-worker cap on answers in flight, and the queue users see behind it."""

from __future__ import annotations

import asyncio

import pytest

from bot.admission import Admission, AdmissionClosed


class Asker:
    """Questions entering one worker's admission; ``log`` is what each user would see."""

    def __init__(self, admission: Admission) -> None:
        self.admission = admission
        self.log: list[str] = []
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self._done: dict[str, asyncio.Event] = {}

    async def ask(self, name: str) -> None:
        """Start ``name`` and return once it is answering or queued."""
        settled = asyncio.Event()
        self._done[name] = asyncio.Event()

        async def queued(place: int) -> None:
            self.log.append(f"{name}: queued, you are number {place}")
            settled.set()

        async def answer() -> None:
            try:
                async with self.admission.slot(on_queued=queued):
                    self.log.append(f"{name} answering")
                    settled.set()
                    await self._done[name].wait()
            except AdmissionClosed:
                self.log.append(f"{name}: restarting, ask again")
                settled.set()

        self.tasks[name] = asyncio.create_task(answer())
        await settled.wait()

    def finish(self, *names: str) -> None:
        for name in names:
            self._done[name].set()

    async def settle(self) -> None:
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)


async def test_queued_questions_learn_their_place_and_run_in_order() -> None:
    asker = Asker(Admission(max_in_flight=1))
    for name in ("A", "B", "C"):
        await asker.ask(name)
    asker.finish("A", "B", "C")
    await asker.settle()
    assert asker.log == [
        "A answering",
        "B: queued, you are number 1",
        "C: queued, you are number 2",
        "B answering",
        "C answering",
    ]


async def test_no_more_than_the_cap_answer_at_once() -> None:
    admission = Admission(max_in_flight=2)
    answering: list[int] = []

    async def answer() -> None:
        async with admission.slot():
            answering.append(answering[-1] + 1 if answering else 1)
            await asyncio.sleep(0.01)
            answering.append(answering[-1] - 1)

    await asyncio.gather(*(answer() for _ in range(7)))
    assert max(answering) == 2
    assert answering[-1] == 0
    assert (admission.in_flight, admission.queued) == (0, 0)


async def test_a_question_given_up_in_the_queue_takes_no_slot() -> None:
    admission = Admission(max_in_flight=1)
    asker = Asker(admission)
    for name in ("A", "B", "C"):
        await asker.ask(name)
    asker.tasks["B"].cancel()
    asker.finish("A", "C")
    await asker.settle()
    assert asker.log[-1] == "C answering"
    assert "B answering" not in asker.log
    assert (admission.in_flight, admission.queued) == (0, 0)


async def test_a_slot_handed_to_a_question_that_just_gave_up_passes_on() -> None:
    admission = Admission(max_in_flight=1)
    asker = Asker(admission)
    async with admission.slot():
        await asker.ask("B")
        await asker.ask("C")
    asker.tasks["B"].cancel()  # B was handed the slot but has not run yet
    asker.finish("C")
    await asker.settle()
    assert asker.log[-1] == "C answering"
    assert (admission.in_flight, admission.queued) == (0, 0)


async def test_closing_turns_queued_and_new_questions_away_but_lets_answers_finish() -> None:
    admission = Admission(max_in_flight=1)
    asker = Asker(admission)
    await asker.ask("A")
    await asker.ask("B")
    admission.close()
    await asker.ask("C")
    asker.finish("A")
    await asker.settle()
    assert asker.log == [
        "A answering",
        "B: queued, you are number 1",
        "B: restarting, ask again",
        "C: restarting, ask again",
    ]
    assert (admission.in_flight, admission.queued) == (0, 0)


def test_the_cap_must_allow_one_answer() -> None:
    with pytest.raises(ValueError, match="max_in_flight"):
        Admission(max_in_flight=0)
