"""An answer's quote checks edited into its posted cards (the flow, on a platform-free
presenter): what each card says in the end, and how many times each was edited."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from bot.quote_checks import show_quote_checks
from bot.render.formatter import RenderedAnswer
from bot.render.layout import ThreadLayout
from bot.render.numbering import CitationCard
from bot.render.ports import Payload
from bot.render.thread import write_thread
from bot.upstream.citations import Citation
from bot.verify import Verdict
from bot.verify.checker import QuoteChecker
from tests.bot.conftest import ARTICLE, Site
from tests.bot.presenter import PlainPresenter
from tests.sim.pages import FOUND, NOT_FOUND, article

PRESENTER = PlainPresenter()
HUMBLE = "He who humbles himself will be exalted; humility is the foundation of prayer."
BEGGAR = "Man is a beggar before God."


class Thread:
    """A posted thread that records every edit."""

    def __init__(self, posted: Sequence[Payload]) -> None:
        self.shown = list(posted)
        self.edits: list[int] = []

    async def edit_thread(self, index: int, payload: Payload) -> None:
        self.edits.append(index)
        self.shown[index] = payload

    def verdicts(self) -> list[str | None]:
        return [card["verdict"] for payload in self.shown for card in payload["cards"]]


def posted(*cards: tuple[str, str]) -> RenderedAnswer:
    """An answer whose cards quote these (url, quote), as posted: three cards a message."""
    numbered = tuple(
        CitationCard(number=n, citation=Citation(number=n, cited_text=quote, source_url=url))
        for n, (url, quote) in enumerate(cards, start=1)
    )
    layout = ThreadLayout(cards=numbered)
    return RenderedAnswer(
        answer=(),
        thread=write_thread(layout, PRESENTER),
        layout=layout,
        cards=numbered,
        also_consulted=(),
    )


async def test_each_message_is_edited_only_where_a_card_gained_a_verdict(
    site: Site, checker: QuoteChecker
) -> None:
    site.html("/prayer", ARTICLE)
    site.html("/changed", article("Prayer is a conversation with God."))
    site.html("/paywall", "<p>Subscribe to read on</p>", status=402)
    answer = posted(
        (site.url("/paywall"), HUMBLE),
        (site.url("/changed"), HUMBLE),
        (site.url("/paywall"), BEGGAR),
        (site.url("/prayer"), BEGGAR),
    )
    thread = Thread(answer.thread)

    verdicts = await show_quote_checks(answer, checker=checker, presenter=PRESENTER, sink=thread)

    assert verdicts == (Verdict.UNREADABLE, Verdict.NOT_FOUND, Verdict.UNREADABLE, Verdict.FOUND)
    assert thread.verdicts() == [None, NOT_FOUND, None, FOUND]
    assert [len(payload["cards"]) for payload in thread.shown] == [3, 1]  # as posted
    assert sorted(thread.edits) == [0, 1]


async def test_the_passages_of_one_page_show_their_verdicts_in_one_edit(
    site: Site, checker: QuoteChecker
) -> None:
    site.html("/prayer", ARTICLE)
    answer = posted((site.url("/prayer"), HUMBLE), (site.url("/prayer"), "Prayer is silence."))
    thread = Thread(answer.thread)

    await show_quote_checks(answer, checker=checker, presenter=PRESENTER, sink=thread)

    assert thread.verdicts() == [FOUND, NOT_FOUND]
    assert thread.edits == [0]
    assert site.paths().count("/prayer") == 1


async def test_a_check_still_running_at_the_deadline_shows_nothing(
    site: Site, checker: QuoteChecker
) -> None:
    site.held("/slow", ARTICLE, asyncio.Event())
    answer = posted((site.url("/slow"), HUMBLE))
    thread = Thread(answer.thread)

    verdicts = await show_quote_checks(
        answer,
        checker=checker,
        presenter=PRESENTER,
        sink=thread,
        deadline=0.5,
    )

    assert verdicts == (Verdict.UNREADABLE,)
    assert thread.edits == []


async def test_a_card_that_cannot_be_edited_costs_nothing_but_its_verdict(
    site: Site, checker: QuoteChecker, caplog: pytest.LogCaptureFixture
) -> None:
    class Refusing(Thread):
        async def edit_thread(self, index: int, payload: Payload) -> None:
            raise RuntimeError("the platform went away")

    site.html("/prayer", ARTICLE)
    answer = posted((site.url("/prayer"), HUMBLE))

    verdicts = await show_quote_checks(
        answer,
        checker=checker,
        presenter=PRESENTER,
        sink=Refusing(answer.thread),
    )

    assert verdicts == (Verdict.FOUND,)
    assert "the cards could not be edited" in caplog.text


async def test_closing_the_checker_ends_the_checks_still_running(site: Site) -> None:
    site.held("/slow", ARTICLE, asyncio.Event())
    answer = posted((site.url("/slow"), HUMBLE))
    thread = Thread(answer.thread)
    checker = QuoteChecker(allow_hosts=[("127.0.0.1", site.port)])
    checker.background(show_quote_checks(answer, checker=checker, presenter=PRESENTER, sink=thread))
    await site.hanging()
    [running] = [t for t in asyncio.all_tasks() if t.get_name() == "citebot-quote-checks"]

    await checker.aclose()

    assert running.cancelled()
    assert thread.edits == []
