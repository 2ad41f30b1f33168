"""A place's daily questions, counted where the limit was set: a server's limit is shared by its
channels, a channel's own limit is its own, and a person's limit is theirs in that place."""

from __future__ import annotations

from collections.abc import Callable

from bot.places import DailyQuota, Places
from bot.state import State
from config import Settings
from tests.bot.state.conftest import shared_backends
from tests.places import at


async def ask(places: Places, channel: str, person: str, server: str = "1") -> DailyQuota:
    return await places.take_question(await places.effective("discord", server, channel), person)


async def test_with_no_limit_every_question_is_taken(state: State, environment: Settings) -> None:
    places = Places(state, defaults=environment)
    assert all([(await ask(places, "2", "u")).allowed for _ in range(50)])


async def test_a_server_s_limit_is_shared_by_its_channels(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment)
    await places.set(at("discord:1"), "daily_questions", "3", by="admin")
    taken = [(await ask(places, channel, "u")).allowed for channel in ("2", "3", "4", "2")]
    assert taken == [True, True, True, False]
    refused = await ask(places, "5", "v")
    assert (refused.allowed, refused.refused_by, refused.limit) == (False, "daily_questions", 3)
    assert 0 < refused.retry_after <= 86400
    assert (await ask(places, "2", "u", server="9")).allowed  # another server counts apart


async def test_a_channel_with_its_own_limit_counts_apart_from_its_server(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment)
    await places.set(at("discord:1"), "daily_questions", "1", by="admin")
    await places.set(at("discord:1/2"), "daily_questions", "2", by="admin")
    assert [(await ask(places, "2", "u")).allowed for _ in range(3)] == [True, True, False]
    assert (await ask(places, "3", "u")).allowed
    assert not (await ask(places, "4", "u")).allowed


async def test_a_person_s_limit_refuses_them_and_not_the_others(
    state: State, environment: Settings
) -> None:
    places = Places(state, defaults=environment)
    await places.set(at("discord:1"), "daily_questions_per_person", "2", by="admin")
    await places.set(at("discord:1"), "daily_questions", "4", by="admin")
    assert [(await ask(places, "2", "ann")).allowed for _ in range(2)] == [True, True]
    refused = await ask(places, "3", "ann")
    assert (refused.refused_by, refused.limit) == ("daily_questions_per_person", 2)
    # Ann's refused questions did not use the server's: Bob still has its last two
    assert [(await ask(places, "2", "bob")).allowed for _ in range(3)] == [True, True, False]
    assert (await ask(places, "2", "cy")).refused_by == "daily_questions"


@shared_backends
async def test_two_workers_share_one_day_s_count(
    open_states: Callable[[], State], environment: Settings
) -> None:
    one = Places(open_states(), defaults=environment)
    other = Places(open_states(), defaults=environment)
    await one.set(at("discord:1"), "daily_questions", "3", by="admin")
    taken = [(await ask(places, "2", "u")).allowed for places in (one, other, one, other)]
    assert taken == [True, True, True, False]
