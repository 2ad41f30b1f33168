"""Talking to citebot in its threads as people talk: with the Message Content intent
(``DISCORD_MESSAGE_CONTENT=on``) a reply in a thread citebot opened is a follow-up without a
mention, where the place's ``follow_ups_without_mention`` is on; a new forum post is answered
in it where the forum's ``auto_answer`` is on. Bots, edits and messages to someone else are
not questions; without the intent, only mentions are."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.integrations.discord.harness import Harness, running_harness
from tests.places import at
from tests.sim.discord import DiscordSim, SimChannel
from tests.sim.discord.model import SimUser
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

INTENT = {"DISCORD_MESSAGE_CONTENT": "on"}
FIRST = answer(
    ["Grace is a gift of God[^1]."],
    [magisterium_citation(0, "Grace is favor.", url="https://example.org/ccc/1996")],
)


@pytest.fixture
async def listening(sim: DiscordSim, upstream: UpstreamSim) -> AsyncIterator[Harness]:
    async with running_harness(sim, upstream, env=INTENT) as running:
        yield running


async def started_thread(harness: Harness) -> SimChannel:
    harness.upstream.queue(FIRST)
    message = await harness.ask("What is grace?")
    thread = harness.sim.thread_of(message.id)
    assert thread is not None
    return thread


def bot_replies(harness: Harness, thread: SimChannel) -> list[str]:
    return [m.content for m in thread.messages if m.author.id == harness.sim.bot.id and m.content]


async def test_a_reply_in_citebots_thread_is_a_follow_up_without_a_mention(
    listening: Harness,
) -> None:
    thread = await started_thread(listening)
    assert listening.sim.identifies[0]["intents"] & (1 << 15)
    listening.upstream.queue(answer(["Yes: it grows with charity."]))
    reply = await listening.sim.user_message(thread.id, "Can it grow?")
    await listening.answers(2)
    assert [text for text in bot_replies(listening, thread) if "it grows" in text] == [
        "Yes: it grows with charity."
    ]
    assert listening.upstream.questions[1][-1] == {"role": "user", "content": "Can it grow?"}
    assert listening.upstream.questions[1][0]["content"] == "What is grace?"
    created = listening.sim.requests_to("POST /channels/{channel_id}/messages")
    assert created[-1].json["message_reference"]["message_id"] == str(reply.id)


async def test_no_follow_up_where_the_place_turned_it_off(
    listening: Harness, sim: DiscordSim
) -> None:
    thread = await started_thread(listening)
    await listening.service.places.set(
        at(f"discord:{sim.guild_id}/{sim.text.id}"), "follow_ups_without_mention", "off", by="admin"
    )
    await sim.user_message(thread.id, "Can it grow?")
    listening.upstream.queue(answer(["Only when asked by name."]))
    await sim.user_message(thread.id, f"<@{sim.bot.id}> can it grow?", mentions=[sim.bot.id])
    await listening.answers(2)
    assert [q[-1]["content"] for q in listening.upstream.questions] == [
        "What is grace?",
        "can it grow?",
    ]


async def test_bots_edits_and_words_to_someone_else_are_not_questions(
    listening: Harness, sim: DiscordSim
) -> None:
    thread = await started_thread(listening)
    other_bot = SimUser(id=sim.ids(), name="helper", bot=True)
    sim.users[other_bot.id] = other_bot
    ada = sim.admin.id
    first = await sim.user_message(thread.id, f"<@{ada}> what do you think?", mentions=[ada])
    await sim.user_message(thread.id, "I agree with you.", reply_to=first, user_id=ada)
    await sim.user_message(thread.id, "Beep: a bot's message.", user_id=other_bot.id)
    await sim.user_edit(first, "Does grace grow?")
    listening.upstream.queue(answer(["It does."]))
    await sim.user_message(thread.id, "Does it last?")
    await listening.answers(2)
    assert [q[-1]["content"] for q in listening.upstream.questions] == [
        "What is grace?",
        "Does it last?",
    ]


async def test_a_reply_to_citebot_itself_is_a_follow_up(
    listening: Harness, sim: DiscordSim
) -> None:
    thread = await started_thread(listening)
    [cards, *_] = [m for m in thread.messages if m.author.id == sim.bot.id]
    listening.upstream.queue(answer(["That is paragraph 1996."]))
    await sim.user_message(thread.id, "Which paragraph is that?", reply_to=cards)
    await listening.answers(2)
    assert listening.upstream.questions[1][-1]["content"] == "Which paragraph is that?"


async def test_without_the_intent_only_a_mention_is_a_follow_up(
    harness: Harness, sim: DiscordSim
) -> None:
    thread = await started_thread(harness)
    assert not harness.sim.identifies[0]["intents"] & (1 << 15)
    await sim.user_message(thread.id, "Can it grow?")  # its text never reaches the bot
    harness.upstream.queue(answer(["Yes."]))
    await sim.user_message(thread.id, f"<@{sim.bot.id}> can it grow?", mentions=[sim.bot.id])
    await harness.answers(2)
    assert len(harness.upstream.requests) == 2


async def test_a_new_forum_post_is_answered_in_it_where_the_forum_asks(
    listening: Harness, sim: DiscordSim
) -> None:
    await listening.service.places.set(
        at(f"discord:{sim.guild_id}/{sim.forum.id}"), "auto_answer", "on", by="admin"
    )
    listening.upstream.queue(FIRST, answer(["Through the sacraments."]))
    post = await sim.start_forum_post("Is grace earned?", "I read that it is earned by works.")
    await listening.answers(1)
    assert listening.upstream.questions[0][-1]["content"] == (
        "Is grace earned?\n\nI read that it is earned by works."
    )
    replies = [m for m in post.messages if m.author.id == sim.bot.id]
    assert replies[0].content.startswith("Grace is a gift of God")
    assert replies[1].embeds[0]["title"]  # the cards follow in the post
    assert not listening.sim.requests_to(
        "POST /channels/{channel_id}/messages/{message_id}/threads"
    )

    await sim.user_message(post.id, "Someone else's thoughts.", user_id=sim.admin.id)
    await sim.user_message(post.id, "How is it received?")  # the poster's own follow-up
    await listening.answers(2)
    assert listening.upstream.questions[1][-1]["content"] == "How is it received?"
    assert len(listening.upstream.requests) == 2


async def test_a_forum_post_is_left_to_people_where_the_forum_does_not_ask(
    listening: Harness, sim: DiscordSim
) -> None:
    await sim.start_forum_post("Is grace earned?", "I read that it is earned by works.")
    listening.upstream.queue(FIRST)
    await listening.ask("What is grace?")  # a question after it, so the post had its turn
    assert [q[-1]["content"] for q in listening.upstream.questions] == ["What is grace?"]


async def test_the_worker_says_in_one_line_when_discord_refuses_the_intent(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    sim.message_content_allowed = False  # not switched on in the Developer Portal
    with pytest.raises(RuntimeError) as refused:
        async with running_harness(sim, upstream, env=INTENT):
            pass
    assert str(refused.value).startswith(
        "DISCORD_MESSAGE_CONTENT=on, but Discord refused the Message Content intent"
    )
