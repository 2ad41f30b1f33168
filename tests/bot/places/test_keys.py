"""Every setting's values as an admin writes them, its default from the worker's environment,
and a refusal that names it and what it takes."""

from __future__ import annotations

from dataclasses import fields

import pytest

from bot.i18n.wording import Wording
from bot.places import KEYS, PlaceSettings, SettingRefused
from bot.places.keys import check_key, check_value, read_value, value_as_said, written
from config import Settings, load_settings


def test_every_setting_of_the_contract_is_a_key_and_a_field() -> None:
    assert list(KEYS) == [
        "enabled",
        "language",
        "private_by_default",
        "follow_ups_without_mention",
        "auto_answer",
        "daily_questions",
        "daily_questions_per_person",
        "daily_tokens",
        "daily_cost",
        "quote_check",
        "disclaimer",
        "handoff",
        "trusted_sources",
        "provider",
    ]
    assert [field.name for field in fields(PlaceSettings)] == [*KEYS, "set_in"]


def test_the_defaults_are_the_environment_s(environment: Settings) -> None:
    defaults = {name: key.default(environment) for name, key in KEYS.items()}
    assert defaults == {
        "enabled": True,
        "language": "de",
        "private_by_default": False,
        "follow_ups_without_mention": True,
        "auto_answer": False,
        "daily_questions": None,
        "daily_questions_per_person": None,
        "daily_tokens": None,
        "daily_cost": None,
        "quote_check": False,
        "disclaimer": None,
        "handoff": None,
        "trusted_sources": None,
        "provider": None,
    }
    plain = load_settings({})
    assert KEYS["language"].default(plain) == "en"
    assert KEYS["quote_check"].default(plain) is True


@pytest.mark.parametrize(
    ("key", "text", "stored", "value"),
    [
        ("enabled", "on", "on", True),
        ("enabled", " OFF ", "off", False),
        ("auto_answer", "true", "on", True),
        ("quote_check", "0", "off", False),
        ("language", "fr", "fr", "fr"),
        ("language", "pt-BR", "pt_BR", "pt_BR"),
        ("language", "zh-TW", "zh_Hant", "zh_Hant"),
        ("daily_questions", "30", "30", 30),
        ("daily_questions", "030", "30", 30),
        ("daily_questions_per_person", "none", "none", None),
        ("daily_tokens", "NONE", "none", None),
        ("daily_tokens", "1000000000", "1000000000", 1_000_000_000),
        (
            "disclaimer",
            "  Answers can be wrong: ask Fr. Anthony 🙏 ",
            "Answers can be wrong: ask Fr. Anthony 🙏",
            "Answers can be wrong: ask Fr. Anthony 🙏",
        ),
        ("disclaimer", "none", "none", None),
        ("disclaimer", "   ", "none", None),
        ("disclaimer", "x" * 200, "x" * 200, "x" * 200),
    ],
)
def test_a_value_is_kept_in_the_one_form_the_command_line_writes(
    key: str, text: str, stored: str, value: object
) -> None:
    assert check_value(KEYS[key], text) == stored
    assert read_value(KEYS[key], stored) == value
    assert written(read_value(KEYS[key], stored)) == stored


@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        ("enabled", "maybe", "enabled: must be on or off, got 'maybe'"),
        (
            "language",
            "xx",
            "language: must be one of de, en, es, fr, it, nl, pl, pt_BR, zh_Hans, or zh_Hant,"
            " got 'xx'",
        ),
        (
            "daily_questions",
            "0",
            "daily_questions: must be a whole number from 1 to 1,000,000,000, or none, got '0'",
        ),
        (
            "daily_questions_per_person",
            "-3",
            "daily_questions_per_person: must be a whole number from 1 to 1,000,000,000, or"
            " none, got '-3'",
        ),
        (
            "daily_tokens",
            "1000000001",
            "daily_tokens: must be a whole number from 1 to 1,000,000,000, or none,"
            " got '1000000001'",
        ),
        (
            "daily_questions",
            "٣٠",
            "daily_questions: must be a whole number from 1 to 1,000,000,000, or none, got '٣٠'",
        ),
        ("disclaimer", "x" * 201, "disclaimer: must be at most 200 characters long, got 201"),
        (
            "disclaimer",
            "one line\nand another",
            "disclaimer: must be one line, without line breaks or control characters",
        ),
        (
            "disclaimer",
            "a bell \x07",
            "disclaimer: must be one line, without line breaks or control characters",
        ),
    ],
)
def test_a_bad_value_is_one_line_naming_the_key_and_what_it_takes(
    key: str, text: str, message: str
) -> None:
    with pytest.raises(SettingRefused) as refused:
        check_value(KEYS[key], text)
    assert str(refused.value) == message
    assert "\n" not in str(refused.value)


def test_a_long_bad_value_is_shown_shortened() -> None:
    with pytest.raises(SettingRefused) as refused:
        check_value(KEYS["enabled"], "y" * 500)
    assert str(refused.value) == f"enabled: must be on or off, got '{'y' * 39}…'"


def test_a_key_is_read_whatever_its_case_or_dashes() -> None:
    assert check_key("Private-By-Default") is KEYS["private_by_default"]


def test_an_unknown_key_names_every_setting() -> None:
    with pytest.raises(SettingRefused) as refused:
        check_key("colour")
    assert str(refused.value) == (
        "colour: there is no such setting; use one of enabled, language, private_by_default,"
        " follow_ups_without_mention, auto_answer, daily_questions, daily_questions_per_person,"
        " daily_tokens, daily_cost, quote_check, disclaimer, handoff, trusted_sources,"
        " or provider"
    )


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("de", "enabled: muss on oder off sein, nicht 'maybe'"),
        ("fr", "enabled\u00a0: doit valoir on ou off, et non 'maybe'"),
        ("pl", "enabled: musi mieć wartość on albo off, a nie 'maybe'"),
        ("zh_Hant", "enabled：必須是 on 或 off，而不是 'maybe'"),
    ],
)
def test_a_refusal_is_said_in_the_admin_s_language(language: str, said: str) -> None:
    with pytest.raises(SettingRefused) as refused:
        check_value(KEYS["enabled"], "maybe")
    assert refused.value.said(Wording(language)) == said


def test_a_long_disclaimer_s_limit_is_said_with_the_language_s_numbers() -> None:
    with pytest.raises(SettingRefused) as refused:
        check_value(KEYS["disclaimer"], "x" * 1234)
    assert refused.value.said(Wording("de")) == (
        "disclaimer: darf höchstens 200 Zeichen lang sein, nicht 1.234"
    )
    assert refused.value.said(Wording("pl")) == (
        "disclaimer: może mieć najwyżej 200 znaków, a nie 1\u00a0234"
    )


def test_a_value_reads_as_an_admin_reads_it_on_every_platform() -> None:
    french = Wording("fr")
    assert value_as_said("quote_check", True, french) == french.settings_page.on
    assert value_as_said("language", "fr", Wording("de")) == "Français"
    assert value_as_said("daily_questions", None, french) == french.settings_page.no_limit
    assert value_as_said("daily_questions", 1000, french) == french.number(1000)
    assert value_as_said("disclaimer", None, french) == french.settings_page.none
