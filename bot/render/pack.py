"""Packing written blocks into platform messages, so that splits never move.

Blocks arrive complete and never change, and the packer only ever appends: a block joins the
last message when it fits, else starts the next one, so every message but the last is closed
for good. A block larger than a message is cut at its best split (paragraph, then sentence,
then word; a code fence is closed and reopened), else at a safe character. Sizes count each
footnote at its widest plain form, so the final render, whose numbers may differ, still fits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.render.text import SENTINEL, safe_cut
from bot.render.write import Rendered, Split

__all__ = ["Message", "Packer", "Piece", "join"]


@dataclass(frozen=True, slots=True)
class Piece:
    """``blocks[block].text[start:end]`` shown in one message, between ``prefix`` and ``suffix``."""

    block: int
    start: int
    end: int
    prefix: str = ""
    suffix: str = ""


Message = tuple[Piece, ...]


class Packer:
    def __init__(self, *, budget: int, footnote_extra: int) -> None:
        self.budget = budget
        self.extra = footnote_extra
        self.closed: list[Message] = []
        self.current: list[Piece] = []
        self.used = 0

    def cost(self, block: Rendered, start: int, end: int, wrap: int = 0) -> int:
        return end - start + wrap + self.extra * block.text.count(SENTINEL, start, end)

    def room(self, block: Rendered) -> int:
        return self.budget - (self.used + len(block.separator) if self.current else 0)

    def size(self, block: Rendered) -> int:
        """What a block needs to join a message: its cost, or its source length if that is
        more. The source only grows while the block streams, so an open block whose source
        already overflows will surely start the next message, and can be shown there at once."""
        return max(self.cost(block, 0, len(block.text)), block.source_len)

    def add(self, index: int, block: Rendered) -> None:
        whole = self.cost(block, 0, len(block.text))
        if self.size(block) <= self.room(block):
            self._put(Piece(index, 0, len(block.text)), whole, block.separator)
            return
        self._close()
        if whole <= self.budget:
            self._put(Piece(index, 0, len(block.text)), whole, "")
            return
        start, prefix = 0, ""
        while self.cost(block, start, len(block.text), len(prefix)) > self.budget:
            piece, start, prefix = self._cut(index, block, start, prefix)
            self._put(
                piece,
                self.cost(block, piece.start, piece.end, len(piece.prefix) + len(piece.suffix)),
                "",
            )
            self._close()
        self._put(
            Piece(index, start, len(block.text), prefix),
            self.cost(block, start, len(block.text), len(prefix)),
            "",
        )

    def messages(self, tail: tuple[int, Rendered] | None = None, floor: int = 0) -> list[Message]:
        """Every message as it shows now; ``tail`` is the open block.

        The open block joins the last message while it fits. Once it does not, it starts the
        next message at once if its first finished piece is sure to be longer than the room
        (``floor``, the least source length that piece will have); otherwise, until the reader
        decides where it is cut, the last message shows as much of it as fits up to a sentence
        (or line, or word) break, so text a person has seen does not vanish meanwhile.
        """
        shown = list(self.closed)
        last = list(self.current)
        if tail is not None:
            index, block = tail
            whole = self.cost(block, 0, len(block.text))
            if self.size(block) <= self.room(block):
                last.append(Piece(index, 0, len(block.text)))
            elif floor > self.room(block) or not last:
                if last:
                    shown.append(tuple(last))
                last = [
                    Piece(index, 0, len(block.text))
                    if whole <= self.budget
                    else self._cut(index, block, 0, "")[0]
                ]
            elif (provisional := self._provisional(index, block)) is not None:
                last.append(provisional)
        if last:
            shown.append(tuple(last))
        return shown

    def _provisional(self, index: int, block: Rendered) -> Piece | None:
        """The longest start of an open ``block`` that fits in the last message's room and ends
        at a sentence or line break (a word break when there is none); None when nothing fits."""
        room = self.room(block)
        fitting = [
            split
            for split in block.splits
            if self.cost(block, 0, split.end, len(split.close)) <= room
        ]
        if not fitting:
            return None
        best = max(fitting, key=lambda split: (split.rank >= 2, split.end))
        return Piece(index, 0, best.end, "", best.close)

    def _put(self, piece: Piece, cost: int, separator: str) -> None:
        self.used = self.used + len(separator) + cost if self.current else cost
        self.current.append(piece)

    def _close(self) -> None:
        if self.current:
            self.closed.append(tuple(self.current))
            self.current, self.used = [], 0

    def _cut(self, index: int, block: Rendered, start: int, prefix: str) -> tuple[Piece, int, str]:
        """The longest good first part of ``block.text[start:]`` within a whole message."""
        fitting: list[Split] = []
        for split in block.splits:
            if split.end <= start:
                continue
            if self.cost(block, start, split.end, len(prefix) + len(split.close)) > self.budget:
                break
            fitting.append(split)
        best: Split | None = None
        if fitting:
            late = [split for split in fitting if split.end - start >= self.budget // 2]
            best = max(late, key=lambda split: (split.rank, split.end)) if late else fitting[-1]
        if best is not None:
            return Piece(index, start, best.end, prefix, best.close), best.start, best.reopen
        room = self.budget - len(prefix)
        end = min(len(block.text), start + room)
        while end > start + 1 and self.cost(block, start, end) > room:
            end -= max(1, self.cost(block, start, end) - room)
        end = max(start + 1, safe_cut(block.text, end))
        return Piece(index, start, end, prefix), end, ""


def join(blocks: Sequence[Rendered], message: Message) -> str:
    """A message's text: its pieces, each after its block's separator (none at the start)."""
    out: list[str] = []
    for piece in message:
        block = blocks[piece.block]
        if out:
            out.append(block.separator if piece.start == 0 else "\n\n")
        out += (piece.prefix, block.text[piece.start : piece.end], piece.suffix)
    return "".join(out)
