"""Teams for the conformance suite: payloads checked by the simulator's rules (the Teams SDK's
models, Teams' documented limits) and citebot's promises, an addendum as the activity it
becomes on the answer; the answer's footnotes read as Teams shows them (``[n]``, whose link is
its citation's; a superscript linked past 20), the cards as the citations and closing lines
the addenda carry. No wire yet: Teams' sink comes with the adapter (issue 34)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.wording import ENGLISH_LABELS
from bot.render.ports import Payload
from integrations.teams.presenter import TeamsPresenter
from tests.integrations.conformance.kit import Conformance
from tests.integrations.teams.payloads import validate_teams_payload
from tests.integrations.teams.reading import read_answer, read_teams


def footnotes(answer: Sequence[Payload]) -> list[tuple[int, str | None]]:
    return read_answer(answer).footnotes


def cards(thread: Sequence[Payload]) -> dict[int, str | None]:
    return {card.number: card.url for card in read_teams([], thread, ENGLISH_LABELS).cards}


PLATFORM = Conformance(
    name="teams",
    presenter=TeamsPresenter(),
    problems=validate_teams_payload,
    footnotes=footnotes,
    cards=cards,
    wire=None,
)
