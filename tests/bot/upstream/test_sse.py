"""The SSE reader: the WHATWG parsing rules an upstream may lean on, fed the way a network
splits bytes, and the one bound it adds (an event's size)."""

from __future__ import annotations

import pytest

from bot.upstream.sse import EventTooLarge, SSEReader


def read(*chunks: bytes, cap: int = 1 << 20) -> list[str]:
    reader = SSEReader(max_event_bytes=cap)
    return [data for chunk in chunks for data in reader.feed(chunk)]


def test_events_end_at_a_blank_line_whatever_the_line_endings() -> None:
    assert read(b"data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\n\n") == ["a", "b", "c", "d"]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7])
def test_any_split_of_the_bytes_reads_the_same(size: int) -> None:
    stream = "\ufeffdata: é\r\n: keep-alive\r\n\r\ndata:x\rdata\r\rid: 3\nevent: e\ndata: 日本\n\n"
    raw = stream.encode()
    chunks = [raw[i : i + size] for i in range(0, len(raw), size)]
    assert read(*chunks) == ["é", "x\n", "日本"]
    assert read(raw) == ["é", "x\n", "日本"]


def test_data_lines_join_comments_and_other_fields_carry_nothing() -> None:
    assert read(b": hi\ndata: one\ndata:  two\ndatum: no\nretry: 5\n\n") == ["one\n two"]
    assert read(b": only a comment\n\nid: 1\n\n") == []  # no data: no event
    assert read(b"data: unfinished") == []  # an event the stream never ended is not one


def test_one_endless_line_stops_at_the_cap_not_at_the_end_of_memory() -> None:
    reader = SSEReader(max_event_bytes=1000)
    assert reader.feed(b"data: fine\n\ndata: ") == ["fine"]
    with pytest.raises(EventTooLarge):
        for _ in range(100):
            reader.feed(b"x" * 100)  # raised at the 10th piece: 1,006 bytes held


def test_many_short_data_lines_count_towards_the_cap_too() -> None:
    with pytest.raises(EventTooLarge):
        read(b"data: 123456789\n" * 200, cap=1000)
    assert read(b"data: 123456789\n" * 50 + b"\n", cap=1000) == ["\n".join(["123456789"] * 50)]
