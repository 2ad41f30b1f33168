"""The shared text rules: where a sentence ends; cutting text for cards at a word, with an
ellipsis, never inside a character cluster."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.text import clip, ends_sentence, sentence_ends, superscript


def sentences(text: str) -> list[str]:
    ends = [0, *sentence_ends(text), len(text)]
    return [text[a:b].strip() for a, b in pairwise(ends) if text[a:b].strip()]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # Perplexity's sonar answer: "U.S." and "St." are not the ends of sentences
            "A consensus from authoritative U.S. data sources. Figures from FRED/St. Louis "
            "Fed data. Check U.S. Census Bureau updates.",
            [
                "A consensus from authoritative U.S. data sources.",
                "Figures from FRED/St. Louis Fed data.",
                "Check U.S. Census Bureau updates.",
            ],
        ),
        (
            "Dr. Smith met Fr. Brown, cf. No. 5. John F. Kennedy spoke. It was 5 p.m. here.",
            [
                "Dr. Smith met Fr. Brown, cf. No. 5.",
                "John F. Kennedy spoke.",
                "It was 5 p.m. here.",
            ],
        ),
        (  # a lower-case word goes on with the sentence, whatever stopped before it
            '"Why?" she asked. Wait… and see. Fine.',
            ['"Why?" she asked.', "Wait… and see.", "Fine."],
        ),
        (
            "S. Tomás ensina. Sta. Teresa escreve. Mons. Ronald Knox.",
            ["S. Tomás ensina.", "Sta. Teresa escreve.", "Mons. Ronald Knox."],
        ),
        ("信仰寻求理解。恩典成全本性。", ["信仰寻求理解。", "恩典成全本性。"]),
        ("It ends etc. Then more.", ["It ends etc.", "Then more."]),
    ],
)
def test_a_sentence_ends_at_its_stop_not_at_an_abbreviation(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("data sources.", True),
        ("authoritative U.S.", False),
        ("FRED/St.", False),
        ("the eruption.)", True),
        ("e.g.", False),
        ("John F.", False),
        ("a plan.** ", True),
    ],
)
def test_a_footnote_after_an_abbreviation_does_not_end_its_sentence(text: str, ends: bool) -> None:
    assert ends_sentence(text.rstrip(), len(text.rstrip())) is ends


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
