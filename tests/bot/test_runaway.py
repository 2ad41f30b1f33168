"""Runaway answers: however long an answer or however many its sources, one answer takes a
bounded number of messages and cards, and says what it left out."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.answer import Outcome, Question, answer_question
from bot.i18n.wording import Wording
from bot.pacing import Pacer
from bot.render.ports import Payload
from bot.upstream.client import AnswerClient
from tests.bot.presenter import PlainPresenter
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

QUESTION = Question(text="Tell me everything.", platform="discord", user_id="u1", channel_id="c1")
TOO_LONG = (
    "This answer is too long to show in full, so it stops here. Ask a follow-up question for "
    "the rest."
)


@dataclass
class Sink:
    shown: tuple[Payload, ...] = ()
    writes: int = 0
    thread: list[Payload] = field(default_factory=list)

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        self.shown = tuple(messages)
        self.writes += 1

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        self.thread.extend(payloads)

    async def edit_thread(self, index: int, payload: Payload) -> None:
        self.thread[index] = payload


async def ask(
    client: AnswerClient,
    sink: Sink,
    *,
    max_messages: int | None = None,
    max_cards: int | None = None,
) -> Outcome:
    return await answer_question(
        QUESTION,
        client=client,
        presenter=PlainPresenter(),
        sink=sink,
        pacer=Pacer(min_interval=0.05),
        max_messages=max_messages,
        max_cards=max_cards,
    )


def paragraph(n: int) -> str:
    return f"Paragraph {n} says something worth reading, at some length. " * 16 + "\n\n"


async def test_a_300_kb_answer_stops_after_the_messages_an_answer_may_take_and_says_so(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    pieces = [paragraph(n) for n in range(320)]
    pieces[0] = "The first paragraph cites its source.[^1]\n\n"
    pieces[-1] = "The last paragraph cites another.[^2]\n\n"
    assert sum(map(len, pieces)) > 290_000
    upstream.queue(
        answer(
            pieces,
            [
                magisterium_citation(0, "First.", title="Shown"),
                magisterium_citation(1, "Last.", title="Never shown"),
            ],
        )
    )
    sink = Sink()
    outcome = await ask(answer_client, sink, max_messages=10, max_cards=20)
    assert outcome.status == "answered"
    assert len(sink.shown) == 10  # not 219: the person reads ten messages, then the note
    last = sink.shown[-1]["content"]
    assert last.endswith(f"*{TOO_LONG}*")
    assert len(last) <= PlainPresenter.message_limit
    assert sink.shown[0]["content"].startswith(
        "The first paragraph cites its source.[1](https://example.org/doc/1)"
    )
    assert not any("Paragraph 318" in m["content"] for m in sink.shown)
    # Only what a person can see is cited: the hidden footnote's source is merely consulted.
    assert [card["title"] for payload in sink.thread for card in payload.get("cards", [])] == [
        "Shown"
    ]
    assert {"also_consulted": ["Never shown"]} in sink.thread
    assert outcome.rendered is not None
    assert len(outcome.rendered.answer) == 10


async def test_without_a_cap_every_message_shows(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(answer([paragraph(n) for n in range(12)]))
    sink = Sink()
    await ask(answer_client, sink)
    assert len(sink.shown) > 3
    assert TOO_LONG not in sink.shown[-1]["content"]
    capped = Sink()
    upstream.queue(answer([paragraph(n) for n in range(12)]))
    await ask(answer_client, capped, max_messages=3)
    assert [m["content"] for m in capped.shown[:2]] == [m["content"] for m in sink.shown[:2]]
    assert capped.shown[2]["content"].endswith(f"*{TOO_LONG}*")


async def test_a_thousand_citations_behind_one_footnote_take_a_few_cards_and_one_summary(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    citations = [
        magisterium_citation(0, f"Passage {i}.", title=f"Document {i}", url=f"https://ex.org/{i}")
        for i in range(1000)
    ]
    upstream.queue(answer(["Everything agrees.[^1]"], citations))
    sink = Sink()
    await ask(answer_client, sink, max_cards=20)
    cards = [card for payload in sink.thread for card in payload.get("cards", [])]
    assert [card["title"] for card in cards] == [f"Document {i}" for i in range(20)]
    assert len(sink.thread) == 7 + 1  # 20 cards, 3 a message; then one summary, not 334 more
    summary = sink.thread[-1]["content"]
    lead, *lines = summary.split("\n")
    assert lead == "**…and 980 more sources**"
    assert lines[0] == "1. [Document 20](https://ex.org/20)"
    assert 10 < len(lines) < 980  # linked while they fit in one message
    assert all(re.fullmatch(r"1\. \[Document \d+\]\(https://ex\.org/\d+\)", line) for line in lines)
    assert len(summary) <= PlainPresenter.message_limit


def test_the_summary_counts_in_the_reader_s_language() -> None:
    assert Wording("pl").more_sources(1) == "…i jeszcze 1 źródło"
    assert Wording("pl").more_sources(3) == "…i jeszcze 3 źródła"
    assert Wording("pl").more_sources(980) == "…i jeszcze 980 źródeł"
    assert Wording("de").more_sources(1_200) == "…und 1.200 weitere Quellen"
    assert Wording("zh_Hant").more_sources(12) == "…還有 12 個來源"
