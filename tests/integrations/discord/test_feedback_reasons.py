"""👎 asks why: a modal in the person's language (the four reasons as a radio group, and a
field for more), the bare 👎 kept at once, and the reason kept with it once sent."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import pytest

from bot.i18n.conversation_words import REASONS
from bot.i18n.wording import Wording
from tests.integrations.discord.harness import Harness
from tests.patience import PATIENCE
from tests.sim.upstream import answer

FRENCH = Wording(language="fr")


class Kept(logging.Handler):
    """The service's JSON lines about votes, as they are written."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[dict[str, object]] = []
        self.text: list[str] = []
        self.changed = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.text.append(f"{record.getMessage()} {record.__dict__}")
        feedback = getattr(record, "feedback", None)
        if isinstance(feedback, dict):
            self.lines.append(feedback)
            self.changed.set()


@pytest.fixture
def votes_kept() -> Iterator[Kept]:
    logger = logging.getLogger("citebot.answers")
    handler, level = Kept(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


async def test_a_thumbs_down_asks_why_and_keeps_the_reason_with_the_vote(
    harness: Harness, votes_kept: Kept
) -> None:
    harness.upstream.queue(answer(["Grace is a gift."]))
    message = await harness.ask("What is grace?")
    click = await harness.sim.click_button(message.id, "citebot:feedback:down", locale="fr")
    await harness.sim.until(lambda: click.modal is not None)
    assert click.modal is not None
    labels = FRENCH.reason_labels
    why, more = click.modal["components"]
    assert click.modal["title"] == FRENCH.labels.bad_answer
    assert (why["label"], why["description"]) == ("👎", labels.title)  # 47 characters: past 45
    assert [(o["value"], o["label"]) for o in why["component"]["options"]] == [
        (reason, labels.reasons[reason]) for reason in REASONS
    ]
    assert (more["label"], more["component"]["required"]) == (labels.comment, False)
    votes = await harness.votes(f"discord:{message.id}")
    assert votes == {str(harness.sim.user.id): "down"}  # kept before anything is said

    sent = await harness.sim.submit_modal(
        click,
        {"reason": "quote_not_on_page", "comment": "Paragraph 1996 says otherwise."},
        locale="fr",
    )
    await harness.sim.until(lambda: sent.original is not None)
    assert sent.original is not None
    assert sent.original.ephemeral
    assert sent.original.content == FRENCH.reason_thanks()

    async with asyncio.timeout(PATIENCE):
        while len(votes_kept.lines) < 2:
            votes_kept.changed.clear()
            await votes_kept.changed.wait()
    answer_key = f"discord:{message.id}"
    assert [(f["answer"], f["value"], f["reason"], f["commented"]) for f in votes_kept.lines] == [
        (answer_key, "down", None, False),  # the click
        (answer_key, "down", "quote_not_on_page", True),  # why, once sent
    ]
    assert not [line for line in votes_kept.text if "Paragraph 1996" in line]  # never logged
    counted = harness.service.metrics.registry.get_sample_value
    assert counted("citebot_votes_total", {"platform": "discord", "value": "down"}) == 1
    reasons = {"platform": "discord", "reason": "quote_not_on_page"}
    assert counted("citebot_down_reasons_total", reasons) == 1  # the reason, after the 👎


async def test_a_thumbs_up_is_thanked_and_kept(harness: Harness) -> None:
    harness.upstream.queue(answer(["Grace is a gift."]))
    message = await harness.ask("What is grace?")
    click = await harness.sim.click_button(message.id, "citebot:feedback:up", locale="de")
    await harness.sim.until(lambda: click.original is not None)
    assert click.original is not None
    assert click.original.content == Wording(language="de").feedback_thanks()
    assert click.modal is None
    assert await harness.votes(f"discord:{message.id}") == {str(harness.sim.user.id): "up"}
