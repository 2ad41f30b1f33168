"""Every recorded provider reply, replayed over loopback through the real client, the answer
flow and each platform's presenter, read back as a person sees it.

The recordings' sidecars say what a correct rendering shows (``renders``): the answer's words
without markers or reasoning, each footnote's number and URL in order of first use, each card's
title, quote (verbatim) and what it supports, the sources consulted but never cited.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bot.answer import Question, answer_question
from bot.i18n.wording import ENGLISH_LABELS as LABELS
from bot.pacing import Pacer
from bot.render.document import MARKER
from bot.render.ports import Payload, Presenter
from bot.render.text import ELLIPSIS
from bot.upstream.client import AnswerClient
from integrations.discord.presenter import DiscordPresenter
from integrations.slack.presenter import SlackPresenter
from integrations.teams.presenter import TeamsPresenter
from integrations.telegram.presenter import TelegramPresenter
from integrations.terminal.presenter import TerminalPresenter
from tests.integrations.discord.payloads import validate_discord_payload
from tests.integrations.formatter.reading import PLATFORMS, Reading, read, same_url, words
from tests.integrations.slack.payloads import validate_slack_payload
from tests.integrations.teams.payloads import validate_teams_payload
from tests.integrations.telegram.payloads import validate_telegram_payload
from tests.sim.recordings import Recording, recordings
from tests.sim.upstream import UpstreamSim

RECORDINGS = recordings()


class Shown:
    """A sink that keeps every write: the streamed renders, the final answer, the thread."""

    def __init__(self) -> None:
        self.renders: list[tuple[Payload, ...]] = []
        self.thread: list[Payload] = []

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        self.renders.append(tuple(messages))

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        self.thread.extend(payloads)

    async def edit_thread(self, index: int, payload: Payload) -> None:
        self.thread[index] = payload


def presenter(platform: str) -> Presenter:
    if platform == "discord":
        return DiscordPresenter()
    if platform == "slack":
        return SlackPresenter()
    if platform == "telegram":
        return TelegramPresenter()
    if platform == "teams":
        return TeamsPresenter()
    return TerminalPresenter(hyperlinks=platform == "terminal")


async def replay(
    recording: Recording, platform: str, upstream: UpstreamSim, client: AnswerClient
) -> Shown:
    upstream.queue(recording.reply)
    shown = Shown()
    outcome = await answer_question(
        Question(text="Replay", platform=platform, user_id="reader", channel_id="replay"),
        client=client,
        presenter=presenter(platform),
        sink=shown,
        pacer=Pacer(min_interval=0.0),
    )
    assert outcome.status == "answered"
    return shown


def problems(platform: str, payload: Payload) -> list[str]:
    if platform == "discord":
        return validate_discord_payload(payload)
    if platform == "slack":
        return validate_slack_payload(payload)
    if platform == "telegram":
        return validate_telegram_payload(payload)
    if platform == "teams":
        return validate_teams_payload(payload)
    return []


def phrase(text: str) -> str:
    return " ".join(words(text))


def shows(shown: str, quote: str) -> bool:
    """Whether a card shows ``quote`` verbatim: whole, or, where the platform gives a quote less
    room (Discord: 900 characters), its beginning up to a word and then "…". Blanks at a line's
    end are not compared: a Markdown line shows none."""
    shown, quote = (_line_ends(text) for text in (shown, quote))
    head = shown.removesuffix(ELLIPSIS).rstrip()
    if not shown.endswith(ELLIPSIS) or shown == quote:
        return shown == quote
    return quote.startswith(head) and not quote[len(head) : len(head) + 1].isalnum()


def _line_ends(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.split("\n"))


def first_uses(reading: Reading) -> list[tuple[int, str | None]]:
    return list(dict.fromkeys(reading.footnotes))


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("recording", RECORDINGS, ids=[r.name for r in RECORDINGS])
async def test_a_recorded_answer_reads_right(
    recording: Recording, platform: str, upstream: UpstreamSim, answer_client: AnswerClient
) -> None:
    renders: dict[str, Any] = recording.expected["renders"]
    shown = await replay(recording, platform, upstream, answer_client)
    final = shown.renders[-1]
    reading = read(platform, final, shown.thread, LABELS)

    # The answer's words, without a marker, a reasoning word or a link shown twice.
    assert words(reading.text) == words(renders["text"])
    assert not MARKER.search(reading.text)
    source = "".join(words(recording.expected["answer"]))
    for streamed in shown.renders[:-1]:  # while streaming too (a word may show in part)
        assert all(word in source for word in words(read(platform, streamed, [], LABELS).text))

    # Each footnote in order of first use, linked to its source where a link can show, and
    # never next to a link to that same source.
    expected_notes = [(note["n"], note["url"]) for note in renders["footnotes"]]
    notes = first_uses(reading)
    assert [n for n, _ in notes] == [n for n, _ in expected_notes]
    if platform != "terminal-piped":
        assert all(
            same_url(url, want) for (_, url), (_, want) in zip(notes, expected_notes, strict=True)
        )
    assert not any(same_url(link, url) for link in reading.links for _, url in expected_notes)
    placed = list(zip(reading.places, (number for number, _ in reading.footnotes), strict=True))
    assert len(set(placed)) == len(placed)  # no ¹·¹: a source once in one place

    # Every footnote has its card: the same number and the same URL.
    cards = {card.number: card for card in reading.cards}
    for number, url in reading.footnotes:
        assert number in cards
        assert url is None or same_url(cards[number].url, url)

    # Each card: title, URL, the quote verbatim, its author and reference, what it supports.
    assert [(c.number, c.title) for c in reading.cards] == [
        (card["n"], card["title"]) for card in renders["cards"]
    ]
    for card, expected in zip(reading.cards, renders["cards"], strict=True):
        assert shows(card.quote, expected["quote"]), (card.quote, expected["quote"])
        assert same_url(card.url, expected["url"])
        for key in ("author", "reference"):
            assert expected.get(key, "") in card.text
        if "supports" in expected:
            assert expected["supports"] in card.supports
        assert all(phrase(said) in phrase(renders["text"]) for said in card.supports)
        assert "**" not in " ".join(card.supports)

    # The sources consulted but never cited, each by a readable title and its URL.
    assert [title for title, _ in reading.also_consulted] == [
        source["title"] for source in renders["also_consulted"]
    ]
    for (_, url), source in zip(reading.also_consulted, renders["also_consulted"], strict=True):
        assert same_url(url, source["url"])

    for payload in (*final, *shown.thread):
        assert problems(platform, payload) == []
