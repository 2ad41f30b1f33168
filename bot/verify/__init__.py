"""Quote checking: is each cited quote really on its source's page?

Platform-free: the answer flow calls :class:`QuoteChecker` once the cards are posted, and shows
each :class:`Verdict` on its card. Nothing here imports the formatter or a platform.
"""

from __future__ import annotations

from bot.verify.checker import QuoteChecker, Verdict
from bot.verify.fetch import USER_AGENT, FetchLimits

__all__ = ["USER_AGENT", "FetchLimits", "QuoteChecker", "Verdict"]
