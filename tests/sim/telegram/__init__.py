"""A Telegram Bot API simulator for tests: see :class:`tests.sim.telegram.sim.TelegramSim`."""

from tests.sim.telegram.model import SimCallback, SimChat, SimDraft, SimMessage, SimUser
from tests.sim.telegram.ratelimit import RateLimits
from tests.sim.telegram.sim import TelegramSim
from tests.sim.telegram.wire import RecordedRequest, Violation

__all__ = [
    "RateLimits",
    "RecordedRequest",
    "SimCallback",
    "SimChat",
    "SimDraft",
    "SimMessage",
    "SimUser",
    "TelegramSim",
    "Violation",
]
