"""Talking to citebot the way people talk (issue 26), end to end against the simulated Slack:
a reply in citebot's thread needs no mention where the channel's ``follow_ups_without_mention``
is on (its default), and a new post in a channel whose ``auto_answer`` is on is answered in its
thread. Bots, edits and messages that mention someone else are never questions."""

from __future__ import annotations

from pathlib import Path

from tests.integrations.slack.conftest import World, operated
from tests.places import at
from tests.sim.upstream import answer

CHANNEL, PRIVATE = "C0GENERAL", "G0PRIVATE"


async def _mentioned(world: World, channel: str = CHANNEL) -> str:
    """A person asks citebot with a mention; once answered, the thread's ts."""
    asked = await world.sim.mention(channel, "What is grace?")
    await world.answered(channel, asked.ts, requests=len(world.upstream.requests) + 1)
    return asked.ts


async def test_a_reply_in_citebots_thread_is_a_follow_up_without_a_mention(world: World) -> None:
    world.upstream.queue(answer(["Grace is a gift."]), answer(["It heals and elevates."]))
    thread = await _mentioned(world)
    reply = await world.sim.say(CHANNEL, "And what does it do?", thread_ts=thread)
    await world.answered(CHANNEL, thread, requests=2)

    [_, second] = world.answer_of(CHANNEL, thread)
    assert second.shown == "It heals and elevates."
    assert world.sim.statuses(CHANNEL, thread).count("is thinking…") == 2
    asked = world.upstream.questions[1]
    assert asked[-1] == {"role": "user", "content": "And what does it do?"}
    assert {"role": "assistant", "content": "Grace is a gift."} in asked  # the thread as context
    assert reply.envelope_ids  # it came as a message event, no mention


async def test_in_a_private_channel_too(world: World) -> None:
    world.upstream.queue(answer(["Grace is a gift."]), answer(["It heals."]))
    thread = await _mentioned(world, PRIVATE)
    await world.sim.say(PRIVATE, "And then?", thread_ts=thread)
    await world.answered(PRIVATE, thread, requests=2)
    assert world.answer_of(PRIVATE, thread)[-1].shown == "It heals."


async def test_bots_edits_and_messages_to_someone_else_are_not_questions(world: World) -> None:
    world.upstream.queue(answer(["Grace is a gift."]), answer(["Yes."]))
    thread = await _mentioned(world)
    ignored = [
        await world.sim.say(CHANNEL, "<@U0BOB> what do you think?", thread_ts=thread),
        await world.sim.say(CHANNEL, "<!here> read this", thread_ts=thread),
        await world.sim.other_bot(CHANNEL, "A digest", thread_ts=thread),
    ]
    ignored.append(await world.sim.edit(ignored[0], "<@U0BOB> what do you think now?"))
    for delivery in ignored:
        await world.sim.acked(delivery)
    await world.sim.say(CHANNEL, "Is it for everyone?", thread_ts=thread)
    await world.answered(CHANNEL, thread, requests=2)
    assert [q[-1]["content"] for q in world.upstream.questions] == [
        "What is grace?",
        "Is it for everyone?",
    ]


async def test_a_thread_someone_else_started_stays_theirs(world: World) -> None:
    """citebot answered a mention deep in a people's thread: their next replies are theirs."""
    world.upstream.queue(answer(["Grace is a gift."]))
    root = await world.sim.say(CHANNEL, "Shall we meet on Sunday?")
    await world.sim.say(CHANNEL, "Yes, after Mass.", thread_ts=root.ts)
    asked = await world.sim.mention(CHANNEL, "what is grace?", thread_ts=root.ts)
    await world.answered(CHANNEL, root.ts)
    later = await world.sim.say(CHANNEL, "See you there.", thread_ts=root.ts)
    await world.sim.acked(later)
    await world.sim.wait_for(lambda: not world.busy())
    assert len(world.upstream.requests) == 1
    assert asked.thread_ts == root.ts
    assert [m.shown for m in world.answer_of(CHANNEL, root.ts)] == ["Grace is a gift."]


async def test_not_where_the_channel_turned_follow_ups_without_a_mention_off(
    tmp_path: Path,
) -> None:
    async with operated(tmp_path) as (world, places, workspace):
        await places.set(at(f"{workspace}/{CHANNEL}"), "follow_ups_without_mention", "off", by="op")
        world.upstream.queue(answer(["Grace is a gift."]), answer(["It heals."]))
        thread = await _mentioned(world)
        reply = await world.sim.say(CHANNEL, "And what does it do?", thread_ts=thread)
        await world.sim.acked(reply)
        await world.sim.wait_for(lambda: not world.busy())
        assert len(world.upstream.requests) == 1
        again = await world.sim.mention(CHANNEL, "and what does it do?", thread_ts=thread)
        await world.answered(CHANNEL, thread, requests=2)  # a mention still asks
    assert again.thread_ts == thread
    assert world.answer_of(CHANNEL, thread)[-1].shown == "It heals."


async def test_a_channel_that_auto_answers_answers_each_new_post_in_its_thread(
    tmp_path: Path,
) -> None:
    async with operated(tmp_path) as (world, places, workspace):
        await places.set(at(f"{workspace}/{CHANNEL}"), "auto_answer", "on", by="op")
        world.upstream.queue(answer(["Grace is a gift."]))
        post = await world.sim.say(CHANNEL, "What is grace?")
        await world.answered(CHANNEL, post.ts)
        elsewhere = await world.sim.say("C0RANDOM", "What is grace?")
        to_bob = await world.sim.say(CHANNEL, "<@U0BOB> lunch?")
        for delivery in (elsewhere, to_bob):
            await world.sim.acked(delivery)
        await world.sim.wait_for(lambda: not world.busy())
    [answered] = world.answer_of(CHANNEL, post.ts)
    assert answered.thread_ts == post.ts
    assert answered.shown == "Grace is a gift."
    assert world.sim.bot_replies("C0RANDOM", elsewhere.ts) == []
    assert world.sim.bot_replies(CHANNEL, to_bob.ts) == []
    assert len(world.upstream.requests) == 1
