"""Teams' rate limits on a bot's sends, per conversation: learn.microsoft.com/microsoftteams/
platform/bots/how-to/rate-limit ("Per bot per thread limit": 7 operations a second, 8 in two,
60 in 30, 1,800 an hour, to one conversation, "1:1 between bot and user, a group chat, or a
channel in a team"; past them ``HTTP 429 Too Many Requests``, which the bot must back off
from). The page names no ``Retry-After``; the simulator sends one (whole seconds until the
window has room), as the Bot Framework's throttling answers do, and a bot that honours it is
never refused twice.
"""

from __future__ import annotations

import math
from collections import defaultdict, deque
from dataclasses import dataclass, field

__all__ = ["Pace", "RateLimits"]


@dataclass(frozen=True)
class RateLimits:
    """Each window is (operations, seconds)."""

    per_conversation: tuple[tuple[int, float], ...] = (
        (7, 1.0),
        (8, 2.0),
        (60, 30.0),
        (1800, 3600.0),
    )


@dataclass
class Pace:
    limits: RateLimits
    _sent: dict[str, deque[float]] = field(default_factory=lambda: defaultdict(deque))

    def take(self, conversation: str, now: float) -> int | None:
        """Record one operation in ``conversation`` at ``now``; or the whole seconds to wait,
        and nothing recorded, when a window is full."""
        log = self._sent[conversation]
        longest = max(seconds for _, seconds in self.limits.per_conversation)
        while log and log[0] <= now - longest:
            log.popleft()
        wait = 0.0
        for count, seconds in self.limits.per_conversation:
            recent = [at for at in log if at > now - seconds]
            if len(recent) >= count:
                wait = max(wait, recent[-count] + seconds - now)
        if wait > 0:
            return max(1, math.ceil(wait))
        log.append(now)
        return None
