"""A link that says it goes to one site and goes to another: an upstream's ``[https://www.vatican
.va/…](https://evil.example/…)`` once kept its label on every platform. A label that looks like
a URL or names another host than the link's (its own or a parent's names pass) is shown as the
host the link leads to, in the answer and on a card's title, on Discord, Slack, Telegram, Teams and
the terminal alike."""

from __future__ import annotations

import json

import pytest

from bot.platforms import load_platform
from bot.render.formatter import AnswerFormatter
from bot.render.ports import Payload
from bot.upstream.citations import Citation
from bot.upstream.events import AnswerDone

PLATFORMS = ("discord", "slack", "telegram", "teams", "terminal")


def shown(platform: str, text: str, citations: tuple[Citation, ...] = ()) -> str:
    """Every payload of the answer and its thread on ``platform``, as one JSON text."""
    formatter = AnswerFormatter(load_platform(platform).presenter())
    formatter.feed(text)
    done = formatter.finish(AnswerDone(text=text, finish_reason="stop", citations=citations))
    payloads: list[Payload] = [*done.answer, *done.thread]
    return json.dumps(payloads, ensure_ascii=False)


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize(
    "label",
    [
        "https://www.vatican.va/content/catechism",
        "www.vatican.va",
        "vatican.va",
        "the Vatican's page at vatican.va",
        "https://vatican.va@evil.example/",
        "ＨＴＴＰＳ://ＷＷＷ.ＶＡＴＩＣＡＮ.ＶＡ",
        "vatican。va",
        "vаtican.va",  # a Cyrillic а
        "http://127.0.0.1/",
    ],
)
def test_a_label_naming_another_host_shows_the_host_the_link_leads_to(
    platform: str, label: str
) -> None:
    said = shown(platform, f"Read [{label}](https://evil.example/page) today.")

    assert "evil.example" in said
    for named in ("vatican", "ｖａｔｉｃａｎ", "ＶＡＴＩＣＡＮ", "vаtican", "127.0.0.1"):
        assert named not in said.lower()


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize(
    ("label", "url"),
    [
        ("vatican.va", "https://www.vatican.va/content/catechism"),
        ("www.vatican.va", "https://press.vatican.va/"),
        ("https://www.vatican.va/x", "https://www.vatican.va/y"),
        ("the Catechism, 2258", "https://www.vatican.va/archive/ccc"),
        ("Vol. II", "https://example.org/vol2"),
    ],
)
def test_an_honest_label_is_kept(platform: str, label: str, url: str) -> None:
    said = shown(platform, f"Read [{label}]({url}) today.")

    assert label in said


@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_cards_title_naming_another_host_is_the_host_of_its_page(platform: str) -> None:
    spoof = Citation(
        number=1,
        cited_text="Human life is sacred.",
        title="https://www.vatican.va/content/catechism",
        source_url="https://evil.example/catechism",
    )
    said = shown(platform, "Life is sacred[^1].", (spoof,))

    assert "evil.example" in said
    assert "vatican" not in said
