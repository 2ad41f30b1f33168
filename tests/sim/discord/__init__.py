"""A Discord simulator for tests: see :class:`tests.sim.discord.sim.DiscordSim`."""

from tests.sim.discord.model import SimChannel, SimInteraction, SimMessage
from tests.sim.discord.sim import DiscordSim
from tests.sim.discord.wire import RecordedRequest

__all__ = ["DiscordSim", "RecordedRequest", "SimChannel", "SimInteraction", "SimMessage"]
