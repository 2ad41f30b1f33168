"""The ports a platform implements so the platform-free formatter can write for it.

:class:`MarkdownSyntax` is what the writer needs: how the platform spells bold, a link, a code
fence, and what it must escape. :class:`Presenter` is the rest of how a platform shows an
answer: its footnotes and message limits, answer messages, notices, and the threaded replies
(citation cards, related questions), labelled in the asker's language
(:class:`bot.i18n.wording.Labels`). The formatter (``bot.render``) owns everything else:
footnote numbering, splitting, streaming stability, batching cards into messages.
Implementations live in ``integrations/<platform>/`` (``markdown.py``, ``cards.py``,
``presenter.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot.i18n.wording import ENGLISH_LABELS, Labels
from bot.render.numbering import CitationCard
from bot.upstream.citations import Citation

__all__ = ["MarkdownSyntax", "Payload", "Presenter"]

Payload = dict[str, Any]
"""One platform message body, JSON-able (a Create Message body, chat.postMessage arguments)."""


class MarkdownSyntax(Protocol):
    """How one platform writes the pieces of a Markdown document.

    Every text-producing method returns text that is safe to show: escaped for the platform,
    mention sequences neutralised. Inputs are plain text unless named ``inner`` (already written).
    """

    quote_prefix: str
    """Put before every line of a block quote (``"> "``)."""
    footnote_separator: str
    """Between two adjacent footnotes, so that ¹ and ² do not read as ¹²."""

    def escape(self, text: str, *, line_start: bool) -> str:
        """Plain text as literal text (``line_start``: it begins a line, where ``#`` means more)."""
        ...

    def code_span(self, text: str) -> str: ...

    def emphasis(self, kind: str, inner: str) -> str:
        """``kind`` is ``strong``, ``emph`` or ``strike``."""
        ...

    def link(self, inner: str, url: str) -> str:
        """A link to an http(s) ``url`` (already checked) labelled ``inner``."""
        ...

    def heading(self, level: int, inner: str) -> str: ...

    def fence(self, info: str) -> tuple[str, str]:
        """The opening and closing lines of a code block."""
        ...

    def code_line(self, line: str) -> str:
        """One line inside a code block: no escaping works there, but mentions must still die."""
        ...

    def bullet(self, number: int | None) -> str:
        """The start of a list item: ``"- "`` or ``"3. "``."""
        ...

    def rule(self) -> str: ...

    def footnote(self, number: int, url: str | None) -> str:
        """A footnote as shown: plain when ``url`` is None, else linked to the source."""
        ...

    def neutralise(self, text: str) -> str:
        """Make every mention sequence in already-written text inert (a last pass per message)."""
        ...


class Presenter(Protocol):
    """Everything the formatter needs from one platform besides its Markdown."""

    name: str
    text_budget: int
    """Answer text a message may hold while streaming, footnotes counted at their widest plain
    form; the rest of the message limit is room for the final render's footnote links."""
    message_limit: int
    """Hard limit of an answer message's text."""
    footnote_width: int
    """The widest plain footnote (number 999) this platform writes, with its separator."""

    @property
    def markdown(self) -> MarkdownSyntax:
        """How the platform writes the answer's Markdown."""
        ...

    def answer_message(self, text: str, *, feedback: bool) -> Payload:
        """An answer message holding ``text`` (at most ``message_limit`` characters), with the
        feedback buttons when ``feedback`` and the platform puts them under the answer."""
        ...

    def thread(
        self,
        citation_cards: Sequence[CitationCard],
        also_consulted: Sequence[Citation],
        related: Sequence[str],
        *,
        labels: Labels = ENGLISH_LABELS,
    ) -> tuple[Payload, ...]:
        """The threaded replies: citation cards batched within limits, then related questions
        (and, where the platform puts them there, feedback buttons), labelled in ``labels``."""
        ...

    def notice(self, text: str) -> Payload:
        """A standalone message of plain text."""
        ...
