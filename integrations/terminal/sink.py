"""Where ``citebot ask`` shows an answer: live in the terminal with rich, or collected as JSON.

A terminal payload is ``{"markup": str}`` (rich console markup) and, for a message that is
not an answer, ``{"notice": str}``: notices (why there is no answer) go to stderr, so stdout
holds only answers.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from rich.console import Console, Group
from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

from bot.render.ports import Payload

__all__ = ["CollectingSink", "TerminalSink"]


class CollectingSink:
    """Keeps what a platform would finally show, for ``--json``."""

    def __init__(self) -> None:
        self.answer: tuple[Payload, ...] = ()
        self.thread: list[Payload] = []

    @asynccontextmanager
    async def live(self, question: str) -> AsyncIterator[None]:
        yield

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        self.answer = tuple(messages)

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        self.thread.extend(payloads)


def _renderable(messages: Sequence[Payload]) -> Group:
    return Group(*(Text.from_markup(m["markup"]) for m in messages if "markup" in m))


class TerminalSink:
    """Streams the answer under a status spinner; the final text and the cards stay printed."""

    def __init__(
        self,
        *,
        sources: str = "Sources",
        status: str = "citebot is thinking…",
        console: Console | None = None,
        errors: Console | None = None,
    ) -> None:
        self._sources = sources
        self._status = status
        self._console = console or Console(highlight=False, soft_wrap=True)
        self._errors = errors or Console(file=sys.stderr, highlight=False, soft_wrap=True)
        self._live: Live | None = None

    @property
    def hyperlinks(self) -> bool:
        """Whether rich prints OSC 8 hyperlinks here: only with a colour system (a terminal,
        not a pipe or a file) and not on the legacy Windows console."""
        return self._console.color_system is not None and not self._console.legacy_windows

    @asynccontextmanager
    async def live(self, question: str) -> AsyncIterator[None]:
        spinner = Spinner("dots", text=Text(self._status + " ", style="dim"))
        self._live = Live(spinner, console=self._console, refresh_per_second=12, transient=True)
        with self._live:
            yield
        self._live = None

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
        self._console.print()
        self._console.rule(self._sources, style="dim")
        for payload in payloads:
            if "markup" in payload:
                self._console.print(Text.from_markup(payload["markup"]))
