"""What a quote check decides: kept apart from the checker so that the cards showing it (the
formatter, the presenters) need none of the fetching and reading behind it."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Verdict"]


class Verdict(StrEnum):
    """What a card says about its quote (``--json``'s ``quote_check``)."""

    FOUND = "found"
    NOT_FOUND = "not_found"
    UNREADABLE = "unreadable"
