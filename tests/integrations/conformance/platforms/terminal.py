"""The terminal (``citebot ask``) for the conformance suite: its payloads are rich markup that
must parse, the answer read as printed (footnotes linked with OSC 8), each card read by the
numbers leading its title and its URL printed under it. It sends nothing anywhere: no wire."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.errors import MarkupError
from rich.text import Text

from bot.i18n.wording import ENGLISH_LABELS
from bot.render.ports import Payload
from integrations.terminal.presenter import TerminalPresenter
from tests.integrations.conformance.kit import Conformance
from tests.integrations.formatter.reading import read

_HEAD = re.compile(r"((?:[⁰¹²³⁴⁵⁶⁷⁸⁹]+ )+)")
_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def problems(payload: Payload) -> list[str]:
    try:
        Text.from_markup(payload.get("markup", ""))
    except MarkupError as error:
        return [str(error)]
    return []


def footnotes(answer: Sequence[Payload]) -> list[tuple[int, str | None]]:
    return read("terminal", answer, [], ENGLISH_LABELS).footnotes


def cards(thread: Sequence[Payload]) -> dict[int, str | None]:
    """A card's first line is ``¹ ² Title — …``, its URL the next line when it has one."""
    shown: dict[int, str | None] = {}
    for payload in thread:
        head, _, rest = Text.from_markup(payload["markup"]).plain.partition("\n")
        numbers = _HEAD.match(head)
        if numbers is None:
            continue  # the also-consulted list, related questions, the summary
        url = rest.split("\n", 1)[0] if rest.startswith(("http://", "https://")) else None
        for number in numbers.group(1).split():
            shown.setdefault(int(number.translate(_DIGITS)), url)
    return shown


PLATFORM = Conformance(
    name="terminal",
    presenter=TerminalPresenter(hyperlinks=True),
    problems=problems,
    footnotes=footnotes,
    cards=cards,
    wire=None,
)
