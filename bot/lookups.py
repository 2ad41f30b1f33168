"""What a platform says about its people, asked once and kept: never once per event.

Events say who asked, seldom what citebot must know of them (a Slack user's locale), and the
platform answers that at a cost: a call per person, counted in its rate tiers, and a burst of
questions would ask it once each. A :class:`Lookup` keeps each answer for as long as the
platform's asker says (:class:`Looked`): in this worker (a bounded LRU; askers of one person at
once share one call) and, through the kit (:class:`Kept`), in the state store, so that another
worker, or this one after a restart, does not ask again. What is kept there is the person's:
their forget-me deletes it, as it deletes their conversations. A failure is kept in this
worker only, for the shorter time its asker gives it.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.state import State

__all__ = ["Kept", "KeptInStore", "Looked", "Lookup"]


@dataclass(frozen=True, slots=True)
class Looked:
    """What the platform said of a person (None: nothing to say), and for how many seconds it
    holds; ``shared`` False for a failure, which another worker may not meet."""

    value: str | None
    keep: float
    shared: bool = True


class Kept(Protocol):
    """Where the workers keep what one of them looked up about a person."""

    async def recall(self, person: str) -> str | None:
        """The JSON kept for ``person``; None when nothing is (or the store failed)."""
        ...

    async def keep(self, person: str, value: str, *, server: str | None, ttl: float) -> None:
        """Keep ``value`` (JSON) for ``person`` for ``ttl`` seconds: theirs, and ``server``'s
        (where they were met), so that either's forgetting deletes it."""
        ...


class KeptInStore:
    """:class:`Kept` on the state store (failing open: a store that fails forgets)."""

    def __init__(self, state: State, *, platform: str, what: str) -> None:
        self._state = state
        self._platform = platform
        self._what = what

    def _key(self, person: str) -> str:
        return f"{self._what}:{self._platform}:{person}"

    async def recall(self, person: str) -> str | None:
        return await self._state.cached(self._key(person))

    async def keep(self, person: str, value: str, *, server: str | None, ttl: float) -> None:
        key = self._key(person)
        await self._state.cache(key, value, ttl=ttl)
        await self._state.note_belongings(
            self._platform, person=person, server=server, notes=[key], ttl=ttl
        )


class Lookup:
    """``await lookup.get(person)``: what ``ask`` says of them, asked once per ``keep``."""

    def __init__(
        self,
        ask: Callable[[str], Awaitable[Looked]],
        *,
        kept: Kept | None = None,
        size: int = 5000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._ask = ask
        self._kept = kept
        self._size = size
        self._clock = clock
        self._known: OrderedDict[str, tuple[float, str | None]] = OrderedDict()
        self._asking: dict[str, asyncio.Task[str | None]] = {}

    async def get(self, person: str, *, server: str | None = None) -> str | None:
        """What is known of ``person`` (met in ``server``: a workspace, a group)."""
        cached = self._known.get(person)
        if cached is not None and cached[0] > self._clock():
            self._known.move_to_end(person)
            return cached[1]
        task = self._asking.get(person)
        if task is None:
            task = asyncio.create_task(self._find(person, server), name="citebot-lookup")
            self._asking[person] = task
            task.add_done_callback(lambda _done: self._asking.pop(person, None))
        return await asyncio.shield(task)

    async def _find(self, person: str, server: str | None) -> str | None:
        if self._kept is not None:
            found = await self._kept.recall(person)
            if found is not None:
                value = json.loads(found)
                self._remember(person, value if isinstance(value, str) else None, _LOCAL)
                return self._known[person][1]
        looked = await self._ask(person)
        self._remember(person, looked.value, looked.keep)
        if self._kept is not None and looked.shared:
            await self._kept.keep(person, json.dumps(looked.value), server=server, ttl=looked.keep)
        return looked.value

    def _remember(self, person: str, value: str | None, keep: float) -> None:
        self._known[person] = (self._clock() + keep, value)
        self._known.move_to_end(person)
        while len(self._known) > self._size:
            self._known.popitem(last=False)


_LOCAL = 60.0
"""Seconds a worker keeps what another one looked up, before reading the store again (which
keeps it for the whole of its time)."""
