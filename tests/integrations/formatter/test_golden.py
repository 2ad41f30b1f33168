"""Golden answers on every registered platform: the payloads users get, kept in golden/*.json.

Regenerate with ``CITEBOT_REGEN_GOLDEN=1 pytest tests/bot/formatter``; the facts a user would
notice are asserted here directly too, so a regenerated golden cannot hide a regression.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bot.render.formatter import RenderedAnswer
from bot.render.ports import Presenter
from tests.integrations.formatter.cases import CASES, Case
from tests.integrations.formatter.support import (
    MARKDOWN,
    answer_text,
    as_json,
    card_numbers,
    footnotes_shown,
    presenters,
    problems,
    reading,
    stream,
)

GOLDEN = Path(__file__).parent / "golden"


def chunks(text: str, size: int = 7) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def rendered(presenter: Presenter, case: Case) -> RenderedAnswer:
    return stream(presenter, case, chunks(case.text))[1]


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str, presenter: Presenter) -> None:
    result = rendered(presenter, CASES[name])
    document = as_json(result)
    path = GOLDEN / f"{name}.{presenter.name}.json"
    if os.environ.get("CITEBOT_REGEN_GOLDEN"):
        path.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", "utf-8")
    assert json.loads(path.read_text("utf-8")) == document
    for payload in (*result.answer, *result.thread):
        assert problems(presenter, payload) == []
    shown = footnotes_shown(presenter, result.answer)
    assert shown == set(card_numbers(presenter, result.thread))
    assert shown == {c.number for c in result.citations}
    assert shown == set(range(1, len(shown) + 1))


def all_text(result: RenderedAnswer) -> str:
    return json.dumps(as_json(result), ensure_ascii=False)


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_markdown_heavy_reads_well(presenter: Presenter) -> None:
    result = rendered(presenter, CASES["markdown_heavy"])
    (message,) = result.answer
    text = answer_text(message)
    if presenter.name == "discord":
        assert "#### " not in text
        assert "### A small heading" in text
        assert "[¹](<https://www.vatican.va/doc/1.html>)" in text
        assert "[the Catechism](<https://www.vatican.va/ccc>)" in text
    elif presenter.name == "teams":  # no headings or rules in a Teams message
        assert "\n\n**A small heading**\n\n" in text
        assert "it does not *destroy* it.[1]" in text  # its link is citation 1's
        assert "[the Catechism](https://www.vatican.va/ccc)" in text
        assert "\n\n────────────\n\n" in text
    elif presenter.name == "slack":
        assert "#### A small heading" in text
        assert "[¹](https://www.vatican.va/doc/1.html)" in text  # Slack documents [text](url)
        assert "\n\n────────────\n\n" in text  # and no horizontal line
    if presenter.name in MARKDOWN:
        assert "**builds on**" in text
        assert "- **Term**: Grace · **Meaning**: A gift" in text
        assert "  - nested point" in text
        assert "> A quoted line." in text
    read = reading(presenter, result)
    assert "Grace builds on nature, it does not destroy it." in read.text
    assert "\nA small heading\n" in read.text
    assert "Term: Grace · Meaning: A gift" in read.text
    assert "nested point" in read.text
    assert "A quoted line." in read.text
    number, url = read.footnotes[0]
    assert number == 1
    if presenter.name != "teams":  # Teams links a [1] through its citation on the addendum
        assert url == "https://www.vatican.va/doc/1.html"
    assert "https://www.vatican.va/ccc" in read.links
    assert [c.title for c in result.citations] == ["Document 1", "Document 2"]
    assert result.cards[0].supports == (
        "Grace builds on nature, it does not destroy it.",
        "A quoted line.",
    )


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_brackets_in_code_stay_code(presenter: Presenter) -> None:
    result = rendered(presenter, CASES["code_with_brackets"])
    text = answer_text(result.answer[0])
    if presenter.name in MARKDOWN:
        assert "`a[1]`" in text
        # Slack's markdown block documents no code block with syntax highlighting
        fence = "```python" if presenter.name == "discord" else "```"
        assert f"{fence}\nb = a[1]  # [^2] is code\nprint(a[2])\n```" in text
    read = reading(presenter, result)
    assert "Index with a[1], not a footnote." in read.text
    assert "b = a[1]  # [^2] is code\nprint(a[2])" in read.text
    assert [number for number, _ in read.footnotes] == [1, 2]
    assert len(result.citations) == 2


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_thirteen_sources_get_thirteen_cards_in_batches(presenter: Presenter) -> None:
    result = rendered(presenter, CASES["many_citations"])
    assert card_numbers(presenter, result.thread) == list(range(1, 14))
    assert [c.reference for c in result.also_consulted] == ["14"]
    if presenter.name == "discord":
        assert [len(p.get("embeds", [])) for p in result.thread] == [10, 4, 0]
        buttons = result.thread[-1]["components"]
        assert [row["components"][0]["custom_id"] for row in buttons] == [
            f"citebot:related:{i}" for i in range(5)
        ]
        assert (
            result.answer[-1]["components"][0]["components"][0]["custom_id"]
            == "citebot:feedback:up"
        )
    elif presenter.name == "teams":  # on the answer: its citations, a card of questions
        (addendum,) = (payload["addendum"] for payload in result.thread)
        assert [c["position"] for c in addendum["citation"]] == list(range(1, 14))
        (related,) = addendum["attachments"]
        questions = [a["title"] for a in related["content"]["body"][1]["actions"]]
        assert questions == [f"Question {i}?" for i in range(5)]
        assert result.answer[-1]["channelData"] == {"feedbackLoop": {"type": "default"}}
    elif presenter.name == "slack":
        last = result.thread[-1]["blocks"]
        assert last[-1]["type"] == "context_actions"
    assert "Question 0?" in all_text(result)


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_dangling_markers_vanish_and_one_source_keeps_one_number(presenter: Presenter) -> None:
    result = rendered(presenter, CASES["dangling_and_duplicates"])
    text = answer_text(result.answer[0])
    assert "[^9]" not in text
    assert "Unknown source." in text
    assert [c.number for c in result.citations] == [1, 2]
    assert [c.reference for c in result.citations] == ["2", "1"]
    assert [(c.number, c.reference) for c in result.also_consulted] == [(3, "4")]
    assert "Plain" in text


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_definition_lines_are_gone(presenter: Presenter) -> None:
    result = rendered(presenter, CASES["definitions"])
    assert "Lumen Gentium 8" not in answer_text(result.answer[0])
    assert len(result.citations) == 2


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_cjk_and_emoji_survive_and_long_quotes_are_cut_cleanly(presenter: Presenter) -> None:
    result = rendered(presenter, CASES["cjk_and_emoji"])
    text = answer_text(result.answer[0])
    assert "恩宠成全本性。" in text
    assert "👨‍👩‍👧" in text
    quotes = [card.citation.cited_text for card in result.cards]
    shown = all_text(result)
    assert "…" in shown
    assert "e\u0301" * 10 in shown
    assert '"\u0301' not in shown  # no combining mark left orphaned
    assert quotes[0].startswith("恩宠不废除本性")


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_html_entities_are_decoded(presenter: Presenter) -> None:
    result = rendered(presenter, CASES["html_entities"])
    shown = all_text(result)
    assert (
        "l'œuvre de l'Esprit & de la foi" in shown or "l'œuvre de l'Esprit &amp; de la foi" in shown
    )
    assert "&apos;" not in json.dumps(list(result.answer) + list(result.thread))
    if presenter.name in MARKDOWN:
        assert "Faith & reason" in answer_text(result.answer[0])
    assert "Faith & reason. L'Église dit « oui »." in reading(presenter, result).text


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_null_fields_give_a_plain_numbered_card(presenter: Presenter) -> None:
    result = rendered(presenter, CASES["null_fields"])
    text = answer_text(result.answer[0])
    assert "http" not in text
    assert footnotes_shown(presenter, result.answer) == {1}
    assert "Source" in all_text(result)
    assert "Only the quote is known." in all_text(result)


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_only_http_links_are_made(presenter: Presenter) -> None:
    result = rendered(presenter, CASES["bad_urls"])
    payload_text = json.dumps([*result.answer, *result.thread])
    assert "javascript:" not in payload_text
    assert "discord://" not in payload_text
    assert "ftp://" not in payload_text
    assert "https://ok.org" in answer_text(result.answer[0])
    assert footnotes_shown(presenter, result.answer) == {1, 2, 3}


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_no_mention_survives(presenter: Presenter) -> None:
    result = rendered(presenter, CASES["mentions"])
    for payload in (*result.answer, *result.thread):
        assert problems(presenter, payload) == []
    text = answer_text(result.answer[0])
    assert "everyone" in text
    assert "channel" in text


@pytest.mark.parametrize("presenter", presenters(), ids=lambda d: d.name)
def test_a_9000_character_answer_is_split_between_whole_code_blocks(presenter: Presenter) -> None:
    result = rendered(presenter, CASES["long_answer"])
    if presenter.name == "discord":
        assert len(result.answer) >= 5
    elif presenter.name == "teams":  # 8,000 characters a message
        assert len(result.answer) == 2
    elif presenter.name == "slack":
        assert len(result.answer) == 1
    for payload in result.answer:
        assert answer_text(payload).count("```") % 2 == 0
        assert problems(presenter, payload) == []
    joined = "".join("".join(answer_text(p).split()) for p in result.answer)
    assert "Gracesperfectsnature" not in joined
    assert footnotes_shown(presenter, result.answer) == {1, 2, 3, 4, 5}
