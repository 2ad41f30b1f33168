"""The terminal's dialect: rich console markup for ``citebot ask``.

One message of any length (a terminal has no limit), footnotes as superscripts (linked with
OSC 8 hyperlinks where the terminal supports them), and cards as short markup paragraphs.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape as rich_escape

from bot.citations import Citation
from bot.dialect import CitationCard, Payload
from bot.formatting.text import clip, superscript
from bot.wording import ENGLISH_LABELS, Labels

__all__ = ["TerminalDialect"]

_URL_UNSAFE = str.maketrans({c: f"%{ord(c):02X}" for c in "[] \\"})


def _link(label: str, url: str) -> str:
    return f"[link={url.translate(_URL_UNSAFE)}]{label}[/link]"


class TerminalDialect:
    name = "terminal"
    text_budget = 10**9
    message_limit = 10**9
    footnote_width = 4
    footnote_separator = "·"
    quote_prefix = "│ "

    def escape(self, text: str, *, line_start: bool) -> str:
        return rich_escape(text)

    def code_span(self, text: str) -> str:
        return f"[bold cyan]{rich_escape(text)}[/bold cyan]" if text else ""

    def emphasis(self, kind: str, inner: str) -> str:
        style = {"strong": "bold", "emph": "italic", "strike": "strike"}[kind]
        return f"[{style}]{inner}[/{style}]" if inner else ""

    def link(self, inner: str, url: str) -> str:
        return _link(inner or rich_escape(url), url)

    def heading(self, level: int, inner: str) -> str:
        return f"[bold underline]{inner}[/bold underline]"

    def fence(self, info: str) -> tuple[str, str]:
        return f"[dim]── {rich_escape(info)}", "──[/dim]"

    def code_line(self, line: str) -> str:
        return rich_escape(line)

    def bullet(self, number: int | None) -> str:
        return "• " if number is None else f"{number}. "

    def rule(self) -> str:
        return "[dim]" + "─" * 40 + "[/dim]"

    def footnote(self, number: int, url: str | None) -> str:
        return _link(superscript(number), url) if url else superscript(number)

    def neutralise(self, text: str) -> str:
        return text

    def answer_message(self, text: str, *, final: bool, feedback: bool) -> Payload:
        return {"markup": text}

    def notice(self, text: str) -> Payload:
        """Plain words, not markup: the terminal sink prints notices on stderr."""
        return {"notice": text}

    def thread(
        self,
        cards: Sequence[CitationCard],
        also_consulted: Sequence[Citation],
        related: Sequence[str],
        *,
        labels: Labels = ENGLISH_LABELS,
    ) -> tuple[Payload, ...]:
        payloads: list[Payload] = [{"markup": self.card(card, labels)} for card in cards]
        if also_consulted:
            lines = [f"[bold]{rich_escape(labels.also_consulted)}[/bold]"]
            lines += [
                "• " + self._title(c, labels) + self._about(c, with_reference=False)
                for c in also_consulted
            ]
            payloads.append({"markup": "\n".join(lines)})
        if related:
            lines = [f"[bold]{rich_escape(labels.related)}[/bold]"]
            lines += [f"{index + 1}. {rich_escape(q)}" for index, q in enumerate(related)]
            payloads.append({"markup": "\n".join(lines)})
        return tuple(payloads)

    def card(self, card: CitationCard, labels: Labels = ENGLISH_LABELS) -> str:
        c = card.citation
        lines = [
            f"[bold]{superscript(card.number)} {self._title(c, labels)}[/bold]"
            + self._about(c, with_reference=True)
        ]
        if c.source_url:
            lines.append(f"[dim]{rich_escape(c.source_url)}[/dim]")
        if c.heading:
            lines.append(f"│ [bold]{rich_escape(c.heading)}[/bold]")
        if c.cited_text:
            quote = rich_escape(clip(c.cited_text, 1500))
            lines.append("[italic]│ " + quote.replace("\n", "\n│ ") + "[/italic]")
        if card.supports:
            said = rich_escape(" … ".join(card.supports))
            lines.append(
                f"[dim]{rich_escape(labels.supports_lead)} {labels.quoted.format(quote=said)}[/dim]"
            )
        return "\n".join(lines)

    def _title(self, c: Citation, labels: Labels) -> str:
        title = rich_escape(c.title or c.reference or labels.source)
        return _link(title, c.source_url) if c.source_url else title

    def _about(self, c: Citation, *, with_reference: bool) -> str:
        parts = [c.author, c.year, c.reference if with_reference else None]
        about = " · ".join(rich_escape(part) for part in parts if part)
        return f" — {about}" if about else ""
