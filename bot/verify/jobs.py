"""What crosses between the worker and a reader process: a page's bytes and its quotes one way,
a verdict per quote (or why the page is unreadable) the other.

Frames are a length-prefixed JSON header and the raw body: nothing is pickled, so a reader
that a hostile page subverted can make the worker do no more than read a few bytes of JSON,
checked like any other input (:func:`read_reply` takes only as many verdicts as quotes, from
the known ones). Both sides import this module; it imports nothing heavy.
"""

from __future__ import annotations

import asyncio
import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import BinaryIO

from bot.verify.page import Page
from bot.verify.verdict import Verdict

__all__ = ["MAX_REPLY_BYTES", "Reply", "job_frame", "read_job", "read_reply", "reply_frame"]

MAX_REPLY_BYTES = 64 * 1024
"""A reply is a few bytes a quote: a longer one is a reader gone wrong."""
MAX_WHY = 200
_JOB = struct.Struct(">II")
_REPLY = struct.Struct(">I")


@dataclass(frozen=True, slots=True)
class Reply:
    """A reader's answer: ``verdicts`` in the quotes' order (None: to be decided by the main
    text's extraction), or ``why`` the page is unreadable; ``last`` when the reader exits after
    it (recycled)."""

    verdicts: tuple[Verdict | None, ...] = ()
    why: str | None = None
    last: bool = False


def job_frame(page: Page, quotes: Sequence[str], *, extract: bool) -> tuple[bytes, bytes]:
    """One page and the quotes to look for on it, as the worker writes them: the frame's head,
    then its body (the page's own bytes, not copied); ``extract``: look in the page's main text
    too (``bot.verify.read.judge``)."""
    header = json.dumps(
        {
            "url": page.url,
            "content_type": page.content_type,
            "charset": page.charset,
            "complete": page.complete,
            "quotes": list(quotes),
            "extract": extract,
        }
    ).encode()
    return _JOB.pack(len(header), len(page.body)) + header, page.body


def read_job(stream: BinaryIO) -> tuple[Page, tuple[str, ...], bool] | None:
    """The next job, as a reader reads it (blocking); None once the worker closed the pipe."""
    sizes = _exactly(stream, _JOB.size)
    if sizes is None:
        return None
    header_size, body_size = _JOB.unpack(sizes)
    header, body = _exactly(stream, header_size), _exactly(stream, body_size)
    if header is None or body is None:
        return None
    fields = json.loads(header)
    page = Page(
        url=fields["url"],
        content_type=fields["content_type"],
        charset=fields["charset"],
        body=body,
        complete=fields["complete"],
    )
    return page, tuple(fields["quotes"]), fields["extract"] is True


def reply_frame(reply: Reply) -> bytes:
    body = json.dumps(
        {
            "verdicts": [None if v is None else v.value for v in reply.verdicts],
            "why": reply.why,
            "last": reply.last,
        }
    ).encode()
    return _REPLY.pack(len(body)) + body


async def read_reply(stream: asyncio.StreamReader, quotes: int) -> Reply:
    """A reader's reply to a job of ``quotes`` quotes; ValueError when it is not one."""
    (size,) = _REPLY.unpack(await stream.readexactly(_REPLY.size))
    if size > MAX_REPLY_BYTES:
        raise ValueError(f"a reply of {size} bytes")
    fields = json.loads(await stream.readexactly(size))
    if not isinstance(fields, dict):
        raise ValueError("a reply that is not an object")
    why, last, values = fields.get("why"), fields.get("last") is True, fields.get("verdicts")
    if isinstance(why, str):
        return Reply(why=why[:MAX_WHY], last=last)
    if not isinstance(values, list):
        raise ValueError("a reply without verdicts")
    verdicts = tuple(None if value is None else Verdict(value) for value in values)
    if len(verdicts) != quotes:
        raise ValueError(f"{len(verdicts)} verdicts for {quotes} quotes")
    return Reply(verdicts=verdicts, last=last)


def _exactly(stream: BinaryIO, size: int) -> bytes | None:
    data = stream.read(size)
    return data if len(data) == size else None
