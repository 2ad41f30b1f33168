"""Slack's rate tiers: the simulator refuses like Slack, and a busy channel never meets a 429.

Windows are scaled down (``time_scale``) in the simulator and in the worker's budget alike, so
a minute of Slack passes in a few seconds; the full-size run is ``bench/bench_rate_limits.py``.
"""

from __future__ import annotations

from collections.abc import Awaitable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.budgets import WriteBudget
from integrations.slack.wire import SLACK_LIMITS
from tests.integrations.slack.conftest import slack_settings, worker_on
from tests.sim.slack import SlackSim
from tests.sim.slack.tiers import Tier
from tests.sim.upstream import Pause, Stream, UpstreamSim, answer, magisterium_citation

CHANNEL = "C0ASK"
SCALE = 0.05  # a 60-second window lasts 3 s


async def _refused(call: Awaitable[object]) -> SlackApiError:
    try:
        await call
    except SlackApiError as error:
        return error
    raise AssertionError("Slack accepted a call over its tier")


async def test_a_method_over_its_tier_is_refused_with_retry_after() -> None:
    async with SlackSim(tiers={"auth.test": Tier(2)}) as sim:
        web = AsyncWebClient(token=sim.bot_token, base_url=sim.base_url)
        await web.auth_test()
        await web.auth_test()
        refused = await _refused(web.auth_test())
        assert refused.response.status_code == 429
        assert refused.response["error"] == "ratelimited"
        assert 59 <= int(refused.response.headers["Retry-After"]) <= 60
        assert sim.ratelimited == {"auth.test": 1}


async def test_post_message_is_counted_per_channel_and_enforcement_can_be_off() -> None:
    async with SlackSim() as sim, SlackSim(enforce_tiers=False) as unlimited:
        for each in (sim, unlimited):
            each.workspace.add_channel("C1", "channel")
            each.workspace.add_channel("C2", "channel")
            web = AsyncWebClient(token=each.bot_token, base_url=each.base_url)
            for _ in range(3):
                await web.chat_postMessage(channel="C1", text="burst")
            await web.chat_postMessage(channel="C2", text="another channel")
            if each is sim:
                refused = await _refused(web.chat_postMessage(channel="C1", text="too soon"))
                assert refused.response.headers["Retry-After"] in ("1", "2", "3")
            else:
                await web.chat_postMessage(channel="C1", text="no limits")
        assert sim.ratelimited == {"chat.postMessage": 1}
        assert unlimited.ratelimited == {}


def _long_answer(n: int) -> Stream:
    pieces = [f"Answer {n:02d} sentence {i} says something careful. " for i in range(12)]
    pieces[-1] += "[^1]"
    cite = magisterium_citation(0, f"Passage cited by answer {n}.", title=f"Source {n}")
    return answer(pieces, [cite], between=[Pause(0.1)])


async def test_thirty_answers_at_once_in_one_channel_meet_no_429_and_lose_nothing() -> None:
    answers = 30  # more than chat.startStream's 20 a minute: some answers post and edit
    async with SlackSim(time_scale=SCALE) as sim, UpstreamSim().running() as upstream:
        for n in range(answers):
            upstream.queue(_long_answer(n))
        settings = slack_settings(sim, upstream, MAX_IN_FLIGHT="40")
        async with worker_on(
            sim, upstream, settings, budget=WriteBudget(SLACK_LIMITS, time_scale=SCALE)
        ) as world:
            asked = [
                await sim.mention(CHANNEL, f"Question {n}?", user=f"U{n:04d}")
                for n in range(answers)
            ]
            await sim.wait_for(
                lambda: len(upstream.requests) >= answers and not world.busy(), within=60
            )
        assert sim.ratelimited == {}
        served = sorted(
            int(m.shown.split()[1]) for q in asked for m in world.answer_of(CHANNEL, q.ts)
        )
        assert served == list(range(answers))
        for question in asked:
            [shown] = world.answer_of(CHANNEL, question.ts)
            n = int(shown.shown.split()[1])
            assert shown.shown.count("says something careful") == 12
            assert "sentence 11 says something careful" in shown.shown
            assert not shown.streaming
            cards = "\n".join(m.block_text() for m in world.cards_of(CHANNEL, question.ts))
            assert f"Passage cited by answer {n}." in cards
        posted = [q for q in asked if not world.answer_of(CHANNEL, q.ts)[0].streamed]
        assert posted  # past chat.startStream's quota, answers were posted and edited
