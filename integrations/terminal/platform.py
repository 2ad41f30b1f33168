"""The terminal's entry in the registry of platforms: ``citebot ask``'s live view (the worker
does not run it)."""

from __future__ import annotations

from bot.adapter import LiveSink, LiveWords
from bot.platforms import Platform
from bot.render.ports import Presenter
from config import PlatformSettings

__all__ = ["TERMINAL"]


def _presenter() -> Presenter:
    from integrations.terminal.presenter import TerminalPresenter

    return TerminalPresenter()


def _live(words: LiveWords) -> tuple[LiveSink, Presenter]:
    """A live view on this terminal, and a presenter that links only where it can."""
    from integrations.terminal.presenter import TerminalPresenter
    from integrations.terminal.sink import TerminalSink

    sink = TerminalSink(sources=words.sources, status=words.status, checking=words.checking)
    return sink, TerminalPresenter(hyperlinks=sink.hyperlinks)


TERMINAL: Platform[PlatformSettings] = Platform(name="terminal", presenter=_presenter, live=_live)
