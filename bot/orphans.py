"""Closing the answers a dead worker left: one closer, the platform's hook only writes.

A record another worker left (:mod:`bot.inflight`) says where its answer is, in one shape for
every platform (:class:`~bot.inflight.Whereabouts`). The :class:`OrphanCloser` decides what
the person is told, in their words: that the answer was interrupted (they saw some of it:
please ask again) or that citebot is restarting (they saw nothing), written as the platform's
presenter writes a notice and as its formatter ends an interrupted answer (:class:`Note`).
The platform's :class:`OrphanHook` writes it where the whereabouts say, through the routes and
budgets the answer's own writes use. Nothing the person read is edited away: the record may be
a second old.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot.i18n.wording import Wording
from bot.inflight import Orphan, Whereabouts
from bot.render.formatter import AnswerFormatter
from bot.render.ports import Payload, Presenter

__all__ = ["Note", "OrphanCloser", "OrphanHook"]


@dataclass(frozen=True, slots=True)
class Note:
    """What an orphaned answer's asker is told."""

    shown: bool
    """Whether they saw some of the answer (a message, or a draft)."""
    interrupted: Payload
    """"The answer was interrupted, please ask again", as a notice of its own."""
    restarting: Payload
    """"citebot is restarting", as a notice: for an answer that showed nothing."""
    ending: Payload
    """The interrupted note as the formatter ends an answer's text (its last paragraph): for
    a message still being written (a stream to stop, a draft to send)."""

    @property
    def notice(self) -> Payload:
        """The notice the answer's state calls for."""
        return self.interrupted if self.shown else self.restarting


class OrphanHook(Protocol):
    """A platform's part in closing an orphaned answer."""

    async def close(self, where: Whereabouts, note: Note) -> None:
        """Write ``note`` where the answer is: a reply after its last message, a stream ended
        with it, a placeholder replaced (only where it still says its words)."""
        ...


class OrphanCloser:
    """A :data:`bot.inflight.Closer` of one platform's orphans, through its ``hook``."""

    def __init__(
        self,
        hook: OrphanHook,
        *,
        presenter: Presenter,
        wording_for: Callable[[str | None], Wording],
    ) -> None:
        self._hook = hook
        self._presenter = presenter
        self._wording_for = wording_for

    async def __call__(self, orphan: Orphan) -> None:
        where = orphan.where
        wording = self._wording_for(orphan.language)
        (ending,) = AnswerFormatter(self._presenter).interrupt(wording.interrupted())
        note = Note(
            shown=where.shown or bool(where.draft),
            interrupted=self._presenter.notice(wording.interrupted()),
            restarting=self._presenter.notice(wording.restarting()),
            ending=ending,
        )
        await self._hook.close(where, note)
