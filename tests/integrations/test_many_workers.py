"""Many workers, no hand configuration: real ``citebot run`` processes on one real Redis.

Every worker gets the same settings (``STATE_URL=redis://…`` and the platform tokens; nothing
per worker). Their clocks run at ``fast_worker.SCALE`` (leases of 2 s, not 10 s), and the
Discord simulator enforces Discord's identify limit at the same scale.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from bot.i18n.wording import Wording
from tests.integrations.many_workers import INTERRUPTED, fleet, until
from tests.sim.upstream import Gate, Stream, UpstreamSim, answer, chunk

FIRST, REST = "First half of the answer. ", "Second half, after the gate."
SHARDS = 4


def gated() -> UpstreamSim:
    """Every answer shows its first half, then waits for the test to release the rest."""
    return UpstreamSim(default=answer([FIRST, REST], between=[Gate()]))


def whole(text: str) -> bool:
    return text.startswith(FIRST.strip()) and REST in text and INTERRUPTED not in text


async def test_a_killed_workers_shards_move_and_its_answers_end_with_the_note(
    fresh_redis: str,
) -> None:
    upstream = gated()
    async with fleet(fresh_redis, upstream, shards=SHARDS, max_concurrency=2) as world:
        guilds = [world.discord.add_guild(f"parish-{n}") for n in range(SHARDS)]
        workers = await world.start(3)
        await world.slack.wait_connections(3)
        await world.shared_by(fresh_redis, 3)
        started = world.identified()
        assert set(started) == set(range(SHARDS))

        for n, channel in enumerate(guilds):  # one question in each shard
            await world.ask_discord(f"Discord question {n}?", channel.id)
        for n in range(6):  # Slack hands each event to one connection, in turn
            await world.ask_slack(f"Slack question {n}?", f"C{n}")
        questions = len(world.asked) + len(world.mentioned)
        await until(lambda: len(upstream.requests) == questions)
        await until(
            lambda: (
                all(world.discord_messages(q)[0].content for q in world.asked)
                and all(world.slack_messages(q) for q in world.mentioned)
            ),
        )

        connections = world.slack.connections
        victim = workers[1]
        killed_at = await world.kill(victim)
        await until(lambda: world.shards_closed_since(killed_at))
        moved = world.shards_closed_since(killed_at)
        (dead_connection,) = connections - world.slack.connections
        orphans = [
            *(
                question
                for question, interaction in world.asked.items()
                if world.discord.shard_of(interaction.channel.guild_id) in moved
            ),
            *(q for q in world.mentioned if world.slack_connection(q) == dead_connection),
        ]
        await world.discord.wait_shards()  # its shards run again, in the others

        def last_words(question: str) -> str:
            if question in world.asked:
                return world.discord_messages(question)[-1].content
            return world.slack_messages(question)[-1].shown

        def noted() -> bool:
            return all(INTERRUPTED in last_words(q) for q in orphans)

        await until(noted)
        upstream.release()
        await until(
            lambda: (
                all(
                    whole(world.discord_messages(q)[0].content)
                    for q in world.asked
                    if q not in orphans
                )
                and all(
                    whole(world.slack_messages(q)[0].shown)
                    for q in world.mentioned
                    if q not in orphans
                )
            ),
        )
        identified = world.identified()  # before the survivors stop, and hand over in turn
        codes = [await world.stop(worker) for worker in workers if worker is not victim]
        logs = [worker.text() for worker in workers]

    assert moved
    assert any(q.startswith("Slack") for q in orphans)
    # The wire: once shared, only the dead worker's shards identified again, once each; never
    # two at once, never faster than Discord's max_concurrency allows.
    assert identified - started == Counter(moved)
    assert world.discord.identify_refusals == []
    assert world.overlaps() == []
    assert [r for r in world.discord.requests if r.status == 429] == []
    assert world.slack.ratelimited == {}
    # What people see: every question answered once; the dead worker's half-answers end with
    # the note, nothing left streaming.
    assert len(upstream.requests) == questions
    assert all(len(interaction.acks) == 1 for interaction in world.asked.values())
    for question in world.asked:
        shown = [m.content for m in world.discord_messages(question)]
        if question in orphans:
            assert shown[0].startswith(FIRST.strip())
            assert INTERRUPTED in shown[-1]
        else:
            assert len(shown) == 1
            assert whole(shown[0])
    for question in world.mentioned:
        replies = world.slack_messages(question)
        assert not any(reply.streaming for reply in replies)
        if question in orphans:  # in a channel: posted and edited, then the note as a reply
            assert replies[0].shown.startswith(FIRST.strip())
            assert INTERRUPTED in replies[-1].shown
        else:
            [reply] = replies
            assert whole(reply.shown)
    assert codes == [0, 0]
    tokens = [i.token for i in world.asked.values()]
    assert not any(token in log for token in tokens for log in logs)


async def test_workers_share_the_shards_as_they_join_and_leave(fresh_redis: str) -> None:
    """One worker runs every shard; a second takes half at its next look; when the first
    stops (SIGTERM) it lets its shards go at once, and the second runs them all."""
    upstream = gated()  # every shard may identify at once: the buckets are the other test's
    async with fleet(fresh_redis, upstream, shards=SHARDS, max_concurrency=SHARDS) as world:
        (first,) = await world.start(1)
        await world.discord.wait_shards()
        alone = world.identified()
        (second,) = await world.start(1)
        await until(lambda: world.identified().total() >= SHARDS + SHARDS // 2)
        await world.discord.wait_shards()
        joined = world.identified() - alone
        stopped_at = time.monotonic()
        assert await world.stop(first) == 0
        assert await world.held_by_the_gone(fresh_redis) == []  # it let go before it left
        await until(lambda: world.identified().total() >= 2 * SHARDS)
        await world.discord.wait_shards()
        left = world.identified() - alone - joined
        handed_over = world.shards_closed_since(stopped_at)
        assert await world.stop(second) == 0
    assert alone == dict.fromkeys(range(SHARDS), 1)
    assert joined.total() == SHARDS // 2  # half the shards moved to the newcomer
    assert left.total() == SHARDS // 2  # the other half, when the first worker stopped
    assert set(joined) | set(left) == set(range(SHARDS))
    assert world.identified().total() == 2 * SHARDS  # and no shard moved twice
    assert handed_over == set(left)
    assert world.discord.identify_refusals == []
    assert world.overlaps() == []


async def test_a_slack_answer_killed_before_its_first_words_is_not_left_thinking(
    fresh_redis: str,
) -> None:
    """In a channel the thread shows citebot's "is thinking…" status until its first words,
    and no message; a worker SIGKILLed before them leaves that status for another worker,
    whose reply says citebot restarted (and, being a reply, clears the status): not
    "thinking" for good, with no "interrupted" note."""
    before_any_text = Stream((Gate(), chunk("Too late."), chunk(finish_reason="stop")))
    upstream = UpstreamSim(default=before_any_text)
    async with fleet(fresh_redis, upstream, shards=1, max_concurrency=1) as world:
        (first,) = await world.start(1)
        await world.slack.wait_connections(1)
        await world.ask_slack("What is hope?", "C0GENERAL")
        thread = world.mentioned["What is hope?"].ts
        await until(lambda: len(upstream.requests) == 1)
        assert world.slack_messages("What is hope?") == []
        assert world.slack.statuses("C0GENERAL", thread) == ["is thinking…"]
        await world.start(1)
        await world.slack.wait_connections(2)
        await world.kill(first)
        await until(lambda: world.slack_messages("What is hope?"))
        await asyncio.sleep(1.0)  # a second closing note, had one come, would be here by now
        shown = [m.shown for m in world.slack_messages("What is hope?")]
        statuses = world.slack.statuses("C0GENERAL", thread)
    assert shown == [Wording(platform="slack").restarting()]
    assert INTERRUPTED not in " ".join(shown)
    assert statuses[-1] == ""
