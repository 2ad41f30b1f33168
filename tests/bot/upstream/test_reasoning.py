"""Reasoning is never the answer: the <think> filter fed every way a stream can split the text,
and the client on streams that reason in tags, in fields, or are cut while reasoning."""

from __future__ import annotations

import itertools

import pytest

from bot.upstream.client import AnswerClient, RetryPolicy
from bot.upstream.errors import UpstreamDown
from bot.upstream.events import AnswerDone, Reasoning, TextDelta
from bot.upstream.reasoning import ThinkFilter, reasoning_of
from tests.bot.upstream.streams import collect, delta, impatient
from tests.sim.upstream import Cut, Pause, Step, Stream, UpstreamSim, answer, chunk


def run(pieces: list[str]) -> tuple[str, bool]:
    """What the reader sees of ``pieces``, and whether any of it was reasoning."""
    think = ThinkFilter()
    shown, reasoned = [], False
    for piece in pieces:
        out = think.feed(piece)
        shown.append(out.text)
        reasoned |= out.reasoned
    return "".join(shown) + think.tail, reasoned


def splits(text: str) -> list[list[str]]:
    """The text whole, cut once anywhere, and cut twice anywhere."""
    cuts = [list(pair) for pair in itertools.combinations(range(1, len(text)), 2)]
    ones = [[text[:i], text[i:]] for i in range(1, len(text))]
    twos = [[text[:i], text[i:j], text[j:]] for i, j in cuts]
    return [[text], *ones, *twos]


@pytest.mark.parametrize(
    ("text", "reader_sees", "reasoned"),
    [
        # Perplexity's sonar-reasoning: the answer opens with the block
        ("<think>\nThe user asks.\n</think>\n\nHope[1] is a virtue.", "Hope[1] is a virtue.", True),
        # a block opening a later line, then the answer goes on
        ("Intro.\n<think>plan</think>\nMore.", "Intro.\nMore.", True),
        # the tag mentioned inside a sentence is the answer's own words
        ("Wrap it in `<think>` tags.", "Wrap it in `<think>` tags.", False),
        # an answer that ends on what could have begun a tag
        ("Line\n<thi", "Line\n<thi", False),
        # a stream cut inside the reasoning leaves nothing to show
        ("<think>\nstill reasoning about it", "", True),
        # a closing tag alone is no block
        ("a </think> b", "a </think> b", False),
    ],
)
def test_the_reader_sees_the_same_however_the_stream_splits_it(
    text: str, reader_sees: str, reasoned: bool
) -> None:
    for pieces in splits(text):
        assert run(pieces) == (reader_sees, reasoned), pieces


def test_reasoning_fields_are_recognised_and_empty_ones_are_not() -> None:
    assert reasoning_of({"content": None, "reasoning_content": "We need"})
    assert reasoning_of({"content": "", "reasoning": "First"})
    assert not reasoning_of({"content": "", "reasoning": None, "reasoning_details": []})
    assert not reasoning_of({"content": "Oi"})


async def test_a_think_block_split_anywhere_never_reaches_the_text(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(
        answer(["<th", "ink>\nThe user asks", " about hope.</thi", "nk>\n\nHope[^1", "] lasts."])
    )
    events = [event async for event in answer_client.stream("Why?")]
    shown = "".join(e.text for e in events if isinstance(e, TextDelta))
    done = events[-1]
    assert isinstance(done, AnswerDone)
    assert shown == done.text == "Hope[^1] lasts."
    assert any(isinstance(e, Reasoning) for e in events)


async def test_reasoning_fields_keep_the_answer_alive_but_are_never_text(
    upstream: UpstreamSim,
) -> None:
    """Three reasoning pieces 0.2 s apart outlast a 0.3 s idle timeout: reasoning is life."""
    reasoning: list[Step] = [
        delta(reasoning_content="We need"),
        Pause(0.2),
        delta(reasoning=" to count"),
        Pause(0.2),
        delta(reasoning_content=" letters."),
        Pause(0.2),
    ]
    upstream.queue(Stream((*reasoning, chunk("Three."), chunk(finish_reason="stop"))))
    async with impatient(upstream) as client:
        events = [event async for event in client.stream("Why?")]
    assert [type(e) for e in events] == [Reasoning, Reasoning, Reasoning, TextDelta, AnswerDone]
    assert isinstance(events[-1], AnswerDone)
    assert events[-1].text == "Three."


async def test_a_stream_cut_while_the_model_reasons_shows_nothing_and_is_retried(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    upstream.queue(Stream((chunk("<think>\nLet me think"), Cut())), answer(["Fine."]))
    deltas, done = await collect(answer_client)
    assert deltas == ["Fine."]
    assert done.text == "Fine."
    assert len(upstream.requests) == 2  # nothing had been shown, so a retry is invisible


async def test_a_stream_cut_while_the_model_reasons_says_so_when_retries_run_out(
    upstream: UpstreamSim,
) -> None:
    upstream.default = Stream((chunk("<think>\nLet me think"), Cut()))
    async with AnswerClient(
        base_url=upstream.base_url, api_key=None, model="m", retry=RetryPolicy(max_retries=0)
    ) as client:
        with pytest.raises(UpstreamDown, match="while the model reasoned"):
            await collect(client)


async def test_content_parts_show_their_text_and_never_their_thinking(
    upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    """Magistral's deltas are lists of parts (the recorded streams' shapes): a thinking part is
    reasoning, a text part is answer, and a stream may switch to plain strings."""
    thinking = [{"type": "thinking", "thinking": [{"type": "text", "text": "The user is asking"}]}]
    upstream.queue(
        Stream(
            (
                delta(role="assistant", content=thinking),
                delta(content=[{"type": "text", "text": "2 + 2"}]),
                delta(content=" = 4"),
                delta("stop", content=""),
            )
        )
    )
    events = [event async for event in answer_client.stream("Why?")]
    assert [type(e) for e in events] == [Reasoning, TextDelta, TextDelta, AnswerDone]
    assert isinstance(events[-1], AnswerDone)
    assert events[-1].text == "2 + 2 = 4"
