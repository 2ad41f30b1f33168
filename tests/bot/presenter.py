"""A presenter with no platform behind it, so the core's tests need no integration: answers as
CommonMark with footnotes written ``[n](url)``, each citation card a small dict, three to a
thread message."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.wording import Labels
from bot.render.commonmark import CommonMarkSyntax
from bot.render.layout import Source, SourceCard
from bot.render.ports import Button, Payload, Standalone

__all__ = ["PlainPresenter"]


class _Markdown(CommonMarkSyntax):
    def link(self, inner: str, url: str) -> str:
        return f"[{inner}]({url})"

    footnote_separator = ""

    def rule(self) -> str:
        return "---"

    def footnote(self, number: int, url: str | None) -> str:
        return f"[{number}]({url})" if url else f"[{number}]"


class _Cards:
    """Every cited passage a card of its own (no two share a link)."""

    most = 3
    room = 1
    passages: int | None = None

    def link(self, url: str) -> str | None:
        return None

    def card(self, card: SourceCard, labels: Labels) -> list[Payload]:
        [passage] = card.passages
        return [
            {
                "number": passage.number,
                "title": card.title,
                "quote": passage.quote,
                "url": card.url,
                "verdict": passage.verdict_line,
                "trust": card.trust_line,
            }
        ]

    def also_consulted(self, sources: Sequence[Source], labels: Labels) -> Standalone:
        return Standalone({"also_consulted": [source.title for source in sources]})

    def related(self, questions: Sequence[str], labels: Labels) -> Standalone | None:
        return Standalone({"related": list(questions)}) if questions else None

    def feedback(self, labels: Labels, buttons: Sequence[Button] = ()) -> None:
        return None

    def size(self, part: Payload) -> tuple[int, int]:
        return 1, 0

    def message(self, parts: Sequence[Payload], labels: Labels) -> Payload:
        return {"cards": list(parts)}


class PlainPresenter:
    name = "plain"
    markdown = _Markdown()
    thread_parts = _Cards()
    text_budget = 1500
    message_limit = 2000
    footnote_width = 5

    def answer_message(
        self, text: str, *, feedback: bool, buttons: Sequence[Button] = ()
    ) -> Payload:
        payload: Payload = {"content": text, "feedback": feedback}
        if buttons:
            payload["buttons"] = [button.action for button in buttons]
        return payload

    def notice(self, text: str) -> Payload:
        return {"content": text}
