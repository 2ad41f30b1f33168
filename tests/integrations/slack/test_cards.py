"""The Slack presenter: Block Kit that slack_sdk accepts, and text no one is pinged by."""

from __future__ import annotations

import json
from typing import Any, Unpack
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from slack_sdk.models.blocks import Block

from bot.i18n.wording import Wording
from bot.render.formatter import AnswerFormatter
from bot.render.numbering import CitationCard
from bot.upstream.citations import Citation, safe_url
from integrations.slack.builder import block_kit_builder_url
from integrations.slack.presenter import SlackPresenter
from tests.integrations.formatter.cases import CASES, CitationFields
from tests.integrations.formatter.support import thread_of
from tests.integrations.slack.payloads import validate_slack_payload
from tests.sim.slack.limits import check_message
from tests.sim.slack.model import Message

PRESENTER = SlackPresenter()


def card(number: int, **fields: Unpack[CitationFields]) -> CitationCard:
    citation = Citation(number=number, **fields)
    return CitationCard(number=number, citation=citation, supports=("It <says> so.",))


def test_cards_are_blocks_slack_sdk_accepts() -> None:
    thread = thread_of(
        PRESENTER,
        [
            card(
                1,
                cited_text="A quote *kept* as written & <b>",
                heading="Chapter 2",
                title="Lumen & Gentium",
                author="Paul VI",
                year="1964",
                reference="8",
                source_url="https://v.va/lg",
            )
        ],
        [Citation(number=2, title="Unused", source_url="https://u.org")],
        ["What next?"],
    )
    (payload,) = thread
    for block in payload["blocks"]:
        parsed = Block.parse(block)
        assert parsed is not None
        parsed.validate_json()
    blocks = payload["blocks"]
    assert blocks[0]["text"]["text"] == "*1.* *<https://v.va/lg|Lumen &amp; Gentium>*"
    quote = blocks[1]["elements"][0]["elements"]
    assert quote[1]["text"] == "A quote *kept* as written & <b>"
    assert blocks[2]["elements"][0]["text"] == "Paul VI · 1964 · 8"
    assert "It &lt;says&gt; so." in blocks[3]["elements"][0]["text"]
    assert blocks[-1]["type"] == "context_actions"
    assert blocks[-1]["elements"][0]["action_id"] == "citebot_feedback"
    actions = next(b for b in blocks if b["type"] == "actions")
    assert actions["elements"][0]["action_id"] == "citebot_related_0"
    assert payload["text"].startswith("Sources: ")
    assert validate_slack_payload(payload) == []


def test_many_cards_stay_within_fifty_blocks_a_message() -> None:
    cards = [card(n, cited_text="x " * 2000, title="T" * 400) for n in range(1, 40)]
    thread = thread_of(PRESENTER, cards, [], [])
    assert len(thread) > 1
    for payload in thread:
        assert validate_slack_payload(payload) == []
    assert thread[-1]["blocks"][-1]["type"] == "context_actions"


@pytest.mark.parametrize(
    "text", ["<!channel>", "<!here>", "<!everyone>", "<@U123>", "<#C1>", "<!subteam^S1>"]
)
def test_mentions_are_inert_in_answers_and_cards(text: str) -> None:
    formatter = AnswerFormatter(PRESENTER)
    formatter.feed(f"{text} `{text}`\n\n```\n{text}\n```")
    (message,) = formatter.render()
    assert validate_slack_payload(message) == []
    thread = thread_of(PRESENTER, [card(1, cited_text=text, title=text, author=text)], [], [text])
    assert all(validate_slack_payload(p) == [] for p in thread)


def test_answers_are_standard_markdown_alone() -> None:
    formatter = AnswerFormatter(PRESENTER)
    formatter.feed(CASES["markdown_heavy"].text)
    rendered = formatter.finish(CASES["markdown_heavy"].done())
    (message,) = rendered.answer
    assert set(message) == {"markdown_text", "unfurl_links", "unfurl_media"}
    assert "**builds on**" in message["markdown_text"]


def test_the_builder_link_holds_the_blocks() -> None:
    blocks = thread_of(PRESENTER, [card(1, cited_text="q", title="T")], [], [])[0]["blocks"]
    url = block_kit_builder_url(blocks)
    assert url.startswith("https://app.slack.com/block-kit-builder/#")
    assert json.loads(unquote(url.split("#", 1)[1])) == {"blocks": blocks}


def test_a_related_question_button_shows_no_mention_but_asks_the_words_themselves() -> None:
    (payload,) = thread_of(PRESENTER, [], [], ["Who is <!here> for <@U123>?"])
    actions = next(b for b in payload["blocks"] if b["type"] == "actions")
    button = actions["elements"][0]
    assert button["value"] == "Who is <!here> for <@U123>?"  # asked upstream on a click
    assert "<!here>" not in button["text"]["text"]
    assert "<@U123>" not in button["text"]["text"]


@pytest.mark.parametrize(
    ("language", "lead"),
    [("en", "Sources: "), ("fr", "Sources\u00a0: "), ("zh_Hans", "参考来源：")],
)
def test_the_notification_text_leads_with_sources_as_the_language_punctuates_it(
    language: str, lead: str
) -> None:
    """What a phone's notification shows: the card titles after "Sources:", written as the
    reader's language writes a label (French keeps its no-break space, Chinese its full-width
    colon)."""
    labels = Wording(language).labels
    (payload,) = thread_of(PRESENTER, [card(1, title="Lumen Gentium")], [], [], labels=labels)
    assert payload["text"] == f"{lead}1. Lumen Gentium"


def _refusals(payload: dict[str, Any]) -> list[object]:
    """What Slack's simulator would refuse or show broken in a thread message."""
    shown = Message(channel="C", ts="1", user="U", text=payload["text"], blocks=payload["blocks"])
    return [check_message(payload), *shown.broken_links(), *shown.pings(), *shown.unverbatim()]


@pytest.mark.parametrize("length", [2900, 2960, 2990, 3000, 3001, 3200])
def test_a_long_link_loses_title_characters_or_itself_never_its_brackets(length: int) -> None:
    url = "https://example.org/" + "a" * (length - 20)
    (payload,) = thread_of(
        PRESENTER, [card(1, title="Lumen & Gentium " * 20, source_url=url)], [], []
    )
    title = payload["blocks"][0]["text"]["text"]
    assert _refusals(payload) == [None]
    if f"<{url}|" in title:  # the link whole, its title cut to make room
        assert title.endswith(">*")
        assert title.startswith(f"*1.* *<{url}|Lumen &amp; Gentium")
    else:  # no room for both: the title alone
        assert "<http" not in title
        assert title.startswith("*1.* *Lumen &amp; Gentium Lumen")
    assert payload["text"].startswith("Sources: 1. Lumen &amp; Gentium")


def test_one_documents_passages_are_one_card_with_each_quote() -> None:
    passages = [
        CitationCard(
            number=n,
            citation=Citation(
                number=n,
                cited_text=f"Passage {n}.",
                title="Catechism",
                reference=f"19{n}",
                source_url="https://v.va/ccc",
            ),
            supports=(f"Claim {n}.",),
        )
        for n in (1, 2)
    ]
    (payload,) = thread_of(PRESENTER, [*passages, card(3, title="Other")], [], [])
    sections = [b["text"]["text"] for b in payload["blocks"] if b["type"] == "section"]
    assert sections == ["*1, 2.* *<https://v.va/ccc|Catechism>*", "*3.* *Other*"]
    quotes = [
        e["elements"][0]["text"]
        for b in payload["blocks"]
        if b["type"] == "rich_text"
        for e in b["elements"]
        if e["type"] == "rich_text_quote"
    ]
    assert quotes == ["Passage 1.", "Passage 2."]
    assert (
        "_Supports [2]:_ “Claim 2.”"
        in Message(channel="C", ts="1", user="U", blocks=payload["blocks"]).block_text()
    )
    assert payload["text"] == "Sources: 1, 2. Catechism · 3. Other"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(url=st.one_of(st.text(max_size=60), st.text(max_size=60).map(lambda t: "https://" + t)))
def test_whatever_the_source_url_the_card_is_one_slack_takes_whole(url: str) -> None:
    citation = Citation(number=1, cited_text="q", title="T", source_url=safe_url(url))
    also = Citation(number=2, title="U", source_url=safe_url(url + "/also"))
    for payload in thread_of(PRESENTER, [CitationCard(number=1, citation=citation)], [also], []):
        assert _refusals(payload) == [None]
