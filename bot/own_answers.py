"""A place's own answer given instead of the sources': which one a question gets, and the
answer "client" that gives it through the same flow as an upstream's (so each platform shows
it as it shows any answer: its Markdown, its limits, its buttons); and the buttons under any
answer that a place's admins set up ("Ask a person").

Nothing goes upstream for it: it costs no tokens and no daily question, and its mark says it
is the admins' own, who set it and when, with a button to ask the sources anyway.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime

from bot.answer import Question
from bot.i18n.wording import Wording
from bot.matching import best_match
from bot.places import Places, PlaceSettings
from bot.places.own import OwnAnswer
from bot.render.ports import Button
from bot.upstream.events import AnswerDone, AnswerEvent, TextDelta, Turn

__all__ = ["OwnAnswerClient", "answer_buttons", "own_answer_for", "own_mark"]


class OwnAnswerClient:
    """An :class:`~bot.upstream.client.Answerer` that answers with a place's own answer."""

    def __init__(self, own: OwnAnswer) -> None:
        self.own = own

    async def stream(
        self, question: str, *, history: Sequence[Turn] = ()
    ) -> AsyncIterator[AnswerEvent]:
        yield TextDelta(self.own.answer)
        yield AnswerDone(text=self.own.answer, finish_reason="stop", citations=())


async def own_answer_for(places: Places, question: Question) -> OwnAnswer | None:
    """The own answer of the place ``question`` was asked in that it asks for, if any (the
    channel's before its server's); None where the asker pressed "Ask the sources", outside
    any server, or where none matches closely (:mod:`bot.matching`)."""
    if not question.own_answers or question.server_id is None or not question.text.strip():
        return None
    answers = await places.own_answers_at(
        question.platform, question.server_id, question.channel_id
    )
    if not answers:
        return None
    candidates = [(own, own.question, own.language) for own in answers]
    # a thread of its own: reading and comparing a few hundred questions is CPU work (well
    # under a millisecond; bench/bench_matching.py), which no answer streaming meanwhile waits on
    found = await asyncio.to_thread(best_match, question.text, candidates)
    return found[0] if found is not None else None


def own_mark(own: OwnAnswer, words: Wording) -> str:
    """What closes an own answer: the admins', set by whom and when (the UTC day)."""
    day = datetime.fromtimestamp(own.at, UTC).strftime("%Y-%m-%d")
    return words.own_answer_mark(own.name, day)


def answer_buttons(
    wording: Wording, place: PlaceSettings | None, *, own: bool
) -> tuple[Button, ...]:
    """The buttons under an answer: "Ask the sources" under a place's own answer, "Ask a
    person" where the place's ``handoff`` names someone."""
    labels = wording.labels
    buttons = [Button("ask_sources", labels.ask_sources)] if own else []
    if place is not None and place.handoff is not None:
        buttons.append(Button("ask_person", labels.ask_person))
    return tuple(buttons)
