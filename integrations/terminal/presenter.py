"""How the terminal shows an answer (``citebot ask``): one message of any length, footnotes as
superscripts (linked with OSC 8 hyperlinks when the output is a terminal), each source
document a short paragraph with its URL printed as text."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.wording import ENGLISH_LABELS, Labels
from bot.render.links import by_link
from bot.render.numbering import CitationCard
from bot.render.ports import Payload
from bot.upstream.citations import Citation
from integrations.terminal import cards
from integrations.terminal.markdown import TerminalMarkdown

__all__ = ["TerminalPresenter"]


class TerminalPresenter:
    name = "terminal"
    text_budget = 10**9
    message_limit = 10**9
    footnote_width = 4

    def __init__(self, *, hyperlinks: bool = True) -> None:
        """``hyperlinks``: whether the output shows OSC 8 links (see
        :attr:`integrations.terminal.sink.TerminalSink.hyperlinks`); else URLs are text."""
        self.markdown = TerminalMarkdown(hyperlinks=hyperlinks)

    def answer_message(self, text: str, *, feedback: bool) -> Payload:
        return {"markup": text}

    def notice(self, text: str) -> Payload:
        """Plain words, not markup: the terminal sink prints notices on stderr."""
        return {"notice": text}

    def thread(
        self,
        citation_cards: Sequence[CitationCard],
        also_consulted: Sequence[Citation],
        related: Sequence[str],
        *,
        labels: Labels = ENGLISH_LABELS,
    ) -> tuple[Payload, ...]:
        payloads = [
            {"markup": cards.document(passages, labels)}
            for passages in by_link(citation_cards, lambda card: card.citation.source_url)
        ]
        if also_consulted:
            payloads.append({"markup": cards.also_consulted(also_consulted, labels)})
        if related:
            payloads.append({"markup": cards.related(related, labels)})
        return tuple(payloads)
