"""A Slack simulator on loopback (Web API, native streaming, Socket Mode) for tests."""

from __future__ import annotations

from tests.sim.slack.model import Ack, Call, Delivery, Message
from tests.sim.slack.server import SlackSim
from tests.sim.slack.webapi import Identity

__all__ = ["Ack", "Call", "Delivery", "Identity", "Message", "SlackSim"]
