"""How long a test waits for something to happen before it says it never did.

A wait is for an event (a message shown, an answer finished, a worker connected), never a race
with the clock: on a machine the suite shares with others, what takes a tenth of a second alone
has taken twenty. So every wait gives up only after :data:`PATIENCE`, far past anything a
working citebot takes however loaded the machine, and within pytest's own timeout (120 s a
test), which a stuck test then never reaches with nothing said. How fast things are is a
benchmark's row (``python -m bench``), not a test's deadline.
"""

from __future__ import annotations

__all__ = ["PATIENCE"]

PATIENCE = 60.0
"""Seconds a test waits for one event before it fails."""
