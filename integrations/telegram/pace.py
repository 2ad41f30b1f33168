"""Telegram's message pace, kept by every answer of a chat and every worker on one Redis.

The Bot FAQ: no more than about one message a second in a chat, 20 a minute in a group, 30 a
second overall; sending and editing both count (drafts and chat actions do not). Telegram
answers a write over the pace with 429 and ``retry_after``. A :class:`TelegramBudget` keeps
each limit as a sliding window (a chat's, a group's, the bot's); every message write takes its
slot in each first, waiting for one if it must. An answer's writes that can be skipped (the
edits while it streams) go only when a slot is free beyond those promised to the writes that
cannot (each open answer's last edit and its cards: :meth:`TelegramBudget.claim`) in the
group's minute, so the finals never wait behind the extras there (a chat's second comes round
by itself); and not at all while Telegram said to wait.

Workers on one Redis take their slots in windows kept there (the Slack budget's shared windows,
:meth:`~bot.state.coordination.Coordination.reserve`), so a chat whose answers run in several
workers (a webhook behind a load balancer, a reader handed over mid-answer) keeps the pace as
one. Claims stay in their worker: a chat's answers mostly run in the worker that received them,
and a final another worker's extra delayed waits for a slot, never meets a 429. If Redis
fails, each worker paces alone until it answers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from redis.exceptions import RedisError

from bot.adapter import Coordination, RateBudget
from integrations.telegram.place import Chat

__all__ = ["PACE", "Pace", "TelegramBudget"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Pace:
    """Each limit is (messages, seconds)."""

    chat: tuple[int, float] = (1, 1.0)
    group: tuple[int, float] = (20, 60.0)
    bot: tuple[int, float] = (30, 1.0)


PACE = Pace()


class TelegramBudget:
    """The message writes the workers may still make, per chat, per group and for the bot."""

    def __init__(
        self,
        *,
        pace: Pace = PACE,
        margin: float = 0.25,
        clock: Callable[[], float] = time.monotonic,
        coordination: Coordination | None = None,
        scope: str = "",
    ) -> None:
        def window(limit: tuple[int, float]) -> RateBudget:
            return RateBudget(calls=limit[0], per_seconds=limit[1], margin=margin, clock=clock)

        self._budgets = {"chat": window(pace.chat), "group": window(pace.group)}
        self._bot = window(pace.bot)
        self._clock = clock
        self._shared = coordination
        self._scope = scope
        self._claims: Counter[int] = Counter()
        self._paused: dict[int, float] = {}

    def _windows(self, chat: Chat) -> list[tuple[str, RateBudget, str]]:
        """(shared name, window, key) of every limit a write in ``chat`` counts against, the
        slowest first: a slot is then taken in each at the time it is used."""
        key = str(chat.id)
        found = [("group", self._budgets["group"], key)] if chat.group else []
        found += [("chat", self._budgets["chat"], key), ("bot", self._bot, "")]
        return [(f"telegram:{self._scope}:{kind}:{k}", budget, k) for kind, budget, k in found]

    def claim(self, chat: Chat, count: int = 1) -> None:
        """Promise ``count`` writes in ``chat`` that cannot be skipped (an answer's finals)."""
        self._claims[chat.id] += count

    def release(self, chat: Chat, count: int = 1) -> None:
        self._claims[chat.id] -= count
        if self._claims[chat.id] <= 0:
            del self._claims[chat.id]

    def pause(self, chat: Chat, seconds: float) -> None:
        """Telegram said to wait (a 429's ``retry_after``): nothing skippable goes until then."""
        self._paused[chat.id] = max(self._paused.get(chat.id, 0.0), self._clock() + seconds)

    def waiting(self, chat: Chat) -> float:
        """Seconds Telegram said to wait still to run in ``chat``."""
        until = self._paused.get(chat.id)
        if until is None:
            return 0.0
        left = until - self._clock()
        if left <= 0:
            del self._paused[chat.id]
        return max(left, 0.0)

    async def free(self, chat: Chat) -> bool:
        """Whether a write that could be skipped may go now in ``chat``: a slot free in every
        window beyond the claimed ones, and no wait Telegram asked for."""
        if self.waiting(chat):
            return False
        windows = self._windows(chat)
        if self._shared is not None:
            try:
                slots = await self._shared.windows({name: b.window for name, b, _ in windows})
            except (RedisError, OSError) as error:
                log.warning("shared Telegram pace unreachable (%s)", type(error).__name__)
            else:
                now = self._clock()
                for name, budget, key in windows:
                    budget.adopt(key, (now + offset for offset in slots.get(name, [])))
        group = self._budgets["group"]
        claimed = self._claims[chat.id]
        return all(
            budget.delay(key, after=claimed if budget is group else 0) == 0
            for _, budget, key in windows
        )

    async def acquire(self, chat: Chat) -> None:
        """Wait for a slot in each of ``chat``'s windows (and for any wait Telegram asked for)
        and take it."""
        if wait := self.waiting(chat):
            await asyncio.sleep(wait)
        for name, budget, key in self._windows(chat):
            if self._shared is not None:
                try:
                    wait, slots = await self._shared.reserve(
                        name, calls=budget.calls, window=budget.window
                    )
                except (RedisError, OSError) as error:
                    log.warning("shared Telegram pace unreachable (%s)", type(error).__name__)
                else:
                    now = self._clock()
                    budget.adopt(key, (now + offset for offset in slots))
                    if wait > 0:
                        await asyncio.sleep(wait)
                    continue
            await budget.acquire(key)
