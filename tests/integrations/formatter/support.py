"""Driving the formatter as the answer flow does, and reading back what a user would see, on
every platform the registry names (each one's conformance module says how its payloads read
and what it refuses: ``tests/integrations/conformance/platforms/``)."""

from __future__ import annotations

import functools
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
from tests.integrations.conformance.kit import Conformance, registered
from tests.integrations.formatter.cases import Case
from tests.integrations.formatter.reading import Reading, read

_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_SUPERSCRIPTS = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_LINKED_NOTE = re.compile(r"\[([⁰¹²³⁴⁵⁶⁷⁸⁹]+)\]\(<?[^)>]*>?\)")
MARKDOWN = ("discord", "slack", "teams")
"""The platforms whose answers are Markdown as the upstream wrote it (Telegram's are HTML, the
terminal's rich markup): assertions on that source are theirs."""
_MARKER = re.compile(r"\[[0-9]+\]")
"""Teams' footnote."""


@functools.cache
def _platforms() -> dict[str, Conformance]:
    """The registered platforms, read once: the registry does not change while the suites run
    (an entry points scan for every payload checked cost most of a property test's time)."""
    return {platform.name: platform for platform in registered()}


def presenters() -> list[Presenter]:
    """Every registered platform's presenter."""
    return [platform.presenter for platform in _platforms().values()]


def problems(presenter: Presenter, payload: Payload) -> list[str]:
    """What ``presenter``'s platform would refuse in ``payload``, or a promise it breaks."""
    return _platforms()[presenter.name].problems(payload)


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
    """An answer message's text as the platform is sent it (Markdown, HTML, markup)."""
    for key in ("content", "markdown_text", "text", "markup"):
        if key in payload:
            return str(payload[key])
    return ""


def footnotes_shown(presenter: Presenter, payloads: Sequence[Payload]) -> set[int]:
    return {number for number, _ in _platforms()[presenter.name].footnotes(payloads)}


def card_numbers(presenter: Presenter, thread: Sequence[Payload]) -> list[int]:
    """The footnote numbers the cards show, in the order they first show."""
    return list(_platforms()[presenter.name].cards(thread))


def skeleton(presenter: Presenter, payload: Payload) -> str:
    """The text of an answer message without its footnotes or whitespace (its Markdown source
    where it is Markdown, else as a reader reads it)."""
    if presenter.name in MARKDOWN:
        text = _SUPERSCRIPTS.sub("", _LINKED_NOTE.sub("", _MARKER.sub("", answer_text(payload))))
    else:
        text = read(presenter.name, [payload], [], ENGLISH_LABELS).text
    return "".join(text.replace(presenter.markdown.footnote_separator, "").split())


def reading(presenter: Presenter, result: RenderedAnswer) -> Reading:
    """What a reader sees of ``result``'s answer on ``presenter``'s platform."""
    return read(presenter.name, result.answer, [], ENGLISH_LABELS)


def as_json(rendered: RenderedAnswer) -> dict[str, Any]:
    return {
        "answer": list(rendered.answer),
        "thread": list(rendered.thread),
        "citations": [c.to_json() for c in rendered.citations],
        "also_consulted": [c.to_json() for c in rendered.also_consulted],
    }
