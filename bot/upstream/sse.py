"""Server-sent events read from bytes as they arrive, one event's size bounded.

httpx-sse reads lines with no bound (an upstream sending one endless ``data:`` line filled 26 MB
of a worker's memory in one second), and only hands over complete events, so a deadline could
only be checked between them. This reader takes the network's chunks itself: the caller bounds
each read by the answer's deadline, and an event, or a line, longer than ``max_event_bytes``
raises :class:`EventTooLarge` as soon as that many bytes are held. It follows the WHATWG
parsing rules (lines end in CRLF, LF or CR; ``:`` starts a comment; one space after the colon
is dropped; ``data`` lines join with newlines; a blank line ends an event), keeping only what
an answer needs: each event's data. ``bench/bench_sse.py`` measures it against httpx-sse.
"""

from __future__ import annotations

__all__ = ["EventTooLarge", "SSEReader"]

_BOM = b"\xef\xbb\xbf"


class EventTooLarge(Exception):
    """One event (or one line of it) outgrew the cap before it ended."""


class SSEReader:
    """Feed it chunks in order; it returns the data of every event they complete."""

    def __init__(self, *, max_event_bytes: int) -> None:
        self._cap = max_event_bytes
        self._pieces: list[bytes] = []
        """The start of a line whose end has not arrived yet (joined once, when it does)."""
        self._held = 0
        self._data: list[bytes] = []
        self._size = 0
        """Bytes of data held for the event being read."""
        self._cr = False
        """The last chunk ended in CR: an LF starting the next one belongs to it."""
        self._started = False

    def feed(self, chunk: bytes) -> list[str]:
        if self._cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        self._cr = chunk.endswith(b"\r")
        if b"\r" in chunk:
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        if b"\n" not in chunk:
            if chunk:
                self._pieces.append(chunk)
                self._held += len(chunk)
                self._check(self._held)
            return []
        if self._pieces:
            chunk = b"".join(self._pieces) + chunk
        lines = chunk.split(b"\n")
        if not self._started:  # the stream's first line may start with a byte order mark
            self._started = True
            lines[0] = lines[0].removeprefix(_BOM)
        rest = lines.pop()
        self._pieces = [rest] if rest else []
        self._held = len(rest)
        events: list[str] = []
        for line in lines:
            if not line:
                if self._data:
                    events.append(b"\n".join(self._data).decode("utf-8", "replace"))
                    self._data = []
                    self._size = 0
                continue
            if line.startswith(b"data"):
                value = line[4:]
                if value.startswith(b":"):
                    value = value[2:] if value.startswith(b": ") else value[1:]
                elif value:  # a field named "data…" is no data field
                    continue
                self._data.append(value)
                self._size += len(value) + 1
                self._check(0)
            # comments (":"), "event", "id", "retry" and unknown fields carry nothing we read
        self._check(self._held)
        return events

    def _check(self, pending: int) -> None:
        if self._size + pending > self._cap:
            raise EventTooLarge(f"an event longer than {self._cap:,} bytes")
