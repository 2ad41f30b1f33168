"""Telegram's message pace, enforced when a test asks for it (off by default, for speed).

The Bot FAQ ("My bot is hitting limits, how do I avoid this?"): avoid more than one message per
second in a chat ("we may allow short bursts that go over this limit, but eventually you'll
begin receiving 429 errors"), no more than 20 messages per minute in a group, about 30 messages
per second overall. Sending and editing a message both count (edits are refused with 429 as
sends are); drafts and chat actions do not. A refusal is ``429 Too Many Requests: retry after
N`` with ``parameters.retry_after`` N, whole seconds, the time until the window has room again.
"""

from __future__ import annotations

import math
from collections import defaultdict, deque
from dataclasses import dataclass, field

__all__ = ["PACED_METHODS", "Pace", "RateLimits"]

PACED_METHODS = frozenset(
    {"sendMessage", "sendRichMessage", "editMessageText", "editMessageReplyMarkup"}
)


@dataclass(frozen=True)
class RateLimits:
    """Each limit is (messages, seconds)."""

    per_chat: tuple[int, float] = (1, 1.0)
    per_group: tuple[int, float] = (20, 60.0)
    overall: tuple[int, float] = (30, 1.0)


@dataclass
class Pace:
    limits: RateLimits
    _sent: dict[tuple[str, int], deque[float]] = field(default_factory=lambda: defaultdict(deque))

    def take(self, chat_id: int, is_group: bool, now: float) -> int | None:
        """Record one message in ``chat_id`` at ``now``; or the whole seconds to wait, and
        nothing recorded, when a window is full."""
        windows = [(("chat", chat_id), self.limits.per_chat), (("all", 0), self.limits.overall)]
        if is_group:
            windows.append((("group", chat_id), self.limits.per_group))
        wait = 0.0
        for key, (count, seconds) in windows:
            log = self._sent[key]
            while log and log[0] <= now - seconds:
                log.popleft()
            if len(log) >= count:
                wait = max(wait, log[0] + seconds - now)
        if wait > 0:
            return max(1, math.ceil(wait))
        for key, _ in windows:
            self._sent[key].append(now)
        return None
