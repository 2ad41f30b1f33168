"""``citebot run`` as deployed, with the workers' clocks shortened, for tests that kill one.

The leases (Discord's shards), the in-flight records and the identify window run ``SCALE``
times their real length (a lease lapses in 2 s, not 10 s), so a test sees a dead worker's
shards move and its answers closed within seconds; the settle stays long enough for workers
started together to see each other. The Discord simulator's identify window is given the same
scale. Everything else is the real worker, configured from the environment.

Run: ``python -m tests.integrations.fast_worker`` (the tests start it).
"""

from __future__ import annotations

import sys

import bot.inflight
import bot.shares
import integrations.discord.shards

SCALE = 0.2
IDENTIFY_SECONDS = 5.0 * SCALE
"""The identify window the simulator must enforce for these workers."""


def main() -> int:
    real = bot.shares.Times()
    bot.shares.TIMES = bot.shares.Times(
        lease_ttl=real.lease_ttl * SCALE, tick=real.tick * SCALE, settle=2.0
    )
    integrations.discord.shards.IDENTIFY = integrations.discord.shards.Identify(
        window=IDENTIFY_SECONDS, margin=integrations.discord.shards.IDENTIFY.margin
    )
    inflight = bot.inflight.Times()
    bot.inflight.TIMES = bot.inflight.Times(
        beat=inflight.beat * SCALE,
        ttl=inflight.ttl * SCALE,
        close_grace=inflight.close_grace,
    )
    from bot.__main__ import main as citebot

    return citebot(["run"])


if __name__ == "__main__":
    sys.exit(main())
