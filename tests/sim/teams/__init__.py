"""A Microsoft Teams simulator for tests (the Bot Framework's connector, login service and
signing keys, and the people around one bot): see :class:`tests.sim.teams.sim.TeamsSim`."""

from tests.sim.teams.model import SimConversation, SimMessage, SimPerson, SimStream, SimTeam
from tests.sim.teams.pace import RateLimits
from tests.sim.teams.people import VALID, Delivery
from tests.sim.teams.sim import RecordedRequest, TeamsSim, Violation

__all__ = [
    "VALID",
    "Delivery",
    "RateLimits",
    "RecordedRequest",
    "SimConversation",
    "SimMessage",
    "SimPerson",
    "SimStream",
    "SimTeam",
    "TeamsSim",
    "Violation",
]
