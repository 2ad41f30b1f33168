"""How the terminal shows an answer (``citebot ask``): one message of any length, footnotes as
superscripts (linked with OSC 8 hyperlinks when the output is a terminal), each source
document a short paragraph with its URL printed as text (:mod:`.cards`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.ports import Button, Payload
from integrations.terminal.cards import TerminalCards
from integrations.terminal.markdown import TerminalMarkdown

__all__ = ["TerminalPresenter"]


class TerminalPresenter:
    name = "terminal"
    text_budget = 10**9
    message_limit = 10**9
    footnote_width = 4
    thread_parts = TerminalCards()

    def __init__(self, *, hyperlinks: bool = True) -> None:
        """``hyperlinks``: whether the output shows OSC 8 links (see
        :attr:`integrations.terminal.sink.TerminalSink.hyperlinks`); else URLs are text."""
        self.markdown = TerminalMarkdown(hyperlinks=hyperlinks)

    def answer_message(
        self, text: str, *, feedback: bool, buttons: Sequence[Button] = ()
    ) -> Payload:
        return {"markup": text}  # no buttons: nothing to press in a terminal

    def notice(self, text: str) -> Payload:
        """Plain words, not markup: the terminal sink prints notices on stderr."""
        return {"notice": text}
