"""The ports a platform implements so the platform-free formatter can write for it.

:class:`MarkdownSyntax` is what the writer needs: how the platform spells bold, a link, a code
fence, and what it must escape. :class:`ThreadParts` writes the parts of an answer's thread
(a source's card, the also-consulted list, related questions, feedback buttons) as the core
lays it out (:mod:`bot.render.layout`), labelled in the asker's language
(:class:`bot.i18n.wording.Labels`). :class:`Presenter` is the rest of how a platform shows an
answer: its footnotes and message limits, answer messages, notices. The formatter
(``bot.render``) owns everything else: footnote numbering, splitting, streaming stability,
what the thread shows and in which order, batching its parts into messages.
Implementations live in ``integrations/<platform>/`` (``markdown.py``, ``cards.py``,
``presenter.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from bot.i18n.wording import Labels
from bot.render.layout import Action, Button, Source, SourceCard

__all__ = [
    "Action",
    "Button",
    "MarkdownSyntax",
    "Payload",
    "Presenter",
    "Standalone",
    "ThreadParts",
]

Payload = dict[str, Any]
"""One platform message body, JSON-able (a Create Message body, chat.postMessage arguments)."""
Part = TypeVar("Part")


@dataclass(frozen=True, slots=True)
class Standalone:
    """A thread message that is one part alone, its whole payload (Discord's related
    questions: buttons under a line of text, no embed beside them)."""

    payload: Payload


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

    def length(self, text: str) -> int:
        """How many characters of written ``text`` the platform's limits count: all of them in
        Markdown; in a markup whose tags and entities the platform parses first (Telegram's
        HTML), only those a person sees."""
        ...


class ThreadParts(Protocol[Part]):
    """How one platform writes the parts of a thread, each in its own syntax and within its
    own limits; :func:`bot.render.thread.write_thread` puts them in the layout's order and
    batches them into as few messages as :attr:`most` and :attr:`room` allow."""

    most: int
    """Parts (embeds, blocks) one message holds."""
    room: int
    """Characters one message's parts hold, as :meth:`size` counts them."""
    passages: int | None
    """Passages one card holds; a document cited more often gets more cards (None: all)."""

    def link(self, url: str) -> str | None:
        """The link a card of the source at ``url`` shows: passages of sources sharing one
        share a card (None: a card of its own)."""
        ...

    def card(self, card: SourceCard, labels: Labels) -> Sequence[Part]:
        """A source document's card as one part or several; split alike whatever its verdicts
        (decide with :attr:`SourceCard.widest`), since its parts are measured at their widest."""
        ...

    def also_consulted(self, sources: Sequence[Source], labels: Labels) -> Part | Standalone:
        """The sources consulted but never cited (never called without any)."""
        ...

    def related(self, questions: Sequence[str], labels: Labels) -> Part | Standalone | None:
        """The related questions; None when there is nothing to show."""
        ...

    def feedback(self, labels: Labels, buttons: Sequence[Button] = ()) -> Part | Standalone | None:
        """The feedback buttons, and ``buttons`` beside them, where the platform puts them in
        the thread (None: it puts them under the answer, or nowhere)."""
        ...

    def size(self, part: Part) -> tuple[int, int]:
        """A part's units (of :attr:`most`) and characters (of :attr:`room`)."""
        ...

    def message(self, parts: Sequence[Part], labels: Labels) -> Payload:
        """One thread message holding these parts."""
        ...


class Presenter(Protocol):
    """Everything the formatter needs from one platform besides its Markdown."""

    name: str
    text_budget: int
    """Answer text a message may hold while streaming, footnotes counted at their widest plain
    form; the rest of the message limit is room for the final render's footnote links."""
    message_limit: int
    """Hard limit of an answer message's text, as :meth:`MarkdownSyntax.length` counts it."""
    footnote_width: int
    """The widest plain footnote (number 999) this platform writes, with its separator."""

    @property
    def markdown(self) -> MarkdownSyntax:
        """How the platform writes the answer's Markdown (and the summary of the sources past
        ``MAX_CARDS``)."""
        ...

    @property
    def thread_parts(self) -> ThreadParts[Any]:
        """How the platform writes the parts of the answer's thread."""
        ...

    def answer_message(
        self, text: str, *, feedback: bool, buttons: Sequence[Button] = ()
    ) -> Payload:
        """An answer message holding ``text`` (at most ``message_limit`` long), with the
        feedback buttons when ``feedback`` and the platform puts them under the answer, and
        ``buttons`` under it (only the last message of a finished answer has any)."""
        ...

    def notice(self, text: str) -> Payload:
        """A standalone message of plain text."""
        ...
