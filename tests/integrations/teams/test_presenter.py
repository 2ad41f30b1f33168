"""A Teams answer as Teams shows it, its addendum on it (:func:`with_addenda`): for every answer
the suites know, streamed, capped or not, its verdicts edited in, each message is an activity
Teams takes (the simulator's rules: the SDK's models, Teams' limits) in which every ``[n]`` has
its citation and every citation its ``[n]``; a popup carries the quote as its source wrote it
and the check on its page; past 20 the sources close the answer; and an answer pressing on 100
KB keeps its words and loses popups first."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.i18n.wording import ENGLISH_LABELS
from bot.render.formatter import AnswerFormatter, RenderedAnswer
from bot.render.thread import write_thread
from bot.verify import Verdict
from integrations.teams.limits import ACTIVITY_BYTES, CITATIONS, utf16_bytes
from integrations.teams.presenter import TeamsPresenter, root_entity, with_addenda
from tests.integrations.conformance.kit import ANSWERS
from tests.integrations.formatter.cases import Case, source
from tests.integrations.teams.reading import read_teams
from tests.sim.teams.model import SimConversation, SimMessage
from tests.sim.teams.rules import check_activity

PRESENTER = TeamsPresenter()


def finished(case: Case, *, capped: bool) -> RenderedAnswer:
    formatter = AnswerFormatter(
        PRESENTER, max_messages=10 if capped else None, max_cards=20 if capped else None
    )
    for start in range(0, len(case.text), 40):
        formatter.feed(case.text[start : start + 40])
        formatter.render()
    return formatter.finish(case.done())


def shown(activity: dict[str, object]) -> SimMessage:
    """The message as the simulator shows it, to read its markers and citations."""
    chat = SimConversation(id="a:1", kind="personal", tenant_id="t")
    message = SimMessage(id="1", conversation=chat, sender=None)
    message.activity = dict(activity)
    message.text = str(activity.get("text", ""))
    return message


@pytest.mark.parametrize("capped", [True, False], ids=["capped", "uncapped"])
@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_every_answer_with_its_addendum_is_one_teams_takes(name: str, capped: bool) -> None:
    result = finished(ANSWERS[name], capped=capped)
    checked = [replace(card, quote_check=Verdict.FOUND) for card in result.layout.cards]
    for thread in (result.thread, write_thread(replace(result.layout, cards=checked), PRESENTER)):
        answer, rest = with_addenda(result.answer, thread)
        for activity in [*answer, *rest]:
            assert check_activity(activity) == []
            assert shown(activity).unmatched() == []
            assert len(shown(activity).citations) <= CITATIONS


def test_a_popup_holds_the_quote_as_written_and_its_check() -> None:
    case = Case(
        text="Grace perfects nature.[^1] It heals.[^2]",
        citations=[
            source(
                0,
                cited_text="Gratia *non* tollit naturam [sed] perficit.",
                document_author="Thomas",
            ),
            source(1, cited_text="Grace heals."),
        ],
    )
    result = finished(case, capped=True)
    checked = [
        replace(card, quote_check=verdict)
        for card, verdict in zip(
            result.layout.cards, [Verdict.FOUND, Verdict.NOT_FOUND], strict=True
        )
    ]
    thread = write_thread(replace(result.layout, cards=checked), PRESENTER)
    reading = read_teams(result.answer, thread, ENGLISH_LABELS)
    first, _ = reading.cards
    assert first.quote == "Gratia *non* tollit naturam [sed] perficit."
    assert "Thomas" in first.text
    assert first.supports == ["Grace perfects nature."]
    (answer,), _ = with_addenda(result.answer, thread)
    root = root_entity(answer)
    assert root is not None
    abstracts = [c["appearance"]["abstract"] for c in root["citation"]]
    assert abstracts == [
        "✓ Quote found on the page — Gratia *non* tollit naturam [sed] perficit.",
        "⚠ Quote not found on the page: it may have changed or be behind a paywall — Grace heals.",
    ]
    assert root["citation"][0]["appearance"]["keywords"][0] == "Thomas"
    assert root["additionalType"] == ["AIGeneratedContent"]
    assert answer["channelData"] == {"feedbackLoop": {"type": "default"}}


def test_past_twenty_the_sources_close_the_answer_linked() -> None:
    result = finished(ANSWERS["crowded"], capped=False)
    (answer,), _ = with_addenda(result.answer, result.thread)
    message = shown(answer)
    assert sorted(message.citations) == list(range(1, 21))
    closing = answer["text"].rsplit("\n\n", 2)
    assert closing[-2].startswith("**Sources:** ²¹ [Document 21")
    assert "https://www.vatican.va/24.html" in closing[-2]
    assert closing[-1].startswith("**Also consulted**\n")


def test_an_answer_pressing_on_100_kb_keeps_its_words_and_loses_popups_first() -> None:
    huge = "x" * 3000
    case = Case(
        text=" ".join(f"Claim {n}.[^{n}]" for n in range(1, 21)),
        citations=[
            source(
                n - 1,
                cited_text=huge,
                document_title="T" * 300,
                source_url=f"https://e.org/{'p' * 1900}{n}",
            )
            for n in range(1, 21)
        ],
    )
    result = finished(case, capped=True)
    (answer,), _ = with_addenda(result.answer, result.thread)
    assert utf16_bytes(answer) <= ACTIVITY_BYTES
    assert check_activity(answer) == []
    message = shown(answer)
    assert sorted(message.citations) == list(range(1, 21))
    assert "Claim 20." in message.text
    popups = [n for n in message.citations if message.popup(n) is not None]
    assert len(popups) < 20, "some popups had to go"
    assert all(f"Claim {n}.[{n}]" in message.text for n in range(1, 21))
