"""The answer formatter: a streamed answer in, the platform's messages out.

Feeding only reads (``FootnoteReader``); rendering writes the blocks completed since the last
render once, keeps them, and rewrites only the open block: streaming costs stay linear. The final
render reuses the same split points and only swaps plain footnote numbers for links, while the
message still fits its limit (the streaming text budget leaves room for that; a footnote that
does not fit stays a plain number, still matching its card).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from bot.citations import Citation
from bot.dialect import CitationCard, Dialect, Payload
from bot.events import AnswerDone
from bot.footnotes import SENTINEL, FootnoteReader, Resolution, SourceBlock, resolve
from bot.formatting.text import ELLIPSIS
from bot.formatting.writer import Rendered, render_blocks, render_source
from bot.markdown import Footnote, Paragraph, Span, Text
from bot.splitting import Message, Packer, join
from bot.wording import WORDING, Wording

__all__ = ["AnswerFormatter", "RenderedAnswer", "notice"]

log = logging.getLogger(__name__)

_NO_CITATIONS = resolve((), ())


@dataclass(frozen=True, slots=True, kw_only=True)
class RenderedAnswer:
    answer: tuple[Payload, ...]
    """The final answer messages, split where they were while streaming."""
    thread: tuple[Payload, ...]
    """Citation cards (batched), then related questions."""
    citations: tuple[Citation, ...]
    """Used citations, renumbered densely 1..n in order of first use (citations behind one
    footnote share its number)."""
    also_consulted: tuple[Citation, ...]
    """Citations the answer never referenced."""
    cards: tuple[CitationCard, ...] = ()
    """The used citations with the sentences of the answer each supports."""


class AnswerFormatter:
    """One answer for one dialect; its cards and buttons are labelled in ``wording``'s language."""

    def __init__(self, dialect: Dialect, *, wording: Wording = WORDING) -> None:
        self._dialect = dialect
        self._wording = wording
        self._reader = FootnoteReader(cut=max(200, min(1200, dialect.text_budget * 4 // 5)))
        self._pending: list[SourceBlock] = []
        self._blocks: list[Rendered] = []
        self._packer = Packer(
            budget=dialect.text_budget, footnote_extra=max(0, dialect.footnote_width - 1)
        )
        self._streamed: list[Payload] = []
        self._first_use: dict[int, int] = {}
        """Marker number -> the number shown while streaming: dense, in order of first use,
        as the final render numbers them unless a marker has no source or two share one."""

    @property
    def text(self) -> str:
        """The answer text received so far, markers intact (for conversation history)."""
        return self._reader.text

    def feed(self, delta: str) -> None:
        """Cheap, amortised O(len(delta)); never renders."""
        self._pending.extend(self._reader.feed(delta))

    def render(self) -> tuple[Payload, ...]:
        """The answer messages as they show now, footnotes as plain numbers. Every message but
        the last is closed: it never changes again until finish()/interrupt()."""
        self._absorb()
        tail = self._reader.tail()
        open_block = (
            render_source(tail, self._dialect, joiner=self._reader.joiner) if tail.strip() else None
        )
        tail_entry = None
        blocks = self._blocks
        if open_block is not None and open_block.text:
            tail_entry = (len(self._blocks), open_block)
            blocks = [*self._blocks, open_block]
        messages = self._packer.messages(tail_entry, floor=self._reader.open_floor())
        while len(self._streamed) < len(messages) - 1:
            index = len(self._streamed)
            self._streamed.append(self._streaming_payload(blocks, messages[index], self._first_use))
        shown = list(self._streamed[: len(messages) - 1])
        if messages:
            numbering = self._first_use
            if open_block is not None and open_block.footnotes:
                numbering = dict(numbering)
                _number(numbering, open_block)
            shown.append(self._streaming_payload(blocks, messages[-1], numbering))
        return tuple(shown)

    def finish(self, done: AnswerDone, *, note: str | None = None) -> RenderedAnswer:
        """Final render: footnotes resolved and linked, cards, related questions, feedback;
        ``note`` (e.g. the answer hit the length limit) closes the answer in italics."""
        if done.text.startswith(self.text) and len(done.text) > len(self.text):
            self.feed(done.text[len(self.text) :])
        self._complete()
        if note:
            self._add_note(note)
        if done.citations and not self._uses():
            self._insert_spans(done.citations)
        resolution = resolve(self._uses(), done.citations)
        answer = self._final(resolution, feedback=True)
        thread = self._dialect.thread(
            resolution.cards,
            resolution.also_consulted,
            done.related_questions,
            labels=self._wording.labels,
        )
        return RenderedAnswer(
            answer=answer,
            thread=thread,
            citations=resolution.citations,
            also_consulted=resolution.also_consulted,
            cards=resolution.cards,
        )

    def interrupt(self, note: str) -> tuple[Payload, ...]:
        """Final messages for the text so far plus ``note``; footnotes (not resolvable) dropped."""
        self._complete()
        self._add_note(note)
        if self._uses():
            log.info("interrupted answer: removed %d footnote markers", len(self._uses()))
        return self._final(_NO_CITATIONS, feedback=False)

    def _add_note(self, note: str) -> None:
        self._add(render_blocks((Paragraph((Span("emph", (Text(note),)),)),), self._dialect))

    def _absorb(self) -> None:
        pending, self._pending = self._pending, []
        for source in pending:
            self._add(
                render_source(source.text, self._dialect, tight=source.tight, joiner=source.joiner)
            )

    def _add(self, block: Rendered) -> None:
        if block.text.strip():
            self._packer.add(len(self._blocks), block)
            # its splits were needed only to pack it: keeping one object per word gap of every
            # finished block was most of an answer's memory
            self._blocks.append(replace(block, splits=()))
            _number(self._first_use, block)

    def _complete(self) -> None:
        self._pending.extend(self._reader.close())
        self._absorb()

    def _uses(self) -> list[tuple[int, str]]:
        return [(note.number, note.sentence) for block in self._blocks for note in block.footnotes]

    def _insert_spans(self, citations: Sequence[Citation]) -> None:
        """Citations that mark a span of the text instead of a marker (OpenAI annotations) get
        a footnote at the span's end. The blocks are rebuilt, so this path alone may move a
        split the stream showed (such answers carry no markers to budget for)."""
        spanned = sorted((c for c in citations if c.span), key=lambda c: c.span or (0, 0))
        if not spanned:
            return
        text = self.text
        for citation in reversed(spanned):
            end = min(max((citation.span or (0, 0))[1], 0), len(text))
            text = f"{text[:end]}[^{citation.number}]{text[end:]}"
        rebuilt = AnswerFormatter(self._dialect, wording=self._wording)
        rebuilt.feed(text)
        rebuilt._complete()
        self._blocks, self._packer = rebuilt._blocks, rebuilt._packer

    def _final(self, resolution: Resolution, *, feedback: bool) -> tuple[Payload, ...]:
        messages = self._packer.messages()
        return tuple(
            self._dialect.answer_message(
                self._final_text(message, resolution),
                final=True,
                feedback=feedback and index == len(messages) - 1,
            )
            for index, message in enumerate(messages)
        )

    def _streaming_payload(
        self, blocks: Sequence[Rendered], message: Message, numbering: Mapping[int, int]
    ) -> Payload:
        dialect = self._dialect
        plain = [dialect.footnote(numbering[note.number], None) for note in _notes(blocks, message)]
        text = dialect.neutralise(_fill(join(blocks, message), plain, dialect.footnote_separator))
        return dialect.answer_message(text, final=False, feedback=False)

    def _final_text(self, message: Message, resolution: Resolution) -> str:
        dialect = self._dialect
        numbers: Mapping[int, int] = resolution.numbers
        plain: list[str] = []
        linked: list[str] = []
        for note in _notes(self._blocks, message):
            shown = numbers.get(note.number)
            url = resolution.links.get(shown) if shown else None
            plain.append(dialect.footnote(shown, None) if shown else "")
            linked.append(dialect.footnote(shown, url) if shown and url else plain[-1])
        source = join(self._blocks, message)
        text = dialect.neutralise(_fill(source, plain, dialect.footnote_separator))
        room = dialect.message_limit - len(text)
        for index, (short, long) in enumerate(zip(plain, linked, strict=True)):
            if len(long) - len(short) <= room:
                room -= len(long) - len(short)
                plain[index] = long
        richer = dialect.neutralise(_fill(source, plain, dialect.footnote_separator))
        if not richer.strip():
            return ELLIPSIS  # only markers without sources were here; a message can't be empty
        return richer if len(richer) <= dialect.message_limit else text


def _number(numbering: dict[int, int], block: Rendered) -> None:
    for note in block.footnotes:
        numbering.setdefault(note.number, len(numbering) + 1)


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
    previous = ""
    for display, part in zip(shown, parts[1:], strict=True):
        if not display and not part[:1].isalnum():
            out[-1] = out[-1].rstrip(" ")
        if display and previous and not out[-1]:
            out.append(separator)
        out.append(display)
        out.append(part)
        previous = display or (previous if not part else "")
    return "".join(out)


def notice(dialect: Dialect, text: str) -> Payload:
    """A standalone message in the dialect (errors, 'queued, you are number 2', rate limited)."""
    return dialect.notice(text)
