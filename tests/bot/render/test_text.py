"""Cutting text for cards: at a word, with an ellipsis, never inside a character cluster."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.text import clip, superscript


def test_a_short_text_is_kept_whole() -> None:
    assert clip("Grace builds on nature.", 100) == "Grace builds on nature."


def test_a_long_text_is_cut_at_a_word() -> None:
    assert clip("Grace builds on nature and perfects it", 20) == "Grace builds on…"


@pytest.mark.parametrize(
    ("text", "keeps"),
    [
        ("e\u0301" * 50, "e\u0301"),
        ("👨\u200d👩\u200d👧" * 30, "👨\u200d👩\u200d👧"),
        ("👍🏽" * 40, "👍🏽"),
        ("🇻🇦" * 40, "🇻🇦"),
        ("कि" * 40, "कि"),  # a spacing vowel sign (Mc) belongs to its consonant
        (
            "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f" * 9,
            "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
        ),  # a tag flag
        ("\u1100\u1161\u11a8" * 30, "\u1100\u1161\u11a8"),  # a syllable spelled in jamo
        ("1\ufe0f\u20e3" * 30, "1\ufe0f\u20e3"),  # a keycap
    ],
)
def test_clusters_are_never_split(text: str, keeps: str) -> None:
    for limit in range(24, 40):
        cut = clip(text, limit)
        assert cut.endswith("…")
        body = cut[:-1]
        assert body == keeps * (len(body) // len(keeps))


@settings(max_examples=150, deadline=None)
@given(st.text(), st.integers(1, 300))
def test_a_cut_text_is_within_the_limit_and_a_prefix_of_the_source(text: str, limit: int) -> None:
    cut = clip(text, limit)
    assert len(cut) <= limit
    if cut != text:
        assert text.startswith(cut[:-1].rstrip())
        assert cut.endswith("…")


def test_superscript_numbers() -> None:
    assert superscript(1234567890) == "¹²³⁴⁵⁶⁷⁸⁹⁰"
