"""``citebot ask``'s cards with their quote checks: each verdict under its quote, in its colour,
and the cards printed once the answer closes, as the checks left them."""

from __future__ import annotations

import asyncio
import io

import pytest
from rich.console import Console

from bot.render.numbering import CitationCard
from bot.upstream.citations import Citation
from bot.verify import Verdict
from integrations.terminal.presenter import TerminalPresenter
from integrations.terminal.sink import TerminalSink
from tests.integrations.formatter.support import thread_of
from tests.sim.pages import FOUND, NOT_FOUND

PRESENTER = TerminalPresenter(hyperlinks=False)


def card(number: int, verdict: Verdict | None) -> CitationCard:
    citation = Citation(
        number=number, cited_text=f"Quote {number}.", source_url=f"https://example.org/{number}"
    )
    return CitationCard(number=number, citation=citation, quote_check=verdict)


def sink() -> tuple[TerminalSink, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system="truecolor", force_terminal=True)
    return TerminalSink(console=console, errors=Console(file=io.StringIO())), out


def test_each_verdict_is_under_its_quote_in_its_colour() -> None:
    found, changed, unread = thread_of(
        PRESENTER,
        [card(1, Verdict.FOUND), card(2, Verdict.NOT_FOUND), card(3, Verdict.UNREADABLE)],
        [],
        [],
    )
    assert found["markup"].endswith(f"│ Quote 1.[/italic]\n[green]{FOUND}[/green]")
    assert changed["markup"].endswith(f"│ Quote 2.[/italic]\n[yellow]{NOT_FOUND}[/yellow]")
    assert unread["markup"].endswith("│ Quote 3.[/italic]")


async def test_the_cards_print_as_the_checks_left_them_once_the_answer_closes() -> None:
    terminal, out = sink()
    async with terminal.live("Why?"):
        await terminal.post_thread(thread_of(PRESENTER, [card(1, None)], [], []))
        assert "Quote 1." not in out.getvalue()  # held until the checks are done
        (checked,) = thread_of(PRESENTER, [card(1, Verdict.FOUND)], [], [])
        await terminal.edit_thread(0, checked)
    assert out.getvalue().count("Quote 1.") == 1
    assert FOUND in out.getvalue()


async def test_interrupted_while_checking_the_cards_still_print_unchecked() -> None:
    terminal, out = sink()
    with pytest.raises(asyncio.CancelledError):  # Ctrl-C, as asyncio.run delivers it
        async with terminal.live("Why?"):
            await terminal.post_thread(thread_of(PRESENTER, [card(1, None)], [], []))
            raise asyncio.CancelledError
    assert "Quote 1." in out.getvalue()
    assert FOUND not in out.getvalue()
