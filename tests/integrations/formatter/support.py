"""Driving the formatter as the answer flow does, and reading back what a user would see."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.render.formatter import AnswerFormatter, RenderedAnswer
from bot.render.ports import Payload, Presenter
from integrations.discord.presenter import DiscordPresenter
from integrations.slack.presenter import SlackPresenter
from tests.integrations.discord.payloads import validate_discord_payload
from tests.integrations.formatter.cases import Case
from tests.integrations.slack.payloads import validate_slack_payload

_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_SUPERSCRIPTS = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_SLACK_NOTE = re.compile(r"\\\[([0-9]+)\\\]")
_CARD_LABEL = re.compile(r"^\[([0-9]+)\]")
_SLACK_CARD = re.compile(r"^\*([0-9]+)\.\*")


def presenters() -> list[Presenter]:
    return [DiscordPresenter(), SlackPresenter()]


def problems(presenter: Presenter, payload: Payload) -> list[str]:
    if presenter.name == "discord":
        return validate_discord_payload(payload)
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


def answer_text(payload: Payload) -> str:
    return str(payload.get("content", payload.get("markdown_text", "")))


def footnotes_shown(presenter: Presenter, payloads: Sequence[Payload]) -> set[int]:
    text = "\n".join(answer_text(p) for p in payloads)
    if presenter.name == "discord":
        return {int(run.translate(_DIGITS)) for run in _SUPERSCRIPTS.findall(text)}
    linked = {int(n) for n in re.findall(r"\[\\\[([0-9]+)\\\]\]\(", text)}
    text = re.sub(r"(?<!\\)\[(?:[^\[\]\\]|\\.)*\]\([^)]*\)", "", text)
    return linked | {int(number) for number in _SLACK_NOTE.findall(text)}


def card_numbers(presenter: Presenter, thread: Sequence[Payload]) -> list[int]:
    numbers = []
    for payload in thread:
        if presenter.name == "discord":
            for embed in payload.get("embeds", []):
                match = _CARD_LABEL.match(embed.get("author", {}).get("name", ""))
                if match:
                    numbers.append(int(match.group(1)))
        else:
            for block in payload.get("blocks", []):
                match = _SLACK_CARD.match(block.get("text", {}).get("text", ""))
                if match:
                    numbers.append(int(match.group(1)))
    return numbers


def skeleton(presenter: Presenter, payload: Payload) -> str:
    """The text of an answer message without its footnotes or whitespace."""
    text = answer_text(payload)
    if presenter.name == "discord":
        text = _SUPERSCRIPTS.sub("", re.sub(r"\[([⁰¹²³⁴⁵⁶⁷⁸⁹]+)\]\(<[^>]*>\)", "", text))
        text = text.replace(DiscordPresenter.markdown.footnote_separator, "")
    else:
        text = _SLACK_NOTE.sub("", re.sub(r"\[(\\\[[0-9]+\\\])\]\([^)]*\)", "", text))
    return "".join(text.split())


def as_json(rendered: RenderedAnswer) -> dict[str, Any]:
    return {
        "answer": list(rendered.answer),
        "thread": list(rendered.thread),
        "citations": [c.to_json() for c in rendered.citations],
        "also_consulted": [c.to_json() for c in rendered.also_consulted],
    }
