"""Telegram for the conformance suite: payloads checked by the simulator's rules (``api.json``,
the HTML and rich messages as Telegram parses them) and citebot's promises, the answer read as
Telegram shows its HTML, cards read by the numbers leading their titles."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.wording import ENGLISH_LABELS
from bot.render.ports import Payload
from integrations.telegram.presenter import TelegramPresenter
from tests.integrations.conformance.kit import Conformance
from tests.integrations.telegram.payloads import validate_telegram_payload
from tests.integrations.telegram.reading import card_heads, read_telegram


def footnotes(answer: Sequence[Payload]) -> list[tuple[int, str | None]]:
    return read_telegram(answer, [], ENGLISH_LABELS).footnotes


def cards(thread: Sequence[Payload]) -> dict[int, str | None]:
    """A card's part leads with its numbers, then its title linked to the source."""
    shown: dict[int, str | None] = {}
    for numbers, url in card_heads(thread):
        for number in numbers:
            shown.setdefault(number, url)
    return shown


PLATFORM = Conformance(
    name="telegram",
    presenter=TelegramPresenter(),
    problems=validate_telegram_payload,
    footnotes=footnotes,
    cards=cards,
    wire=None,
)
