"""What ``citebot ask`` needs of a platform besides its presenter: a sink that keeps what the
platform would finally show (``--json``), and the port of a live view (the terminal's)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Protocol

from bot.answer import AnswerSink
from bot.render.ports import Payload

__all__ = ["CollectingSink", "LiveSink", "LiveWords"]


class LiveSink(AnswerSink, Protocol):
    """Shows one answer where the command runs, while it streams."""

    def live(self, question: str) -> AbstractAsyncContextManager[None]:
        """While inside, the answer is being asked; on the way out it is shown whole."""
        ...


@dataclass(frozen=True, slots=True, kw_only=True)
class LiveWords:
    """What a live view says while it waits, in the asker's language."""

    sources: str
    """Heads the sources."""
    status: str
    """While the answer is asked (``citebot is thinking…``)."""
    checking: str | None
    """While the quotes are checked; None when they are not."""


class CollectingSink:
    """Keeps what a platform would finally show, for ``--json``."""

    def __init__(self) -> None:
        self.answer: tuple[Payload, ...] = ()
        self.thread: list[Payload] = []

    @asynccontextmanager
    async def live(self, question: str) -> AsyncIterator[None]:
        yield

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        self.answer = tuple(messages)

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        self.thread.extend(payloads)

    async def edit_thread(self, index: int, payload: Payload) -> None:
        self.thread[index] = payload
