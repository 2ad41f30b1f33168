"""The quote checks of an answer's posted cards, edited into them: each card edited once.

The answer never waits for this: it starts once the cards are posted (on Discord and Slack in
the background, :meth:`~bot.verify.checker.QuoteChecker.background`; ``citebot ask`` waits for
it, a few seconds at most). Only the cards posted are checked: the cited sources past
``MAX_CARDS`` are listed in the thread's summary, with no quote to show a verdict under. Every
passage of one source document comes from one page, so its card is edited once, when all of
them are decided; verdicts that land while an edit waits for the platform's budget go out
together in the next one. A page that could not be read, and a check not decided by the
deadline, show nothing: such a card is not edited at all. The thread is written again from its
layout with the verdicts in (:func:`bot.render.thread.write_thread`), so every message it
posted (the summary and the feedback buttons too) is matched with its own new content; which
message a card is in never changes, since parts are batched with room for the longest verdict
(:attr:`bot.render.layout.SourceCard.widest`), so an edit only changes text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from bot.render.formatter import RenderedAnswer
from bot.render.numbering import CitationCard
from bot.render.ports import Payload, Presenter
from bot.render.thread import write_thread
from bot.verify.verdict import Verdict

if TYPE_CHECKING:  # the checker's import (fetching, reading) is heavy; the flow only calls it
    from bot.verify.checker import QuoteChecker

__all__ = ["ASK_DEADLINE", "DEADLINE", "ThreadEditor", "show_quote_checks"]

log = logging.getLogger(__name__)

DEADLINE = 60.0
"""Seconds an answer's checks may take on Discord and Slack. A page takes at most 10 s once its
fetch starts (FetchLimits); this leaves room to wait for a worker's fetch slots when many
answers check at once."""
ASK_DEADLINE = 5.0
"""Seconds ``citebot ask`` waits for the checks before printing the cards."""


class ThreadEditor(Protocol):
    """Where the cards were posted (an :class:`bot.answer.AnswerSink`)."""

    async def edit_thread(self, index: int, payload: Payload) -> None: ...


async def show_quote_checks(
    rendered: RenderedAnswer,
    *,
    checker: QuoteChecker,
    presenter: Presenter,
    sink: ThreadEditor,
    deadline: float = DEADLINE,
    on_decided: Callable[[Sequence[Verdict]], Awaitable[None]] | None = None,
) -> tuple[Verdict, ...]:
    """Check the quote of every card posted on its page and edit the verdicts into the posted
    thread; each posted card's verdict, in order (``unreadable`` where none came within
    ``deadline``), also handed to ``on_decided`` (the answer log's record)."""
    cards = rendered.layout.cards
    if not cards:
        return ()
    verdicts: list[Verdict | None] = [None] * len(cards)
    thread = _Thread(rendered, presenter=presenter, sink=sink)
    landed = asyncio.Event()
    editing = asyncio.create_task(thread.follow(verdicts, landed))
    pairs = [(card.citation.source_url, card.citation.cited_text) for card in cards]
    try:
        with contextlib.suppress(TimeoutError):
            async with (
                asyncio.timeout(deadline),
                contextlib.aclosing(checker.checks(pairs)) as checks,
            ):
                async for index, verdict in checks:
                    verdicts[index] = verdict
                    landed.set()
        thread.finished = True
        landed.set()
        await editing
    except Exception:  # the answer is shown whole already: a check only ever adds to it
        log.exception("quote checks: the cards could not be edited")
    finally:
        editing.cancel()
        await asyncio.gather(editing, return_exceptions=True)
    decided = tuple(verdict or Verdict.UNREADABLE for verdict in verdicts)
    log.info("quote checks: %s", dict(Counter(verdict.value for verdict in decided)))
    if on_decided is not None:
        try:
            await on_decided(decided)
        except Exception:  # a record left without its verdicts costs the answer nothing
            log.exception("quote checks: the verdicts could not be recorded")
    return decided


class _Thread:
    """The posted thread, as shown, and the verdicts shown in it."""

    def __init__(
        self, rendered: RenderedAnswer, *, presenter: Presenter, sink: ThreadEditor
    ) -> None:
        self._layout = rendered.layout
        self._presenter = presenter
        self._sink = sink
        self._shown = list(rendered.thread)
        self._released: list[Verdict | None] = [None] * len(self._layout.cards)
        self.finished = False
        """Set once no more verdicts will come: those in are shown, whatever is missing."""

    async def follow(self, verdicts: Sequence[Verdict | None], landed: asyncio.Event) -> None:
        """Edit the thread each time verdicts have landed, until :attr:`finished`."""
        while True:
            await landed.wait()
            landed.clear()
            finished = self.finished
            await self._edit(verdicts, finished=finished)
            if finished:
                return

    async def _edit(self, verdicts: Sequence[Verdict | None], *, finished: bool) -> None:
        released = _released(self._layout.cards, verdicts, finished=finished)
        if released == self._released:
            return
        self._released = released
        cards = [
            replace(card, quote_check=verdict)
            for card, verdict in zip(self._layout.cards, released, strict=True)
        ]
        payloads = write_thread(replace(self._layout, cards=cards), self._presenter)
        for index, (shown, payload) in enumerate(zip(self._shown, payloads, strict=True)):
            if payload != shown:
                await self._sink.edit_thread(index, payload)
                self._shown[index] = payload


def _released(
    cards: Sequence[CitationCard], verdicts: Sequence[Verdict | None], *, finished: bool
) -> list[Verdict | None]:
    """The verdicts to show: a page's once every passage quoted from it is decided (all that
    are in once ``finished``)."""
    pending = {
        card.citation.source_url
        for card, verdict in zip(cards, verdicts, strict=True)
        if verdict is None and card.citation.source_url
    }
    return [
        verdict if finished or card.citation.source_url not in pending else None
        for card, verdict in zip(cards, verdicts, strict=True)
    ]
