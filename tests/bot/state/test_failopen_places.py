"""The store fails; places keep their settings and questions their answers, and an admin's
change is never pretended saved."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from bot.places import Places
from bot.state import StateUnavailable, open_state
from bot.state.failopen import FailOpenState
from config import load_settings
from tests.places import at
from tests.sim.redis_server import RedisProcess

TIMEOUT = 0.5


async def test_redis_gone_keeps_the_settings_last_read_and_refuses_to_pretend_a_change(
    redis_process: RedisProcess,
) -> None:
    failures: Counter[str] = Counter()
    backend = open_state(redis_process.url, namespace="places-outage", timeout=TIMEOUT)
    async with FailOpenState(
        backend,
        timeout=TIMEOUT,
        pause=0.2,
        on_failure=lambda operation: failures.update([operation]),
    ) as state:
        places = Places(state, defaults=load_settings({}), ttl=0.0)
        await places.set(at("discord:1/2"), "enabled", "off", by="admin")
        await places.set(at("discord:1"), "daily_questions", "1", by="admin")
        assert (await places.effective("discord", "1", "2")).enabled is False

        redis_process.kill()
        # The channel an admin turned off stays off, from what this worker read last...
        here = await places.effective("discord", "1", "2")
        assert (here.enabled, here.daily_questions) == (False, 1)
        assert failures["settings"] >= 1
        # ...a place it never read has the environment's settings...
        assert (await places.effective("discord", "7")).enabled is True
        # ...and a question is not held back by a quota the store cannot count.
        assert (await places.take_question(here, "ann")).allowed
        assert (await places.take_question(here, "ann")).allowed
        assert failures["daily_quota"] >= 1

        with pytest.raises(StateUnavailable) as unavailable:
            await places.set(at("discord:1/2"), "enabled", "on", by="admin")
        assert str(unavailable.value) == "the state store failed (ConnectionError)"
        with pytest.raises(StateUnavailable):
            await places.history()
        with pytest.raises(StateUnavailable):
            await places.export()

        redis_process.start()  # empty: a SIGKILLed Redis without persistence kept nothing
        await asyncio.sleep(0.3)  # past the pause after the last failure
        await places.set(at("discord:1/2"), "enabled", "on", by="admin")
        assert [change.new for change in await places.history()] == ["on"]
        assert (await places.effective("discord", "1", "2")).enabled is True
