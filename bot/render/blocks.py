"""Reading a streamed answer into complete Markdown blocks as it arrives.

:class:`BlockReader` cuts the text into blocks (blank lines, headings, top-level list items,
fenced code; an over-long block is cut at a line, a sentence or a word), drops footnote
definition lines ``[^N]: ...`` and keeps an unfinished line start (``[^1``) back until it is
known. Every decision depends only on the characters, never on how they were split into deltas,
and each character is looked at a bounded number of times, so feeding is linear.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.render.text import SENTINEL, ends_sentence, safe_cut

__all__ = ["BlockReader", "SourceBlock", "cut_floor"]

_PIECES = 64
_UNFINISHED_MARKER = re.compile(r"\[(?:\^[0-9]{0,9}|[0-9]{0,3}|d(?:o(?:c[0-9]{0,3})?)?)\Z")
_DEFINITION = re.compile(r" {0,3}\[(?:\^[0-9]{1,9}|[0-9]{1,3})\]:")
_DEFINITION_PREFIX = re.compile(r" {0,3}(?:\[(?:\^(?:[0-9]{1,9}\]?)?|[0-9]{1,3}\]?)?)?")
_SPACES = re.compile(r" {0,3}")
_HEADING = re.compile(r"#{1,6}[ \t]")
_HASHES = re.compile(r"#{1,6}")
_ITEM = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)])[ \t]")
_ITEM_BARE = re.compile(r"[-+*]|[0-9]{1,9}[.)]")
_ITEM_PREFIX = re.compile(r"[-+*]|[0-9]{0,9}[.)]?")
_QUOTE = re.compile(r"(?: {0,3}> ?){1,9}")
_QUOTE_LEVEL = re.compile(r" {0,3}> ?")
_FENCE_PREFIX = re.compile(r"(?: {0,3}> ?){0,9} {0,3}(`*|~*)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_BLOCK_SYNTAX = re.compile(r"[-+*#>|=`~]|[0-9]{1,9}[.)]")


@dataclass(frozen=True, slots=True)
class SourceBlock:
    """A complete block of answer source; ``tight`` when it is the next item of a list right
    above it (shown on the next line rather than after a blank one). ``joiner`` is set when the
    block is the rest of an over-long one the reader cut: what stood at the cut (a space, a line
    break, nothing after a CJK full stop), so the two read as one paragraph again."""

    text: str
    tight: bool = False
    joiner: str | None = None


class BlockReader:
    """Turns deltas into complete blocks of Markdown source, plus the open block's tail."""

    def __init__(self, *, cut: int = 1200) -> None:
        self._cut = cut
        self._open: list[str] = []
        self._open_len = 0
        self._head = ""
        self._mode = "start"  # start (line start undecided) | line | drop
        self._fence: str | None = None
        self._fence_top = False
        self._fence_depth = 0  # the quote levels (">") a fence sits in; its lines carry them
        self._fence_prefix = ""
        self._fence_opener = ""
        self._fence_line: list[str] = []
        self._blank = False
        self._prev_item = False
        self._force_new = False
        self._tight = False
        self._joiner: str | None = None
        self._done: list[SourceBlock] = []

    def feed(self, delta: str) -> list[SourceBlock]:
        """Take a delta; return the blocks it completed."""
        if not delta:
            return []
        delta = delta.replace("\r", "").replace(SENTINEL, "")
        start = 0
        while start < len(delta):
            newline = delta.find("\n", start)
            end = newline if newline >= 0 else len(delta)
            self._take(delta[start:end], complete=newline >= 0)
            if newline >= 0:
                self._end_line()
            start = end + 1 if newline >= 0 else end
        done, self._done = self._done, []
        return done

    def tail(self) -> str:
        """The open block as it may show now: an unfinished marker or definition held back."""
        text = "".join(self._open)
        if self._mode == "start" and not _DEFINITION_PREFIX.fullmatch(self._head):
            text += self._head
        return text if self._fence is not None else _UNFINISHED_MARKER.sub("", text)

    def open_floor(self) -> int:
        """The least source length the open block's first finished piece will have, however
        the answer goes on (the packer shows a streaming block early on it)."""
        text = "".join(self._open)  # the undecided line start may yet begin another block
        if self._fence is not None:
            return len(text)  # code is cut only at a line end past the limit
        return cut_floor(text, self._cut)

    @property
    def joiner(self) -> str | None:
        """The open block's ``joiner`` (see :class:`SourceBlock`)."""
        return self._joiner

    def close(self) -> list[SourceBlock]:
        """The end of the answer: complete the open block and return what remains."""
        if self._mode == "start" and self._head:
            self._take("", complete=True)
        text = "".join(self._open)
        if self._fence is None:
            text = _UNFINISHED_MARKER.sub("", text)
        if text.strip():
            self._done.append(SourceBlock(text, self._tight, self._joiner))
        self._open, self._open_len, self._mode, self._head = [], 0, "start", ""
        done, self._done = self._done, []
        return done

    def _take(self, piece: str, *, complete: bool) -> None:
        if self._mode == "drop":
            return
        if self._mode == "line":
            self._append(piece)
            return
        self._head += piece
        if self._fence_depth:
            inside = self._in_quoted_fence(self._head, complete=complete)
            if inside is None:
                return
            if not inside:  # a line outside the quote ends the quote and its code block
                self._fence, self._fence_depth, self._fence_opener = None, 0, ""
        kind = self._classify(self._head, complete=complete)
        if kind is not None:
            head, self._head = self._head, ""
            self._decide(kind, head)

    def _in_quoted_fence(self, head: str, *, complete: bool) -> bool | None:
        """Whether a line still belongs to a fenced block inside a quote (None: can't tell)."""
        quote = _QUOTE.match(head)
        depth = quote.group().count(">") if quote else 0
        if depth >= self._fence_depth:
            return True
        return None if not complete and not head.strip(" >") else False

    def _classify(self, head: str, *, complete: bool) -> str | None:
        """What a line is, from its start; None while more characters could change the answer."""
        if self._fence is not None:
            return "code"
        if _DEFINITION.match(head):
            return "definition"
        if not complete and _DEFINITION_PREFIX.fullmatch(head):
            return None
        indent = len(_SPACES.match(head).group())  # type: ignore[union-attr]
        rest = head[indent:]
        if not rest.strip(" \t"):
            return "blank" if complete else None
        quote = _QUOTE.match(head)
        fence = _FENCE.match(head, quote.end() if quote else 0)
        if fence and (complete or fence.end() < len(head)):
            return "fence"
        if not complete and _FENCE_PREFIX.fullmatch(head):
            return None
        if indent:
            return "indented"
        if _HEADING.match(rest) or (complete and _HASHES.fullmatch(rest)):
            return "heading"
        if _ITEM.match(rest) or (complete and _ITEM_BARE.fullmatch(rest)):
            return "item"
        if not complete and (_HASHES.fullmatch(rest) or _ITEM_PREFIX.fullmatch(rest)):
            return None
        return "text"

    def _decide(self, kind: str, head: str) -> None:
        if kind == "code":
            self._mode = "line"
            self._append(head)
            return
        if kind == "definition" or kind == "blank":
            self._blank = self._blank or (kind == "blank" and self._open_len > 0)
            self._mode = "drop"
            return
        top_fence = kind == "fence" and not head.startswith((" ", ">"))
        if self._open_len and (
            self._force_new
            or kind == "heading"
            or top_fence
            or (self._blank and kind != "indented")
            or (kind == "item" and self._prev_item)
        ):
            self._close_block()
            self._tight = kind == "item" and self._prev_item and not self._blank
        elif self._blank and self._open_len:
            self._append("\n")
        self._blank = False
        self._force_new = kind == "heading"
        self._prev_item = kind == "item" or (kind == "indented" and self._prev_item)
        if kind == "fence":
            quote = _QUOTE.match(head)
            fence = _FENCE.match(head, quote.end() if quote else 0)
            assert fence is not None
            self._fence, self._fence_top = fence.group(1), top_fence
            self._fence_depth = quote.group().count(">") if quote else 0
            self._fence_prefix = head[: fence.start(1)]
            self._fence_line = []
        self._mode = "line"
        self._append(head)

    def _append(self, piece: str) -> None:
        if not piece:
            return
        self._keep(piece)
        if self._fence is not None:
            self._fence_line.append(piece)
        else:
            self._cut_long()

    def _keep(self, piece: str) -> None:
        """Every few dozen pieces become one string: a str per token costs ~60 bytes more than
        its text, for as long as the block stays open (the client keeps its copy the same way)."""
        self._open.append(piece)
        self._open_len += len(piece)
        if len(self._open) >= _PIECES:
            self._open[:] = ["".join(self._open)]

    def _end_line(self) -> None:
        if self._mode == "line":
            self._keep("\n")
            if self._fence is not None:
                self._end_code_line("".join(self._fence_line))
            else:
                self._cut_long()
        self._mode = "start"

    def _end_code_line(self, line: str) -> None:
        self._fence_line = []
        fence = self._fence or ""
        if not self._fence_opener:
            self._fence_opener = line
            return
        for _ in range(self._fence_depth):
            level = _QUOTE_LEVEL.match(line)
            line = line[level.end() :] if level else line
        stripped = line.strip()
        if (
            stripped
            and set(stripped) == {fence[0]}
            and len(stripped) >= len(fence)
            and len(line) - len(line.lstrip(" ")) <= 3
        ):
            # A block half full takes nothing more after its code, so no cut lands inside it.
            self._force_new = self._fence_top or (
                self._fence_depth > 0 and self._open_len >= self._cut // 2
            )
            self._fence, self._fence_depth, self._fence_opener = None, 0, ""
        elif (self._fence_top or self._fence_depth) and self._open_len >= self._cut:
            self._close_block(suffix=self._fence_prefix + fence)
            self._append(self._fence_opener + "\n")
            self._fence_line = []

    def _close_block(self, *, suffix: str = "") -> None:
        self._done.append(SourceBlock("".join(self._open) + suffix, self._tight, self._joiner))
        self._open, self._open_len, self._tight, self._joiner = [], 0, False, None

    def _cut_long(self) -> None:
        while self._open_len >= self._cut:
            text = "".join(self._open)
            at = _cut_point(text, self._cut)
            quote = _quote_of_line(text, at)
            if quote and at <= quote.end():  # a cut among the quote marks would gain nothing
                at = safe_cut(text, self._cut)
                quote = _quote_of_line(text, at)
            rest = text[at:]
            joiner = text[at - 1] if text[at - 1] in " \n" else ""
            if quote and quote.end() < at:  # the rest of a quoted line is still quoted
                rest = quote.group() + rest
                joiner = "\n"
            self._done.append(SourceBlock(text[:at], self._tight, self._joiner))
            self._open, self._tight, self._joiner = [rest], False, joiner
            self._open_len = len(rest)


def _quote_of_line(text: str, at: int) -> re.Match[str] | None:
    """The quote marks of the line a cut at ``at`` falls in (None at a line's end)."""
    if text[at - 1] == "\n":
        return None
    return _QUOTE.match(text, text.rfind("\n", 0, at) + 1)


def _cut_point(text: str, limit: int) -> int:
    """Where to cut an over-long block: a line, else a sentence, else a word, never inside a
    code span or a link, and never so the rest would start like block syntax."""
    best = _breaks(text, limit)
    for rank in (3, 2, 1):
        if best.get(rank, 0) >= limit // 2:
            return best[rank]
    if best:
        return max(best.values())
    return safe_cut(text, limit)


_LOOKAHEAD = 11
"""How far past a break its validity looks (``_BLOCK_SYNTAX``: up to nine digits and a dot)."""


def cut_floor(text: str, limit: int) -> int:
    """The least length the first piece cut from a block starting with ``text`` can have.

    A break found in ``text`` stays a break however the block goes on, and :func:`_cut_point`
    never cuts before the last break it knows of, nor before ``limit // 2`` once one lies past
    it; breaks too near the end of ``text`` to be sure of are not counted.
    """
    best = _breaks(text, min(limit, len(text) - _LOOKAHEAD))
    last = max(best.values(), default=0)
    return limit // 2 if last >= limit // 2 else last


def _breaks(text: str, limit: int) -> dict[int, int]:
    """The last good break of each rank in ``text[:limit]`` (3 line, 2 sentence, 1 word). The
    space before a block's first word is none: a cut there would leave a blank piece, and the
    rest would join the block before it as if it went on that paragraph."""
    best: dict[int, int] = {}
    first = len(text) - len(text.lstrip())
    i, code, depth, paren = 0, 0, 0, 0
    while i < limit:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "`":
            run = len(text[i:limit]) - len(text[i:limit].lstrip("`"))
            code = run if code == 0 else (0 if code == run else code)
            i += run
            continue
        if code:
            i += 1
            continue
        if ch == "[":
            depth += 1
        elif ch == "]" and depth:
            depth -= 1
            if text[i + 1 : i + 2] == "(":
                paren, i = 1, i + 1
        elif paren and ch in "()":
            paren += 1 if ch == "(" else -1
        elif (
            ch in " \n。！？"
            and i >= first
            and not depth
            and not paren
            and (not _BLOCK_SYNTAX.match(text, i + 1) or text[i : i + 2] == "\n>")
        ):
            rank = 3 if ch == "\n" else (2 if ch != " " or ends_sentence(text, i) else 1)
            best[rank] = i + 1
        i += 1
    return best
