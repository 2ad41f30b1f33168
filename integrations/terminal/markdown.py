"""The terminal's Markdown: rich console markup for ``citebot ask``.

Links are OSC 8 hyperlinks where rich prints them (a terminal); where it does not (output piped
to a file or another program), rich drops them silently, so a link is written as its words and
its URL instead, and a footnote as its number (its card prints the URL).
"""

from __future__ import annotations

import re

from bot.adapter import terminal_text
from bot.render.text import superscript

__all__ = ["TerminalMarkdown", "markup_of", "rich_link"]

_URL_UNSAFE = str.maketrans(
    {
        c: f"%{ord(c):02X}"
        for c in ["[", "]", "\\", *map(chr, range(0x21)), *map(chr, range(0x7F, 0xA0))]
    }
)
"""What a link's URL cannot hold as it is: a tag's brackets, an escape, and the controls and
spaces (percent-encoded, as a URL writes them: an ESC would end the terminal's hyperlink)."""
_NOTHING = "[none][/none]"
"""Markup that shows nothing and ends what came before it as text."""
_UNSAFE = re.compile(r"\\+(?=\[|\Z)|\[(?=[a-z#/@]|\Z)")
"""What could join with what follows into a tag (rich's tags open with ``[`` and one of
``a-z#/@``): backslashes before a ``[`` or at the end, and a ``[`` before those or at the end."""


def markup_of(text: str) -> str:
    """``text`` as markup that shows its words exactly, whatever is written before or after
    it, and without the controls a terminal acts on (``terminal_text``: an upstream's ESC
    sequence would retitle the window or recolour what follows).

    rich's own ``escape`` is right for a whole string only: a ``[a`` escaped in one piece and a
    ``]`` in the next (a dropped footnote between, a superscript, the next line of a card)
    join into a tag, and the words between vanish or fail to print. Here a ``[`` that could
    open a tag is followed by an empty one instead, and a run of backslashes before a ``[``
    or at the end is doubled before one, so it escapes nothing and shows as it is."""
    return _UNSAFE.sub(
        lambda match: "[" + _NOTHING if match[0] == "[" else match[0] * 2 + _NOTHING,
        terminal_text(text),
    )


def rich_link(label: str, url: str) -> str:
    """``label`` linked to ``url`` with an OSC 8 hyperlink (where the terminal supports one)."""
    return f"[link={url.translate(_URL_UNSAFE)}]{label}[/link]"


class TerminalMarkdown:
    quote_prefix = "│ "
    footnote_separator = "·"

    def __init__(self, *, hyperlinks: bool = True) -> None:
        self.hyperlinks = hyperlinks

    def escape(self, text: str, *, line_start: bool) -> str:
        return markup_of(text)

    def code_span(self, text: str) -> str:
        return f"[bold cyan]{markup_of(text)}[/bold cyan]" if text else ""

    def emphasis(self, kind: str, inner: str) -> str:
        style = {"strong": "bold", "emph": "italic", "strike": "strike"}[kind]
        return f"[{style}]{inner}[/{style}]" if inner else ""

    def link(self, inner: str, url: str) -> str:
        if self.hyperlinks:
            return rich_link(inner or markup_of(url), url)
        shown = markup_of(url)
        return f"{inner} <{shown}>" if inner and inner != shown else shown

    def heading(self, level: int, inner: str) -> str:
        return f"[bold underline]{inner}[/bold underline]"

    def fence(self, info: str) -> tuple[str, str]:
        return f"[dim]── {markup_of(info)}", "──[/dim]"

    def code_line(self, line: str) -> str:
        return markup_of(line)

    def bullet(self, number: int | None) -> str:
        return "• " if number is None else f"{number}. "

    def rule(self) -> str:
        return "[dim]" + "─" * 40 + "[/dim]"

    def footnote(self, number: int, url: str | None) -> str:
        shown = superscript(number)
        return rich_link(shown, url) if url and self.hyperlinks else shown

    def neutralise(self, text: str) -> str:
        """Nobody is pinged in a terminal."""
        return text

    def length(self, text: str) -> int:
        return len(text)
