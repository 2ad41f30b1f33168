"""The Discord presenter: what its payloads look like to discord.py and to a user."""

from __future__ import annotations

from typing import Unpack

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.render.formatter import AnswerFormatter
from bot.render.numbering import CitationCard
from bot.upstream.citations import Citation, safe_url
from integrations.discord.cards import embed_size
from integrations.discord.presenter import DiscordPresenter
from tests.integrations.discord.payloads import validate_discord_payload
from tests.integrations.formatter.cases import CASES, CitationFields
from tests.integrations.formatter.support import thread_of
from tests.sim.discord.schema import body_errors
from tests.sim.discord.validation import form_errors

PRESENTER = DiscordPresenter()


def card(number: int, **fields: Unpack[CitationFields]) -> CitationCard:
    citation = Citation(number=number, **fields)
    return CitationCard(number=number, citation=citation, supports=("It says so.",))


def test_cards_are_embeds_discord_py_accepts() -> None:
    thread = thread_of(
        PRESENTER,
        [
            card(
                1,
                cited_text="A quote *with* stars",
                heading="Chapter 2",
                title="Lumen Gentium",
                author="Paul VI",
                year="1964",
                reference="8",
                source_url="https://v.va/lg",
            )
        ],
        [],
        [],
    )
    (embed_data,) = thread[0]["embeds"]
    embed = discord.Embed.from_dict(embed_data)
    assert embed.title == "Lumen Gentium"
    assert embed.url == "https://v.va/lg"
    assert embed.author.name == "[1] · Paul VI"
    assert embed.description == "**Chapter 2**\n> A quote \\*with\\* stars"
    assert embed.footer.text == "8 · 1964"
    assert embed.fields[0].value == "“It says so.”"


def test_long_quotes_are_cut_at_a_word_with_an_ellipsis() -> None:
    quote = "word " * 2000
    [embed] = thread_of(PRESENTER, [card(1, cited_text=quote)])[0]["embeds"]
    description = embed["description"]
    assert description.endswith("word…")
    assert len(description) < 4096


def test_many_big_cards_are_batched_within_limits() -> None:
    cards = [
        card(
            n,
            cited_text="x " * 3000,
            title="T" * 300,
            author="A" * 300,
            reference="R" * 3000,
            heading="H" * 500,
        )
        for n in range(1, 24)
    ]
    thread = thread_of(PRESENTER, cards, [Citation(number=99, title="Unused")], ["Q" * 100] * 7)
    for payload in thread:
        assert validate_discord_payload(payload) == []
        assert sum(embed_size(e) for e in payload.get("embeds", [])) <= 6000
    titles = [e["title"] for p in thread for e in p.get("embeds", [])]
    assert len(titles) == 24
    assert titles[-1] == "Also consulted"
    buttons = [row["components"][0] for row in thread[-1]["components"]]
    assert len(buttons) == 5
    assert all(len(b["label"]) <= 80 for b in buttons)


@pytest.mark.parametrize("text", ["@everyone", "@here", "<@123>", "<@!123>", "<@&9>"])
def test_mentions_are_inert_in_text_code_and_cards(text: str) -> None:
    formatter = AnswerFormatter(PRESENTER)
    formatter.feed(f"{text} `{text}`\n\n```\n{text}\n```")
    (message,) = formatter.render()
    assert validate_discord_payload(message) == []
    assert message["allowed_mentions"] == {"parse": []}
    [embed] = thread_of(PRESENTER, [card(1, cited_text=text, title=text, author=text)])[0]["embeds"]
    assert validate_discord_payload({"embeds": [embed], "allowed_mentions": {"parse": []}}) == []


def test_headers_deeper_than_three_are_level_three() -> None:
    formatter = AnswerFormatter(PRESENTER)
    formatter.feed("##### Deep\n\nText")
    assert formatter.render()[0]["content"] == "### Deep\n\nText"


def test_a_line_that_only_looks_like_markdown_stays_text() -> None:
    formatter = AnswerFormatter(PRESENTER)
    formatter.feed("\\# not a heading\n\n1\\. not a list")
    assert formatter.render()[0]["content"] == "\\# not a heading\n\n1\\. not a list"


def test_golden_answer_messages_suppress_previews() -> None:
    formatter = AnswerFormatter(PRESENTER)
    formatter.feed(CASES["markdown_heavy"].text)
    rendered = formatter.finish(CASES["markdown_heavy"].done())
    assert all(m["flags"] == 4 for m in rendered.answer)
    assert "](<https://" in rendered.answer[0]["content"]


def _spec_errors(payload: dict[str, object]) -> dict[str, object]:
    """What Discord (its OpenAPI spec and documented rules) would refuse in a cards message."""
    body = {**payload, "flags": 0}
    return {**body_errors("POST", "/channels/{channel_id}/messages", body), **form_errors(body)}


def test_a_document_cited_past_one_embeds_room_continues_without_its_link() -> None:
    passages = [
        CitationCard(
            number=n,
            citation=Citation(
                number=n,
                cited_text=f"Passage {n}. " + "word " * 400,
                title="Catechism",
                reference=str(1990 + n),
                source_url="https://v.va/ccc",
            ),
            supports=(f"Claim {n}.",),
        )
        for n in range(1, 31)
    ]
    thread = thread_of(PRESENTER, passages, [], [])
    embeds = [e for p in thread for e in p.get("embeds", [])]
    assert len(embeds) > 1
    assert [e.get("url") for e in embeds] == ["https://v.va/ccc"] + [None] * (len(embeds) - 1)
    assert {e["title"] for e in embeds} == {"Catechism"}
    text = "\n".join(e["description"] for e in embeds)
    assert [n for n in range(1, 31) if f"**[{n}]** · {1990 + n}\n> Passage {n}." not in text] == []
    for payload in thread:
        assert _spec_errors(payload) == {}
        assert validate_discord_payload(payload) == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(url=st.one_of(st.text(max_size=60), st.text(max_size=60).map(lambda t: "https://" + t)))
def test_whatever_the_source_url_the_cards_are_ones_discord_takes(url: str) -> None:
    citations = [
        CitationCard(
            number=1, citation=Citation(number=1, cited_text="q", source_url=safe_url(url))
        ),
        CitationCard(
            number=2, citation=Citation(number=2, cited_text="r", source_url=safe_url(url))
        ),
    ]
    also = Citation(number=3, title="U", source_url=safe_url(url + "/also"))
    for payload in thread_of(PRESENTER, citations, [also], []):
        assert _spec_errors(payload) == {}
        urls = [e["url"] for e in payload.get("embeds", []) if "url" in e]
        assert len(urls) == len(set(urls))
