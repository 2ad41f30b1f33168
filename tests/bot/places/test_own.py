"""A place's own answers on every store: kept by ID, a channel's before its server's, exported
and imported with the settings, in the history, and gone with their place."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable

import pytest

from bot.places import Place, Places, SettingRefused
from bot.places.own import OwnAnswer, new_own_answer
from bot.platforms import place_forms
from bot.state import State
from config import Settings

SERVER = Place("discord", "81384788765712384")
CHANNEL = Place("discord", "81384788765712384", "4199")


_TIMES = itertools.count(1_790_000_000)


def own(question: str, answer: str) -> OwnAnswer:
    """An admin's own answer, each one set a second after the one before."""
    return new_own_answer(
        question, answer, by="42", name="Anna", language="en", at=float(next(_TIMES))
    )


async def test_kept_by_id_the_same_question_again_replacing_its_answer(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment)
    first = await places.add_own_answer(SERVER, own("When is Mass?", "At 10."), by="42")
    again = await places.add_own_answer(SERVER, own("  when is MASS ", "At 11."), by="42")
    assert again.id == first.id
    assert again.place == SERVER
    [kept] = await places.own_answers(SERVER)
    assert (kept.question, kept.answer, kept.name, kept.language) == (
        "when is MASS",
        "At 11.",
        "Anna",
        "en",
    )
    assert [(c.key, c.by) for c in await places.history(SERVER)] == [
        (f"answer:{first.id}", "42"),
        (f"answer:{first.id}", "42"),
    ]


async def test_a_question_is_matched_against_its_channels_answers_then_its_servers(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment)
    await places.add_own_answer(SERVER, own("When is Mass?", "In the cathedral."), by="42")
    await places.add_own_answer(SERVER, own("Where do we park?", "Behind the hall."), by="42")
    await places.add_own_answer(CHANNEL, own("When is Mass?", "The choir sings."), by="42")
    at = await places.own_answers_at("discord", SERVER.server, CHANNEL.channel)
    assert [(a.answer, a.place) for a in at] == [
        ("The choir sings.", CHANNEL),
        ("Behind the hall.", SERVER),
    ]
    assert [a.answer for a in await places.own_answers_at("discord", SERVER.server, "9")] == [
        "In the cathedral.",
        "Behind the hall.",
    ]
    assert await places.own_answers_at("discord", None, None) == []


async def test_a_place_keeps_a_bounded_number(
    state: State, environment: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.places.resolver.MOST_OWN_ANSWERS", 2)
    places = Places(state, defaults=environment)
    await places.add_own_answer(SERVER, own("One?", "1"), by="42")
    await places.add_own_answer(SERVER, own("Two?", "2"), by="42")
    with pytest.raises(SettingRefused) as refused:
        await places.add_own_answer(SERVER, own("Three?", "3"), by="42")
    assert "already keeps 2 own answers" in str(refused.value)
    await places.add_own_answer(SERVER, own("two ?", "2 again"), by="42")  # a replacement
    assert [a.answer for a in await places.own_answers(SERVER)] == ["1", "2 again"]


async def test_exported_and_imported_with_the_settings(
    open_states: Callable[[], State], environment: Settings
) -> None:
    source = Places(open_states(), defaults=environment)
    await source.set(SERVER, "language", "fr", by="42")
    kept = await source.add_own_answer(SERVER, own("Quand est la messe ?", "À 10 h."), by="42")
    exported = await source.export()
    assert exported == {
        str(SERVER): {
            "language": "fr",
            "answers": [
                {
                    "id": kept.id,
                    "question": "Quand est la messe ?",
                    "answer": "À 10 h.",
                    "by": "42",
                    "name": "Anna",
                    "at": kept.at,
                    "language": "fr",  # as its words read
                }
            ],
        }
    }
    copy = Places(open_states(), defaults=environment)
    await copy.import_(json.loads(json.dumps(exported)), forms=place_forms(), by="operator")
    assert await copy.export() == exported
    made = await copy.import_({str(SERVER): {"language": "fr"}}, forms=place_forms(), by="operator")
    assert [(c.key, c.new) for c in made] == [(f"answer:{kept.id}", None)]
    assert await copy.own_answers(SERVER) == []


@pytest.mark.parametrize(
    ("answers", "said"),
    [
        ("Sundays", '$["discord:1"][answers]'),
        ([{"question": "When?", "answer": ""}], '$["discord:1"][answers][0]: answer: must not'),
        ([{"question": "x" * 301, "answer": "y"}], "question: must be at most 300 characters"),
        (["When?"], '$["discord:1"][answers][0]'),
    ],
)
async def test_a_bad_imported_answer_is_named_and_nothing_changes(
    state: State, environment: Settings, answers: object, said: str
) -> None:
    places = Places(state, defaults=environment)
    with pytest.raises(SettingRefused) as refused:
        await places.import_(
            {"discord:1": {"enabled": "off", "answers": answers}}, forms=place_forms(), by="op"
        )
    assert said in str(refused.value)
    assert await places.export() == {}


async def test_forgotten_with_their_place(state: State, environment: Settings) -> None:
    places = Places(state, defaults=environment)
    await places.add_own_answer(CHANNEL, own("When is Mass?", "At 10."), by="42")
    await state.forget_place("discord", SERVER.server)
    places.forget("discord", SERVER.server)
    assert await places.own_answers(CHANNEL) == []
    assert await places.own_answers_at("discord", SERVER.server, CHANNEL.channel) == []
