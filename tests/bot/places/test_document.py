"""``export`` and ``import``: every place's settings out as JSON and back, checked whole before
anything changes."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from bot.places import Places, SettingRefused
from bot.platforms import place_forms
from bot.state import State
from config import Settings
from tests.places import at

DOCUMENT = {
    "discord:81384788765712384": {"language": "fr", "daily_questions": "30", "enabled": "on"},
    "discord:81384788765712384/4199": {"private_by_default": "on", "disclaimer": "Ask Fr. A"},
    "slack:T0123ABC/C0456DEF": {"enabled": "off", "daily_tokens": "none"},
}


async def test_export_then_import_into_another_store_gives_the_same_places(
    open_states: Callable[[], State], environment: Settings
) -> None:
    source = Places(open_states(), defaults=environment)
    await source.import_(DOCUMENT, forms=place_forms(), by="operator")
    exported = await source.export()
    assert exported == {
        "discord:81384788765712384": {"enabled": "on", "language": "fr", "daily_questions": "30"},
        "discord:81384788765712384/4199": {"private_by_default": "on", "disclaimer": "Ask Fr. A"},
        "slack:T0123ABC/C0456DEF": {"enabled": "off", "daily_tokens": "none"},
    }
    assert list(exported["discord:81384788765712384"]) == ["enabled", "language", "daily_questions"]
    copy = Places(open_states(), defaults=environment)
    await copy.import_(json.loads(json.dumps(exported)), forms=place_forms(), by="operator")
    assert await copy.export() == exported
    assert (
        await copy.import_(exported, forms=place_forms(), by="operator") == []
    )  # nothing left to change


async def test_an_imported_place_has_exactly_its_listed_settings(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment)
    await places.import_(DOCUMENT, forms=place_forms(), by="operator")
    made = await places.import_(
        {"slack:T0123ABC/C0456DEF": {"enabled": "on"}, "discord:81384788765712384/4199": {}},
        forms=place_forms(),
        by="ops",
    )
    assert sorted((c.place, c.key, c.old, c.new) for c in made) == [
        ("discord:81384788765712384/4199", "disclaimer", "Ask Fr. A", None),
        ("discord:81384788765712384/4199", "private_by_default", "on", None),
        ("slack:T0123ABC/C0456DEF", "daily_tokens", "none", None),
        ("slack:T0123ABC/C0456DEF", "enabled", "off", "on"),
    ]
    assert await places.export() == {
        "discord:81384788765712384": DOCUMENT["discord:81384788765712384"],
        "slack:T0123ABC/C0456DEF": {"enabled": "on"},
    }


async def test_a_hand_written_document_may_give_numbers_and_booleans(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment)
    await places.import_(
        {"Discord:1": {"daily_questions": 30, "auto_answer": True, "Language": "pt-BR"}},
        forms=place_forms(),
        by="o",
    )
    assert await places.export() == {
        "discord:1": {"language": "pt_BR", "auto_answer": "on", "daily_questions": "30"}
    }


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (
            {"discord:1": {"language": "fr"}, "discord:2": {"language": "xx"}},
            "discord:2: language: must be one of de, en, es, fr, it, nl, pl, pt_BR, zh_Hans,"
            " or zh_Hant, got 'xx'",
        ),
        (
            {"discord:1": {"language": "fr"}, "discord:x": {}},
            "discord:x: not a place; write discord:GUILD_ID or discord:GUILD_ID/CHANNEL_ID",
        ),
        (
            {"discord:1": {"colour": "red"}},
            "discord:1: colour: there is no such setting; use one of enabled, language,"
            " private_by_default, follow_ups_without_mention, auto_answer, daily_questions,"
            " daily_questions_per_person, daily_tokens, daily_cost, quote_check, disclaimer,"
            " handoff, trusted_sources, or provider",
        ),
        (
            [{"discord:1": {}}],
            "not a settings document ($): write a JSON object of places, each with its"
            " settings, as citebot settings export prints it",
        ),
        (
            {"discord:1": ["language", "fr"]},
            'not a settings document ($["discord:1"]): write a JSON object of places, each'
            " with its settings, as citebot settings export prints it",
        ),
        (
            {"discord:1": {"daily_questions": 1.5}},
            'not a settings document ($["discord:1"]["daily_questions"]): write a JSON object'
            " of places, each with its settings, as citebot settings export prints it",
        ),
    ],
)
async def test_a_bad_entry_is_named_and_nothing_changes(
    state: State, environment: Settings, document: object, message: str
) -> None:
    places = Places(state, defaults=environment)
    await places.set(at("discord:1"), "language", "de", by="o")
    with pytest.raises(SettingRefused) as refused:
        await places.import_(document, forms=place_forms(), by="o")
    assert str(refused.value) == message
    assert await places.export() == {"discord:1": {"language": "de"}}
    assert len(await places.history()) == 1
