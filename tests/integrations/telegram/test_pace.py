"""Telegram's message pace (about one message a second in a chat, 20 a minute in a group) kept
by every answer of a chat together: no 429 where the simulator enforces it, and a 429 that still
comes honoured (its retry_after waited out by a write that must land, a skippable edit
dropped), counted on the worker's metrics."""

from __future__ import annotations

from integrations.telegram.pace import Pace
from tests.integrations.telegram.world import CITED, World, telegram_world
from tests.sim.telegram import RateLimits, TelegramSim
from tests.sim.upstream import Pause, answer

SCALED = RateLimits(per_chat=(1, 0.25), per_group=(20, 15.0), overall=(30, 0.25))
"""Telegram's limits, the windows a quarter as long (the group's minute, 15 s)."""


def four_two_nine(world: World) -> float | None:
    """The 429s the worker counted on /metrics."""
    return world.service.metrics.registry.get_sample_value(
        "citebot_platform_rate_limited_total", {"platform": "telegram"}
    )


async def test_a_429_on_the_cards_is_waited_out_and_they_land(world: World) -> None:
    world.upstream.queue(CITED)
    world.tg.rate_limit_next("sendRichMessage", 1)
    group = await world.group()
    await world.tg.user_says(world.person("Alice"), group, "/ask@citebot Why?")
    await world.answered()

    refused, sent = world.tg.requests_to("sendRichMessage")
    assert (refused.status, sent.status) == (429, 200)
    assert sent.at - refused.at >= 1.0
    assert "Human life is sacred" in world.tg.bot_messages(group)[-1].rich_text
    assert four_two_nine(world) == 1


async def test_an_edit_telegram_asks_to_wait_for_is_dropped_and_the_answer_still_ends_whole(
    world: World,
) -> None:
    world.upstream.queue(answer(["One", " two", " three."], between=[Pause(0.2)]))
    world.tg.rate_limit_next("editMessageText", 1)
    group = await world.group()
    asked = await world.tg.user_says(world.person("Alice"), group, "/ask@citebot Count?")
    await world.answered()

    [shown] = world.answer_to(asked)
    assert shown.readable == "One two three."
    edits = world.tg.requests_to("editMessageText")
    assert edits[0].status == 429
    assert edits[-1].at - edits[0].at >= 1.0  # nothing was written in the chat meanwhile
    assert four_two_nine(world) == 1


async def test_answers_at_once_in_one_group_keep_telegrams_pace() -> None:
    """Three questions at once, answers streaming with pauses: the simulator refuses anything
    over Telegram's pace (at a quarter of its windows), and citebot's budget, given the same
    windows, never meets a refusal."""
    pace = Pace(chat=SCALED.per_chat, group=SCALED.per_group, bot=SCALED.overall)
    async with (
        TelegramSim(rate_limits=SCALED) as tg,
        telegram_world(tg=tg, pace=pace) as world,
    ):
        world.upstream.default = answer(["Grace", " builds", " on nature."], between=[Pause(0.3)])
        group = await world.group()
        people = [world.person(name) for name in ("Alice", "Bob", "Carol")]
        asked = [
            await tg.user_says(person, group, f"/ask@citebot Question {n}?")
            for n, person in enumerate(people)
        ]
        await world.answered(3)

        assert [r.method for r in tg.requests if r.status == 429] == []
        for question in asked:
            assert [m.readable for m in world.answer_to(question)] == ["Grace builds on nature."]
        assert not four_two_nine(world)
