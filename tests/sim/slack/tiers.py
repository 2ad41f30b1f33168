"""Slack's Web API rate limits, as the simulator enforces them.

Slack counts calls "per API method per workspace per app" and publishes each method's tier as a
floor ("Tier 2: 20+ per minute ... occasional bursts"); chat.postMessage is special: "1 per
second per channel, short bursts >1 allowed", plus an unpublished workspace-wide limit. Over a
limit, Slack answers HTTP 429 with a ``Retry-After`` header (whole seconds) and
``{"ok": false, "error": "ratelimited"}``.

The model: a sliding window per (method, workspace) holding the tier's floor number of calls
per 60 s, so a burst of the whole quota is accepted and the next call waits until the oldest
leaves the window; this is the strictest reading of the docs, so an app that passes here passes
Slack. chat.postMessage gets a window per channel of 3 calls per 3 s (1 a second, bursts of 3);
the workspace-wide limit is not modelled (Slack publishes no number). Tier 1 takes 3 a minute
(its floor of 1, with the "small amount of burst" the docs tolerate, so a reconnect is not
refused). assistant.threads.setStatus is documented only as "special"; it counts as Tier 3.
Calls that are refused do not count.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["SLACK_TIERS", "Tier", "TierLimits", "retry_after_header"]


@dataclass(frozen=True, slots=True)
class Tier:
    calls: int
    per_seconds: float = 60.0
    per_channel: bool = False


TIER_1, TIER_2, TIER_3, TIER_4 = Tier(3), Tier(20), Tier(50), Tier(100)

SLACK_TIERS: Mapping[str, Tier] = {
    "apps.connections.open": TIER_1,
    "auth.test": TIER_4,
    "users.info": TIER_4,
    "chat.getPermalink": TIER_4,  # "hundreds of requests per minute" (its reference)
    "conversations.replies": TIER_3,
    "assistant.threads.setStatus": TIER_3,
    "assistant.threads.setSuggestedPrompts": TIER_4,
    "assistant.threads.setTitle": TIER_4,
    "conversations.history": TIER_3,
    "views.publish": TIER_4,
    "views.open": TIER_4,
    "views.update": TIER_4,
    "reactions.add": TIER_3,
    "chat.postMessage": Tier(3, 3.0, per_channel=True),
    "chat.postEphemeral": TIER_4,
    "chat.update": TIER_3,
    "chat.startStream": TIER_2,
    "chat.appendStream": TIER_4,
    "chat.stopStream": TIER_2,
}


class TierLimits:
    """Admits or refuses each call; ``time_scale`` shrinks every window (fast tests)."""

    def __init__(
        self,
        *,
        tiers: Mapping[str, Tier] = SLACK_TIERS,
        enabled: bool = True,
        time_scale: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if time_scale <= 0:
            raise ValueError("time_scale must be positive")
        self.tiers = tiers
        self.enabled = enabled
        self.time_scale = time_scale
        self._clock = clock
        self._windows: defaultdict[tuple[str, ...], deque[float]] = defaultdict(deque)

    def admit(self, method: str, *, team: str, channel: object) -> float | None:
        """Count the call, or return the seconds until one more would be admitted."""
        tier = self.tiers.get(method)
        if not self.enabled or tier is None:
            return None
        key = (method, team, str(channel)) if tier.per_channel else (method, team)
        window, per, now = self._windows[key], tier.per_seconds * self.time_scale, self._clock()
        while window and now - window[0] >= per:
            window.popleft()
        if len(window) >= tier.calls:
            return window[0] + per - now
        window.append(now)
        return None


def retry_after_header(seconds: float) -> str:
    """Slack sends whole seconds, and never 0 for a refusal."""
    return str(max(1, math.ceil(seconds)))
