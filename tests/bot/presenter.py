"""A presenter with no platform behind it, so the core's tests need no integration: answers as
CommonMark with footnotes written ``[n](url)``, each citation card a small dict."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.wording import ENGLISH_LABELS, Labels
from bot.render.commonmark import CommonMarkSyntax
from bot.render.numbering import CitationCard
from bot.render.ports import Payload
from bot.render.thread import batches, source_title, verdict_line
from bot.upstream.citations import Citation

__all__ = ["PlainPresenter"]


class _Markdown(CommonMarkSyntax):
    def link(self, inner: str, url: str) -> str:
        return f"[{inner}]({url})"

    footnote_separator = ""

    def rule(self) -> str:
        return "---"

    def footnote(self, number: int, url: str | None) -> str:
        return f"[{number}]({url})" if url else f"[{number}]"


class PlainPresenter:
    name = "plain"
    markdown = _Markdown()
    text_budget = 1500
    message_limit = 2000
    footnote_width = 5
    cards_per_message = 3

    def answer_message(self, text: str, *, feedback: bool) -> Payload:
        return {"content": text, "feedback": feedback}

    def notice(self, text: str) -> Payload:
        return {"content": text}

    def thread(
        self,
        citation_cards: Sequence[CitationCard],
        also_consulted: Sequence[Citation],
        related: Sequence[str],
        *,
        labels: Labels = ENGLISH_LABELS,
    ) -> tuple[Payload, ...]:
        cards = [
            {
                "number": card.number,
                "title": source_title(card.citation, labels),
                "quote": card.citation.cited_text,
                "url": card.citation.source_url,
                "verdict": verdict_line(card.quote_check, labels),
            }
            for card in citation_cards
        ]
        payloads: list[Payload] = [
            {"cards": batch}
            for batch in batches(cards, size=lambda _: (1, 0), most=self.cards_per_message, room=1)
        ]
        if also_consulted:
            payloads.append({"also_consulted": [source_title(c, labels) for c in also_consulted]})
        if related:
            payloads.append({"related": list(related)})
        return tuple(payloads)
