"""A fetched page as the fetcher hands it on, and the one failure every step may raise.

Light on purpose: the reader processes (:mod:`bot.verify.reader`) rebuild a :class:`Page` from
the bytes they are sent and need nothing of the fetching behind it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Page", "Unreadable"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Page:
    """A fetched body; ``complete`` is False when it was cut at a cap (``FetchLimits``)."""

    url: str
    content_type: str
    charset: str | None
    body: bytes
    complete: bool


class Unreadable(Exception):
    """The page could not be read; ``str()`` says why and names at most the host."""
