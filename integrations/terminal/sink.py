"""Where ``citebot ask`` shows an answer: live in the terminal with rich.

A terminal payload is ``{"markup": str}`` (rich console markup) and, for a message that is
not an answer, ``{"notice": str}``: notices (why there is no answer) go to stderr, so stdout
holds only answers. The cards are kept until the answer is closed (``live`` ends), so the quote
checks' verdicts, edited into them meanwhile, are in what is printed.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from rich.console import Console, Group
from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

from bot.adapter import terminal_text
from bot.render.ports import Payload

__all__ = ["TerminalSink"]


def _printed(markup: str) -> Text:
    """A payload as the terminal shows it: what the upstream wrote reaches it without the
    characters a terminal acts on (an ESC sequence, a bidi override)."""
    return Text.from_markup(terminal_text(markup))


def _renderable(messages: Sequence[Payload]) -> Group:
    return Group(*(_printed(m["markup"]) for m in messages if "markup" in m))


class TerminalSink:
    """Streams the answer under a status spinner; the final text and the cards stay printed."""

    def __init__(
        self,
        *,
        sources: str = "Sources",
        status: str = "citebot is thinking…",
        checking: str | None = None,
        console: Console | None = None,
        errors: Console | None = None,
    ) -> None:
        """``checking``: the status shown once the answer is printed while its quotes are
        checked (None: they are not)."""
        self._sources = sources
        self._status = status
        self._checking = checking
        self._console = console or Console(highlight=False, soft_wrap=True)
        self._errors = errors or Console(file=sys.stderr, highlight=False, soft_wrap=True)
        self._live: Live | None = None
        self._thread: list[Payload] = []

    @property
    def hyperlinks(self) -> bool:
        """Whether rich prints OSC 8 hyperlinks here: only with a colour system (a terminal,
        not a pipe or a file) and not on the legacy Windows console."""
        return self._console.color_system is not None and not self._console.legacy_windows

    @asynccontextmanager
    async def live(self, question: str) -> AsyncIterator[None]:
        """Shows a status while the answer comes; the cards are printed when it closes (Ctrl-C
        while their quotes are checked prints them unchecked)."""
        self._live = self._spinner(self._status)
        try:
            with self._live:
                yield
        finally:
            if self._live is not None:
                self._live.stop()
                self._live = None
            self._print_thread()

    def _print_thread(self) -> None:
        if self._thread:
            self._console.print()
            self._console.rule(self._sources, style="dim")
        for payload in self._thread:
            if "markup" in payload:
                self._console.print(_printed(payload["markup"]))

    def _spinner(self, status: str) -> Live:
        spinner = Spinner("dots", text=Text(status + " ", style="dim"))
        return Live(spinner, console=self._console, refresh_per_second=12, transient=True)

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        notices = [m["notice"] for m in messages if "notice" in m]
        if self._live is not None and (final or notices):
            self._live.update(Text(""))
            self._live.stop()
            self._live = None
        for words in notices:
            self._errors.print(words, style="yellow")
        answers = [m for m in messages if "markup" in m]
        if not answers:
            return
        if self._live is not None:
            self._live.update(_renderable(answers))
        else:
            self._console.print(_renderable(answers))

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        self._thread.extend(payloads)
        if self._checking is not None and self._live is None:
            self._live = self._spinner(self._checking)
            self._live.start()

    async def edit_thread(self, index: int, payload: Payload) -> None:
        self._thread[index] = payload
