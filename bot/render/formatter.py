"""The answer formatter: a streamed answer in, the platform's messages out.

Feeding only reads (:class:`~bot.render.blocks.BlockReader`); rendering writes the blocks
completed since the last render once, keeps them, and rewrites only the open block: streaming
costs stay linear. The final render reuses the same split points and only swaps plain footnote
numbers for links, while the message still fits its limit (the streaming text budget leaves
room for that; a footnote that does not fit stays a plain number, still matching its card).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from bot.i18n.wording import WORDING, Wording
from bot.render.blocks import BlockReader, SourceBlock
from bot.render.document import Footnote, Paragraph, Span, Text
from bot.render.layout import MoreSources, ThreadLayout, capped
from bot.render.numbering import CitationCard, FirstUse, Resolution, resolve
from bot.render.pack import Message, Packer, join
from bot.render.ports import Button, MarkdownSyntax, Payload, Presenter
from bot.render.text import ELLIPSIS, SENTINEL, clip
from bot.render.thread import write_thread
from bot.render.write import Rendered, render_blocks, render_source
from bot.upstream.citations import Citation
from bot.upstream.events import AnswerDone
from bot.upstream.trust import TrustedSources

__all__ = ["AnswerFormatter", "RenderedAnswer"]

log = logging.getLogger(__name__)

_NO_CITATIONS = resolve((), ())
_SPAN_LINK = re.compile(r"\s*(?P<open>\()?\[(?P<label>.*?)\]\((?P<url>.+)\)(?(open)\))\s*", re.S)
"""An annotation's span that is a Markdown link, alone or in parentheses."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RenderedAnswer:
    answer: tuple[Payload, ...]
    """The final answer messages, split where they were while streaming."""
    thread: tuple[Payload, ...]
    """The threaded replies, as written from :attr:`layout`."""
    layout: ThreadLayout
    """What the thread shows: the cards posted (at most ``max_cards``), the summary of the
    rest, the also-consulted list, related questions. Written again, its cards' verdicts in,
    when the quote checks are edited into the posted thread."""
    cards: tuple[CitationCard, ...]
    """The used citations with the sentences of the answer each supports, in footnote order
    (those past ``max_cards`` too, which the thread only lists)."""
    also_consulted: tuple[Citation, ...]
    """Sources the answer never referenced, each once, numbered after the cards."""

    @property
    def citations(self) -> tuple[Citation, ...]:
        """Used citations, renumbered densely 1..n in order of first use (citations behind one
        footnote share its number)."""
        return tuple(card.citation for card in self.cards)


class AnswerFormatter:
    """One answer for one platform; its cards and buttons are labelled in ``wording``'s
    language."""

    def __init__(
        self,
        presenter: Presenter,
        *,
        wording: Wording = WORDING,
        max_messages: int | None = None,
        max_cards: int | None = None,
        disclaimer: str | None = None,
        buttons: Sequence[Button] = (),
        trusted: TrustedSources | None = None,
    ) -> None:
        """``max_messages``: the answer stops after that many messages, with a note (the rest
        is neither rendered nor cited); ``max_cards``: citation cards beyond it become one
        summary message at the end of the thread (``MAX_ANSWER_MESSAGES``, ``MAX_CARDS``);
        ``disclaimer``: a line a place's admins wrote, closing every answer there (plain text:
        escaped, its mentions made inert, like the upstream's); ``buttons``: under the
        finished answer's last message; ``trusted``: the place's trusted sources (the card of
        any other source says it is outside them; None: no card says anything)."""
        self._presenter = presenter
        self._buttons = tuple(buttons)
        self._trusted = trusted
        self._disclaimer = disclaimer.strip() if disclaimer and disclaimer.strip() else None
        self._max_messages = max_messages
        self._max_cards = max_cards
        self._overflowed = False
        """The answer outgrew ``max_messages``: later blocks are dropped unread."""
        self._tail_notes: list[str] = []
        """Notes for the end of the last message shown, once there is no room for a block."""
        self._markdown = presenter.markdown
        self._wording = wording
        self._reader = BlockReader(cut=max(200, min(1200, presenter.text_budget * 4 // 5)))
        self._pending: list[SourceBlock] = []
        self._blocks: list[Rendered] = []
        self._packer = Packer(
            budget=presenter.text_budget, footnote_extra=max(0, presenter.footnote_width - 1)
        )
        self._streamed: list[Payload] = []
        self._fed = 0
        self._has_text = False
        self._first_use: FirstUse[int] = FirstUse()
        """Marker number -> the number shown while streaming (see :mod:`bot.render.numbering`)."""

    @property
    def has_text(self) -> bool:
        """Whether any text that a person could read has been fed."""
        return self._has_text

    def feed(self, delta: str) -> None:
        """Cheap, amortised O(len(delta)); never renders. The text itself is not kept here:
        the client holds the one copy of the answer's source (``AnswerDone.text``)."""
        self._fed += len(delta)
        self._has_text = self._has_text or (bool(delta) and not delta.isspace())
        self._pending.extend(self._reader.feed(delta))

    def render(self) -> tuple[Payload, ...]:
        """The answer messages as they show now, footnotes as plain numbers. Every message but
        the last is closed: it never changes again until finish()/interrupt()."""
        self._absorb()
        tail = self._reader.tail()
        open_block = (
            render_source(tail, self._markdown, joiner=self._reader.joiner)
            if tail.strip()
            else None
        )
        tail_entry = None
        blocks = self._blocks
        if open_block is not None and open_block.text:
            tail_entry = (len(self._blocks), open_block)
            blocks = [*self._blocks, open_block]
        messages = self._capped(self._packer.messages(tail_entry, floor=self._reader.open_floor()))
        while len(self._streamed) < len(messages) - 1:
            index = len(self._streamed)
            self._streamed.append(self._streaming_payload(blocks, messages[index], self._first_use))
        shown = list(self._streamed[: len(messages) - 1])
        if messages:
            numbering = self._first_use
            if open_block is not None and open_block.footnotes:
                numbering = numbering.copy()
                _number(numbering, open_block)
            shown.append(self._streaming_payload(blocks, messages[-1], numbering))
        return tuple(shown)

    def finish(self, done: AnswerDone, *, note: str | None = None) -> RenderedAnswer:
        """Final render: footnotes resolved and linked, cards, related questions, feedback;
        ``note`` (e.g. the answer hit the length limit) closes the answer in italics."""
        if len(done.text) > self._fed:  # text that came only with the final chunk
            self.feed(done.text[self._fed :])
        self._complete()
        if done.citations and not self._uses():
            self._insert_spans(done.citations, done.text)
        self._close(note)
        resolution = resolve(self._uses(), done.citations)
        answer = self._final(resolution, feedback=True)
        carded, rest = capped(resolution.cards, self._max_cards)
        more = MoreSources(
            lead=self._wording.more_sources(len(rest)), citations=[c.citation for c in rest]
        )
        layout = ThreadLayout(
            cards=carded,
            also_consulted=resolution.also_consulted,
            related=tuple(done.related_questions),
            more=more if rest else None,
            labels=self._wording.labels,
            trusted=self._trusted,
            buttons=self._buttons,
        )
        return RenderedAnswer(
            answer=answer,
            thread=write_thread(layout, self._presenter),
            layout=layout,
            cards=resolution.cards,
            also_consulted=resolution.also_consulted,
        )

    def interrupt(self, note: str) -> tuple[Payload, ...]:
        """Final messages for the text so far plus ``note``; footnotes (not resolvable) dropped."""
        self._complete()
        self._close(note)
        if self._uses():
            log.info("interrupted answer: removed %d footnote markers", len(self._uses()))
        return self._final(_NO_CITATIONS, feedback=False)

    def _close(self, note: str | None) -> None:
        """The answer's closing lines: why it stopped (``note``), then the place's disclaimer."""
        for closing in (note, self._disclaimer):
            if closing:
                self._add_note(closing)

    def _add_note(self, note: str) -> None:
        if not self._overflowed:
            self._add(self._note(note))
        if self._overflowed:  # no message left for it (now or before): it ends the last shown
            self._tail_notes.append(note)

    def _note(self, note: str) -> Rendered:
        return render_blocks((Paragraph((Span("emph", (Text(note),)),)),), self._markdown)

    def _capped(self, messages: list[Message]) -> list[Message]:
        """The messages an answer may show (``max_messages``); past it the answer is cut."""
        if self._max_messages is None or len(messages) <= self._max_messages:
            return messages
        if not self._overflowed:
            self._overflowed = True
            self._tail_notes.insert(0, self._wording.too_long())
        return messages[: self._max_messages]

    def _absorb(self) -> None:
        pending, self._pending = self._pending, []
        if self._overflowed:
            return  # past the last message: not worth rendering
        for source in pending:
            self._add(
                render_source(source.text, self._markdown, tight=source.tight, joiner=source.joiner)
            )

    def _add(self, block: Rendered) -> None:
        if block.text.strip():
            self._packer.add(len(self._blocks), block)
            # its splits were needed only to pack it: keeping one object per word gap of every
            # finished block was most of an answer's memory
            self._blocks.append(replace(block, splits=()))
            _number(self._first_use, block)
            if self._max_messages is not None and len(self._packer.closed) >= self._max_messages:
                self._capped(self._packer.messages())

    def _complete(self) -> None:
        self._pending.extend(self._reader.close())
        self._absorb()

    def _uses(self) -> list[tuple[int, str]]:
        if self._overflowed:  # only the footnotes a person can see are cited
            return [
                (note.number, note.sentence)
                for message in self._capped(self._packer.messages())
                for note in _notes(self._blocks, message)
            ]
        return [(note.number, note.sentence) for block in self._blocks for note in block.footnotes]

    def _insert_spans(self, citations: Sequence[Citation], text: str) -> None:
        """Citations that mark a span of the text instead of a marker (OpenAI annotations) get
        a footnote there (see :func:`_footnoted`). The blocks are rebuilt, so this path alone
        may move a split the stream showed (such answers carry no markers to budget for)."""
        if not any(c.span for c in citations):
            return
        rebuilt = AnswerFormatter(self._presenter, wording=self._wording)
        rebuilt.feed(_footnoted(text, citations))
        rebuilt._complete()
        self._blocks, self._packer = rebuilt._blocks, rebuilt._packer

    def _final(self, resolution: Resolution, *, feedback: bool) -> tuple[Payload, ...]:
        messages = self._capped(self._packer.messages())
        notes = "".join("\n\n" + self._note(note).text for note in self._tail_notes if note.strip())
        texts = [self._final_text(message, resolution) for message in messages[:-1]]
        if messages:
            reserve = self._markdown.length(notes)
            last = self._final_text(messages[-1], resolution, reserve=reserve)
            room = self._presenter.message_limit - reserve
            texts.append(
                (last if self._markdown.length(last) <= room else clip(last, room)) + notes
            )
        closing = len(texts) - 1
        return tuple(
            self._presenter.answer_message(
                text,
                feedback=feedback and index == closing,
                buttons=self._buttons if feedback and index == closing else (),
            )
            for index, text in enumerate(texts)
        )

    def _streaming_payload(
        self, blocks: Sequence[Rendered], message: Message, numbering: FirstUse[int]
    ) -> Payload:
        presenter, markdown = self._presenter, self._markdown
        plain = [
            markdown.footnote(numbering.numbers[note.number], None)
            for note in _notes(blocks, message)
        ]
        text = markdown.neutralise(_fill(join(blocks, message), plain, markdown.footnote_separator))
        # a message that shows nothing yet (a code fence still without a line) holds its place
        return presenter.answer_message(
            text if _shows(markdown, text) else ELLIPSIS, feedback=False
        )

    def _final_text(self, message: Message, resolution: Resolution, *, reserve: int = 0) -> str:
        presenter, markdown = self._presenter, self._markdown
        numbers: Mapping[int, int] = resolution.numbers
        plain: list[str] = []
        linked: list[str] = []
        for note in _notes(self._blocks, message):
            shown = numbers.get(note.number)
            url = resolution.links.get(shown) if shown else None
            plain.append(markdown.footnote(shown, None) if shown else "")
            linked.append(markdown.footnote(shown, url) if shown and url else plain[-1])
        source = join(self._blocks, message)
        text = markdown.neutralise(_fill(source, plain, markdown.footnote_separator))
        room = presenter.message_limit - reserve - markdown.length(text)
        for index, (short, long) in enumerate(zip(plain, linked, strict=True)):
            cost = markdown.length(long) - markdown.length(short)
            if cost <= room:
                room -= cost
                plain[index] = long
        richer = markdown.neutralise(_fill(source, plain, markdown.footnote_separator))
        if not _shows(markdown, richer):
            return ELLIPSIS  # only markers without sources or empty markup: never an empty message
        return richer if markdown.length(richer) <= presenter.message_limit - reserve else text


def _shows(markdown: MarkdownSyntax, text: str) -> bool:
    """Whether written ``text`` shows anything but blank space where the platform counts what
    it shows (Telegram's ``<pre>\n</pre>`` shows nothing, and an empty message is refused)."""
    return markdown.length("".join(text.split())) > 0


def _footnoted(text: str, citations: Sequence[Citation]) -> str:
    """``text`` with a marker for each spanned citation where its span ends. A span that is
    itself a link to its source becomes the footnote, so the source is linked once: OpenAI's
    ``([reuters.com](url))`` after a sentence gives way to the marker (which then closes that
    sentence, the one a card says it supports), and a list item's ``[title](url)`` keeps its
    words as text. Spans that overlap an earlier one put their markers with its own."""
    spans: dict[tuple[int, int], list[Citation]] = {}
    for citation in citations:
        if citation.span:
            start, end = (min(max(at, 0), len(text)) for at in citation.span)
            spans.setdefault((start, max(start, end)), []).append(citation)
    edits: list[tuple[int, int, str]] = []
    for (start, end), cited in sorted(spans.items()):
        markers = "".join(f"[^{c.number}]" for c in cited)
        if edits and start < edits[-1][1]:
            before, after, replacement = edits[-1]
            edits[-1] = (before, after, replacement + markers)
            continue
        start, end, words = _as_footnote(text, start, end, {c.source_url for c in cited})
        edits.append((start, end, words + markers))
    for start, end, replacement in reversed(edits):
        text = text[:start] + replacement + text[end:]
    return text


def _as_footnote(text: str, start: int, end: int, urls: set[str | None]) -> tuple[int, int, str]:
    """The part of ``text`` a footnote for ``urls`` replaces, and the words it keeps: the span
    when it is a link to one of ``urls`` (with the parentheses and space around a bare one),
    else nothing at the span's end."""
    if text[start - 1 : start] == "(" and text[end : end + 1] == ")":
        start, end = start - 1, end + 1
    link = _SPAN_LINK.fullmatch(text, start, end)
    if link is None or link["url"].strip().strip("<>") not in urls:
        return end, end, ""
    opening, closing = link.start("label") - 1, link.end("url") + 1
    if link["open"]:
        before = text[: link.start("open")]
        return len(before.rstrip(" \t")), closing + 1, ""
    return opening, closing, link["label"]


def _number(numbering: FirstUse[int], block: Rendered) -> None:
    for note in block.footnotes:
        numbering.number(note.number)


def _notes(blocks: Sequence[Rendered], message: Message) -> Iterator[Footnote]:
    for piece in message:
        block = blocks[piece.block]
        skip = block.text.count(SENTINEL, 0, piece.start)
        count = block.text.count(SENTINEL, piece.start, piece.end)
        yield from block.footnotes[skip : skip + count]


def _fill(text: str, shown: Sequence[str], separator: str) -> str:
    """Put each footnote's display where its sentinel is; a removed one takes its space along."""
    parts = text.split(SENTINEL)
    out = [parts[0]]
    # Whether what is shown so far ends with a footnote, now and before the last part: a
    # removed footnote's space taken away can bring two footnotes together ("¹ [^12] ¹"), and
    # two footnotes side by side need the separator, or ¹¹ reads as eleven.
    ends_in_note = before_part = False
    for display, part in zip(shown, parts[1:], strict=True):
        if not display and not part[:1].isalnum():
            out[-1] = out[-1].rstrip(" ")
            if not out[-1]:
                ends_in_note = before_part
        if display:
            if ends_in_note:
                out.append(separator)
            ends_in_note = True
        out.append(display)
        before_part = ends_in_note
        out.append(part)
        ends_in_note = ends_in_note and not part
    return "".join(out)
