"""Forgetting a person or a place, in every backend: afterwards the whole store (every Redis key,
every SQLite row, everything a memory state holds) has nothing of them, and everyone else's
things are still there."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

import pytest

from bot.state import FEEDBACK_TTL, LoggedAnswer, LoggedVote, State
from bot.state.logged import FORGOTTEN
from bot.state.names import person_questions, place_questions, place_tokens, rate_window
from bot.upstream.events import Turn

DAY = 86400.0
P, Q = "person5501", "person7702"
"""The person who asks to be forgotten, and someone else in the same channel."""
SERVER, CHANNEL, OTHER_SERVER, OTHER_CHANNEL = (
    "server3303",
    "channel4404",
    "server9909",
    "channel8808",
)

Stored = Callable[[], Awaitable[str]]


async def ask(
    state: State,
    answer_id: str,
    *,
    asker: str,
    server: str = SERVER,
    channel: str = CHANNEL,
    thread: str = "thread6606",
) -> str:
    """A question asked and answered as the service records it: the log's record, the
    conversation's memory and what belongs to whom; the answer's vote key."""
    vote_key = f"discord:message-{answer_id}"
    await state.log_answer(
        LoggedAnswer(
            id=answer_id,
            at=time.time(),
            platform="discord",
            server=server,
            channel=channel,
            asker=asker,
            language=None,
            outcome="answered",
            question=f"What does {answer_id} say?",
            vote_key=vote_key,
        ),
        retention=30 * DAY,
    )
    conversation = f"discord:{channel}:{thread}"
    await state.append(conversation, Turn("user", "What is grace?"), Turn("assistant", "A gift."))
    await state.note_belongings(
        "discord", person=asker, server=server, threads=[conversation], votes=[vote_key], ttl=DAY
    )
    return vote_key


async def vote(state: State, vote_key: str, voter: str, server: str = SERVER) -> None:
    """A vote as the service records it."""
    await state.record_feedback(vote_key, voter, "down")
    await state.log_vote(
        vote_key, LoggedVote(user=voter, value="down", at=time.time(), reason="other")
    )
    await state.note_belongings("discord", person=voter, server=server, votes=[vote_key], ttl=DAY)


async def counts(state: State, person: str, server: str = SERVER, channel: str = CHANNEL) -> None:
    """The counters a person's questions leave: their rate window, a place's and their own
    daily questions, the place's tokens."""
    place = f"discord:{server}/{channel}"
    await state.hit(rate_window("discord", person), limit=10, per_seconds=60)
    await state.take_daily({place_questions(place): 50, person_questions(place, person): 5})
    await state.add_daily({place_tokens(f"discord:{server}"): 300})


async def test_a_person_forgotten_leaves_nothing_of_theirs_and_everyone_elses_things(
    state: State, stored: Stored
) -> None:
    mine = await ask(state, "a1", asker=P)
    theirs = await ask(state, "a2", asker=Q, thread="thread7707")
    await vote(state, theirs, P)  # P's vote on Q's answer
    await vote(state, mine, Q)
    await counts(state, P)
    await counts(state, Q)
    await state.change_place_settings({f"discord:{SERVER}": {"language": "fr"}}, by=P)
    assert P in await stored()

    forgotten = await state.forget_person("discord", P)

    held = await stored()
    assert P not in held
    assert forgotten == 5  # the record, the conversation, the vote, two counters
    everyone = [
        r async for batch in state.logged_answers(since=0, until=time.time() + 1) for r in batch
    ]
    assert [(r.id, r.asker, [v.user for v in r.votes]) for r in everyone] == [("a2", Q, [])]
    assert await state.feedback(theirs) == {}
    assert await state.recent("discord:channel4404:thread6606", 10) == ()
    assert len(await state.recent("discord:channel4404:thread7707", 10)) == 2
    assert (await state.daily_counts([person_questions(f"discord:{SERVER}/{CHANNEL}", Q)])) == {
        person_questions(f"discord:{SERVER}/{CHANNEL}", Q): 1
    }
    [change] = await state.settings_history()
    assert (change.by, change.key, change.new) == (FORGOTTEN, "language", "fr")
    assert await state.place_settings([f"discord:{SERVER}"]) == {
        f"discord:{SERVER}": {"language": "fr"}
    }
    # the same id on another platform is someone else
    assert await state.forget_person("slack", Q) == 0
    assert Q in await stored()


async def test_a_place_forgotten_leaves_nothing_of_it_and_other_places_things(
    state: State, stored: Stored
) -> None:
    here = await ask(state, "a1", asker=P)
    there = await ask(state, "b1", asker=Q, server=OTHER_SERVER, channel=OTHER_CHANNEL)
    await vote(state, here, Q)
    await vote(state, there, P, server=OTHER_SERVER)
    await counts(state, P)
    await counts(state, Q, server=OTHER_SERVER, channel=OTHER_CHANNEL)
    await state.change_place_settings(
        {
            f"discord:{SERVER}": {"language": "fr", "daily_tokens": "5000"},
            f"discord:{SERVER}/{CHANNEL}": {"enabled": "off"},
            f"discord:{OTHER_SERVER}": {"language": "de"},
        },
        by="admin1",
    )

    forgotten = await state.forget_place("discord", SERVER)

    held = await stored()
    assert SERVER not in held
    assert CHANNEL not in held
    assert forgotten >= 8
    assert OTHER_SERVER in held
    assert OTHER_CHANNEL in held
    assert await state.every_place_settings() == {f"discord:{OTHER_SERVER}": {"language": "de"}}
    assert [c.place for c in await state.settings_history()] == [f"discord:{OTHER_SERVER}"]
    everyone = [
        r async for batch in state.logged_answers(since=0, until=time.time() + 1) for r in batch
    ]
    assert [r.id for r in everyone] == ["b1"]
    assert await state.feedback(here) == {}
    assert await state.feedback(there) == {P: "down"}
    assert len(await state.recent(f"discord:{OTHER_CHANNEL}:thread6606", 10)) == 2
    # the people of the place are still themselves elsewhere: P's rate window is theirs
    assert P in held


@pytest.mark.parametrize("state_url", ["memory", "sqlite", "redis"], indirect=True)
async def test_forgetting_an_unknown_person_or_place_deletes_nothing(state: State) -> None:
    assert await state.forget_person("discord", "nobody") == 0
    assert await state.forget_place("discord", "nowhere") == 0
    assert FEEDBACK_TTL > 0


@pytest.mark.parametrize("state_url", ["memory", "sqlite", "redis"], indirect=True)
async def test_a_reply_chains_notes_go_with_their_asker_and_with_their_place(
    state: State, stored: Stored
) -> None:
    """Telegram's notes of which conversation each posted message is in (the kit's
    ``thread-of:`` cache entries) are found by a forget-me and by the place's removal."""
    for message, person, server in (
        ("-1003303:41", P, SERVER),
        ("-1003303:42", Q, SERVER),
        ("-1009909:43", P, OTHER_SERVER),
    ):
        key = f"thread-of:telegram:{message}"
        await state.cache(key, "40", ttl=DAY)
        await state.note_belongings("telegram", person=person, server=server, notes=[key], ttl=DAY)

    assert await state.forget_person("telegram", P) == 2
    assert "-1003303:41" not in await stored()
    assert "-1009909:43" not in await stored()
    assert await state.cached("thread-of:telegram:-1003303:42") == "40"

    assert await state.forget_place("telegram", SERVER) == 1
    assert await state.cached("thread-of:telegram:-1003303:42") is None
    assert "thread-of" not in await stored()
