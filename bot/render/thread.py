"""An answer's thread written for one platform: the layout's parts (:mod:`bot.render.layout`)
in its order, each written by the platform (:class:`bot.render.ports.ThreadParts`), batched
into as few messages as the platform's limits allow, measured with room for every verdict.

Posting and editing the cards rebuild the thread alike (:func:`write_thread` on the same
layout, its cards' verdicts in), so an edit replaces each message with its own new content.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from bot.i18n.wording import Labels
from bot.render.layout import MoreSources, ThreadLayout, source_cards, sources
from bot.render.ports import MarkdownSyntax, Payload, Presenter, Standalone, ThreadParts
from bot.render.text import clip

__all__ = ["listed", "write_thread"]

T = TypeVar("T")


_Piece = tuple[Any, Any] | Standalone
"""A part as shown and at its widest (which batching measures), or a message of its own."""


def write_thread(layout: ThreadLayout, presenter: Presenter) -> tuple[Payload, ...]:
    """The thread's messages on ``presenter``'s platform, in the layout's order."""
    parts = presenter.thread_parts
    messages: list[Payload] = []
    for alone, run in itertools.groupby(_pieces(layout, parts), key=_alone):
        pieces = list(run)
        if alone:
            messages += [piece.payload for piece in pieces if isinstance(piece, Standalone)]
            continue
        pairs = [piece for piece in pieces if not isinstance(piece, Standalone)]
        messages += [
            parts.message([shown for shown, _ in batch], layout.labels)
            for batch in _batches(
                pairs, size=lambda pair: parts.size(pair[1]), most=parts.most, room=parts.room
            )
        ]
    if layout.more is not None:
        messages.append(_more_sources(layout.more, presenter, layout.labels))
    return tuple(messages)


def _pieces(layout: ThreadLayout, parts: ThreadParts[Any]) -> list[_Piece]:
    """Every part of the thread but the summary, in order: each card's, the also-consulted
    list, the related questions, the feedback buttons."""
    labels = layout.labels
    pieces: list[_Piece] = []
    for card in source_cards(
        layout.cards, link=parts.link, most=parts.passages, labels=labels, trusted=layout.trusted
    ):
        pieces += zip(parts.card(card, labels), parts.card(card.at_widest(), labels), strict=True)
    extras = [parts.related(layout.related, labels), parts.feedback(labels, layout.buttons)]
    if layout.also_consulted:
        extras.insert(0, parts.also_consulted(sources(layout.also_consulted, labels), labels))
    for extra in extras:
        if isinstance(extra, Standalone):
            pieces.append(extra)
        elif extra is not None:
            pieces.append((extra, extra))
    return pieces


def _alone(piece: _Piece) -> bool:
    return isinstance(piece, Standalone)


def _batches(
    cards: Sequence[T], *, size: Callable[[T], tuple[int, int]], most: int, room: int
) -> list[list[T]]:
    """``cards`` in order, as few messages as the limits allow: a message holds at most
    ``most`` units and ``room`` characters, ``size`` giving each card's (units, characters).
    A card never straddles two messages."""
    out: list[list[T]] = []
    units = characters = 0
    for card in cards:
        card_units, card_characters = size(card)
        if not out or units + card_units > most or characters + card_characters > room:
            out.append([])
            units = characters = 0
        out[-1].append(card)
        units += card_units
        characters += card_characters
    return out


def listed(
    items: Sequence[T],
    *,
    line: Callable[[T], str],
    room: int,
    rest: Callable[[int], str],
) -> list[str]:
    """One ``line`` per item while they fit in ``room`` characters (a line break each), then
    ``rest(n)`` for the ``n`` that did not."""
    lines: list[str] = []
    used = 0
    for index, item in enumerate(items):
        text = line(item)
        if used + len(text) > room:
            lines.append(rest(len(items) - index))
            break
        lines.append(text)
        used += len(text) + 1
    return lines


def _more_sources(more: MoreSources, presenter: Presenter, labels: Labels) -> Payload:
    """The cited sources past ``MAX_CARDS``, as an answer message in the platform's Markdown:
    the lead (which says how many there are, those that do not fit counted too), then one
    linked line per source while they fit (as the platform counts a message's length)."""
    markdown = presenter.markdown
    lead = markdown.emphasis("strong", markdown.escape(more.lead, line_start=True))
    lines = [lead]
    used = markdown.length(lead)
    for source in sources(more.citations, labels):
        text = markdown.bullet(source.number) + _linked(markdown, source.title, source.url)
        if used + 1 + markdown.length(text) > presenter.message_limit:
            break
        lines.append(text)
        used += 1 + markdown.length(text)
    return presenter.answer_message(markdown.neutralise("\n".join(lines)), feedback=False)


def _linked(markdown: MarkdownSyntax, title: str, url: str | None) -> str:
    label = markdown.escape(clip(title, 150), line_start=False)
    return markdown.link(label, url) if url else label
