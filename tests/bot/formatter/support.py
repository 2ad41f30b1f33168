"""Driving the formatter as the answer flow does, and reading back what a user would see."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.dialect import Dialect, Payload
from bot.formatter import AnswerFormatter, RenderedAnswer
from integrations.discord.dialect import DiscordDialect
from integrations.discord.limits import validate_discord_payload
from integrations.slack.dialect import SlackDialect
from integrations.slack.limits import validate_slack_payload
from tests.bot.formatter.cases import Case

_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_SUPERSCRIPTS = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_SLACK_NOTE = re.compile(r"\\\[([0-9]+)\\\]")
_CARD_LABEL = re.compile(r"^\[([0-9]+)\]")
_SLACK_CARD = re.compile(r"^\*([0-9]+)\.\*")


def dialects() -> list[Dialect]:
    return [DiscordDialect(), SlackDialect()]


def problems(dialect: Dialect, payload: Payload) -> list[str]:
    if dialect.name == "discord":
        return validate_discord_payload(payload)
    return validate_slack_payload(payload)


def stream(
    dialect: Dialect, case: Case, pieces: Sequence[str]
) -> tuple[list[tuple[Payload, ...]], RenderedAnswer]:
    """Feed ``pieces`` rendering after each, as a pacer flushing every delta would."""
    formatter = AnswerFormatter(dialect)
    renders = []
    for piece in pieces:
        formatter.feed(piece)
        renders.append(formatter.render())
    return renders, formatter.finish(case.done())


def answer_text(payload: Payload) -> str:
    return str(payload.get("content", payload.get("markdown_text", "")))


def footnotes_shown(dialect: Dialect, payloads: Sequence[Payload]) -> set[int]:
    text = "\n".join(answer_text(p) for p in payloads)
    if dialect.name == "discord":
        return {int(run.translate(_DIGITS)) for run in _SUPERSCRIPTS.findall(text)}
    linked = {int(n) for n in re.findall(r"\[\\\[([0-9]+)\\\]\]\(", text)}
    text = re.sub(r"(?<!\\)\[(?:[^\[\]\\]|\\.)*\]\([^)]*\)", "", text)
    return linked | {int(number) for number in _SLACK_NOTE.findall(text)}


def card_numbers(dialect: Dialect, thread: Sequence[Payload]) -> list[int]:
    numbers = []
    for payload in thread:
        if dialect.name == "discord":
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


def skeleton(dialect: Dialect, payload: Payload) -> str:
    """The text of an answer message without its footnotes or whitespace."""
    text = answer_text(payload)
    if dialect.name == "discord":
        text = _SUPERSCRIPTS.sub("", re.sub(r"\[([⁰¹²³⁴⁵⁶⁷⁸⁹]+)\]\(<[^>]*>\)", "", text))
        text = text.replace(DiscordDialect.footnote_separator, "")
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
