"""What the upstream is told about the asker's language, from whatever tag a platform sends."""

from __future__ import annotations

import pytest

from bot.i18n.instructions import language_instruction


@pytest.mark.parametrize(
    ("tag", "name"),
    [
        ("ja-JP", "Japanese (Japan)"),
        ("ja", "Japanese"),
        ("pt_BR", "Portuguese (Brazil)"),
        ("es-LA", "Spanish"),  # Slack's Latin-American Spanish: a region Babel does not know
        ("zh-TW", "Chinese (Traditional, Taiwan)"),
        ("de_DE.UTF-8", "German (Germany)"),
    ],
)
def test_a_known_language_is_named_in_english_and_quotes_stay_untranslated(
    tag: str, name: str
) -> None:
    [turn] = language_instruction(tag)
    assert turn.role == "system"
    assert f"answer in {name}." in turn.content
    assert "never translate a quotation" in turn.content


@pytest.mark.parametrize("tag", [None, "", "en", "en-GB", "xx-YY", "C"])
def test_english_and_unknown_tags_send_nothing(tag: str | None) -> None:
    assert language_instruction(tag) == ()
