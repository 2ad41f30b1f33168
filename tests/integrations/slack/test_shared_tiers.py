"""Several workers on one workspace keep Slack's tiers together, through Redis.

Three Slack workers (each its own budget, its own Socket Mode connection; Slack hands each event
to one) answer a burst of questions in one channel. With their budgets shared through Redis no
call meets a 429; each alone, they spend the tiers several times over. Windows are scaled as in
test_rate_limits.py (a minute lasts 3 s, in the simulator and in the budgets alike).
"""

from __future__ import annotations

from contextlib import AsyncExitStack
from uuid import uuid4

import pytest
from pydantic import SecretStr

from bot.budgets import WriteBudget
from bot.state.coordination import open_coordination, scope_of
from bot.upstream.client import AnswerClient, RetryPolicy
from integrations.slack.wire import SLACK_LIMITS
from tests.integrations.slack.conftest import World, running_slack, slack_settings
from tests.sim.slack import SlackSim
from tests.sim.upstream import Pause, Stream, UpstreamSim, answer

CHANNEL = "C0ASK"
SCALE = 0.05
WORKERS = 3
ANSWERS = 30
MARGIN = 1.0


def _answer(n: int) -> Stream:
    return answer(
        [f"Answer {n:02d} sentence {i} says something careful. " for i in range(8)],
        between=[Pause(0.1)],
    )


@pytest.mark.parametrize("shared", [True, False], ids=["shared through Redis", "each alone"])
async def test_three_workers_keep_every_tier_together(redis_url: str, shared: bool) -> None:
    namespace = f"test-{uuid4().hex}"
    async with SlackSim(time_scale=SCALE) as sim, UpstreamSim().running() as upstream:
        for n in range(ANSWERS):
            upstream.queue(_answer(n))
        settings = slack_settings(sim, upstream, MAX_IN_FLIGHT="40")
        async with AsyncExitStack() as stack:
            client = await stack.enter_async_context(
                AnswerClient(
                    base_url=upstream.base_url,
                    api_key=SecretStr("sk-test"),
                    model="magisterium-1",
                    retry=RetryPolicy(max_retries=0),
                )
            )
            for _ in range(WORKERS):
                coordination = open_coordination(redis_url, namespace=namespace)
                assert coordination is not None
                stack.push_async_callback(coordination.aclose)
                budget = WriteBudget(
                    SLACK_LIMITS,
                    time_scale=SCALE,
                    # a window shrunk twentyfold keeps its margin in seconds: a call reserved
                    # in time may still land up to a second late on a loaded CI machine
                    margin=MARGIN,
                    coordination=coordination if shared else None,
                    scope=f"slack:{scope_of(sim.bot_token)}",
                )
                await stack.enter_async_context(running_slack(settings, client, budget=budget))
            await sim.wait_connections(WORKERS)
            world = World(sim=sim, upstream=upstream, settings=settings, client=client)
            asked = [
                await sim.mention(CHANNEL, f"Question {n}?", user=f"U{n:04d}")
                for n in range(ANSWERS)
            ]
            await sim.wait_for(
                lambda: len(upstream.requests) >= ANSWERS and not world.busy(), within=90
            )
        answered = sorted(
            int(m.shown.split()[1]) for q in asked for m in world.answer_of(CHANNEL, q.ts)
        )
    assert answered == list(range(ANSWERS))  # every question answered, once, whole
    for question in asked:
        [shown] = world.answer_of(CHANNEL, question.ts)
        assert "sentence 7 says something careful" in shown.shown
        assert not shown.streaming
    assert {c.args.get("channel") for c in sim.calls_to("chat.postMessage")} == {CHANNEL}
    if shared:
        assert sim.ratelimited == {}
    else:  # the three budgets each spent the workspace's tiers
        assert sum(sim.ratelimited.values()) > 0
