"""Driving the formatter as the answer flow does, and reading back what a user would see."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.i18n.wording import ENGLISH_LABELS, Labels
from bot.render.formatter import AnswerFormatter, RenderedAnswer
from bot.render.layout import ThreadLayout
from bot.render.numbering import CitationCard
from bot.render.ports import Payload, Presenter
from bot.render.thread import write_thread
from bot.upstream.citations import Citation
from integrations.discord.presenter import DiscordPresenter
from integrations.slack.presenter import SlackPresenter
from integrations.teams.presenter import TeamsPresenter
from tests.integrations.discord.payloads import validate_discord_payload
from tests.integrations.formatter.cases import Case
from tests.integrations.slack.payloads import validate_slack_payload
from tests.integrations.teams.payloads import validate_teams_payload
from tests.integrations.teams.reading import read_answer, read_teams

_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_SUPERSCRIPTS = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_LINKED_NOTE = re.compile(r"\[([⁰¹²³⁴⁵⁶⁷⁸⁹]+)\]\(<?[^)>]*>?\)")
_MARKER = re.compile(r"\[[0-9]+\]")
"""Teams' footnote."""
_CARD_LABEL = re.compile(r"^\[([0-9, ]+)\]")
_SLACK_CARD = re.compile(r"^\*([0-9, ]+)\.\*")


def presenters() -> list[Presenter]:
    return [DiscordPresenter(), SlackPresenter(), TeamsPresenter()]


def problems(presenter: Presenter, payload: Payload) -> list[str]:
    if presenter.name == "discord":
        return validate_discord_payload(payload)
    if presenter.name == "teams":
        return validate_teams_payload(payload)
    return validate_slack_payload(payload)


def stream(
    presenter: Presenter, case: Case, pieces: Sequence[str]
) -> tuple[list[tuple[Payload, ...]], RenderedAnswer]:
    """Feed ``pieces`` rendering after each, as a pacer flushing every delta would."""
    formatter = AnswerFormatter(presenter)
    renders = []
    for piece in pieces:
        formatter.feed(piece)
        renders.append(formatter.render())
    return renders, formatter.finish(case.done())


def thread_of(
    presenter: Presenter,
    cards: Sequence[CitationCard],
    also_consulted: Sequence[Citation] = (),
    related: Sequence[str] = (),
    *,
    labels: Labels = ENGLISH_LABELS,
) -> tuple[Payload, ...]:
    """The thread ``presenter`` posts for these cards (all of them: no ``MAX_CARDS``)."""
    layout = ThreadLayout(
        cards=cards, also_consulted=also_consulted, related=related, labels=labels
    )
    return write_thread(layout, presenter)


def answer_text(payload: Payload) -> str:
    return str(payload.get("content", payload.get("markdown_text", payload.get("text", ""))))


def footnotes_shown(presenter: Presenter, payloads: Sequence[Payload]) -> set[int]:
    if presenter.name == "teams":
        return {number for number, _ in read_answer(payloads).footnotes}
    text = "\n".join(answer_text(p) for p in payloads)
    return {int(run.translate(_DIGITS)) for run in _SUPERSCRIPTS.findall(text)}


def card_numbers(presenter: Presenter, thread: Sequence[Payload]) -> list[int]:
    """The footnote numbers the cards show (a document's card shows each of its numbers)."""
    if presenter.name == "teams":
        return [card.number for card in read_teams([], thread, ENGLISH_LABELS).cards]
    labels: list[str] = []
    for payload in thread:
        if presenter.name == "discord":
            labels += [e.get("author", {}).get("name", "") for e in payload.get("embeds", [])]
        else:
            labels += [b.get("text", {}).get("text", "") for b in payload.get("blocks", [])]
    label = _CARD_LABEL if presenter.name == "discord" else _SLACK_CARD
    return [
        int(number)
        for text in labels
        if (match := label.match(text))
        for number in match.group(1).split(",")
    ]


def skeleton(presenter: Presenter, payload: Payload) -> str:
    """The text of an answer message without its footnotes or whitespace."""
    text = _SUPERSCRIPTS.sub("", _LINKED_NOTE.sub("", _MARKER.sub("", answer_text(payload))))
    return "".join(text.replace(presenter.markdown.footnote_separator, "").split())


def as_json(rendered: RenderedAnswer) -> dict[str, Any]:
    return {
        "answer": list(rendered.answer),
        "thread": list(rendered.thread),
        "citations": [c.to_json() for c in rendered.citations],
        "also_consulted": [c.to_json() for c in rendered.also_consulted],
    }
