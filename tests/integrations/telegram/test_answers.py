"""Questions answered where they were asked, as a person in Telegram sees them: a private
chat's answer streams into a draft and ends as a message with linked footnotes, its cards a
rich message replying to it; a group's answer is a message edited in place, replying to the
question. The real aiogram client runs the worker against the simulated Telegram."""

from __future__ import annotations

import asyncio

import pytest

from integrations.telegram import sink as sink_module
from tests.integrations.telegram.world import CITED, World
from tests.sim.upstream import Gate, Pause, answer, magisterium_citation

FOOTNOTE = "[¹](https://example.org/doc/1)"


async def test_a_private_question_streams_into_a_draft_and_ends_as_a_message_with_its_cards(
    world: World,
) -> None:
    world.upstream.queue(CITED)
    alice = world.person("Alice")
    chat = world.tg.private_chat(alice)
    await world.tg.user_says(alice, chat, "Why is life sacred?")
    await world.answered()

    [draft] = world.tg.drafts_in(chat)
    answer_message, cards = world.tg.bot_messages(chat)
    assert draft.finished_by is answer_message
    assert draft.history[0] == ""  # Telegram's own "Thinking…" while the answer was asked
    assert answer_message.readable == f"Life is sacred from conception to natural death{FOOTNOTE}."
    assert answer_message.buttons == [("👍", "fb:up"), ("👎", "fb:down")]
    assert cards.reply_to is answer_message
    assert cards.rich is not None
    assert "Human life is sacred 'from its beginning'." in cards.rich_text
    assert "Cherishing Life" in cards.rich_text
    assert cards.buttons == [
        ("What does the Catechism say about it?", "rq:0"),
        ("Why is life sacred?", "rq:1"),
    ]
    assert world.tg.pinged() == []
    assert world.upstream.questions[0][-1] == {"role": "user", "content": "Why is life sacred?"}


async def test_ask_in_a_group_is_answered_in_place_with_its_cards_replying_to_the_answer(
    world: World,
) -> None:
    world.upstream.queue(CITED)
    group = await world.group()
    alice = world.person("Alice")
    asked = await world.tg.user_says(alice, group, "/ask@citebot Why is life sacred?")
    await world.answered()

    [answer_message] = world.answer_to(asked)
    assert answer_message.readable == f"Life is sacred from conception to natural death{FOOTNOTE}."
    assert answer_message.edits, "streamed into the message by editing it"
    [cards] = [m for m in world.tg.bot_messages(group) if m.reply_to is answer_message]
    assert "Human life is sacred 'from its beginning'." in cards.rich_text
    assert world.tg.drafts_in(group) == []
    assert world.upstream.questions[0][-1] == {"role": "user", "content": "Why is life sacred?"}


async def test_a_mention_is_answered_where_telegram_delivers_it(world: World) -> None:
    """Privacy mode keeps plain mentions from a bot (and docs/telegram.md says so); a bot that
    is a group's admin gets every message: it answers a mention and lets the chatter be."""
    world.upstream.queue(CITED)
    group = await world.group("Study group", admin=True)
    alice = world.person("Alice")
    await world.tg.user_says(alice, group, "Good morning, everyone!")
    asked = await world.tg.user_says(alice, group, "@citebot why is life sacred?")
    await world.answered()

    assert len(world.upstream.requests) == 1
    assert world.upstream.questions[0][-1] == {"role": "user", "content": "why is life sacred?"}
    [answer_message] = world.answer_to(asked)
    assert answer_message.readable.startswith("Life is sacred from conception")


async def test_a_plain_mention_does_not_reach_a_bot_in_privacy_mode(world: World) -> None:
    group = await world.group()
    mention = await world.tg.user_says(world.person("Alice"), group, "@citebot are you there?")
    asked = await world.tg.user_says(world.person("Alice"), group, "/ask@citebot are you there?")
    await world.answered()
    assert not mention.delivered
    assert asked.delivered
    assert len(world.upstream.requests) == 1


async def test_a_reply_to_the_answer_is_a_follow_up_with_the_conversation_as_context(
    world: World,
) -> None:
    world.upstream.queue(CITED, answer(["It is the Catechism's teaching too."]))
    group = await world.group()
    alice = world.person("Alice")
    asked = await world.tg.user_says(alice, group, "/ask@citebot Why is life sacred?")
    await world.answered()
    [first] = world.answer_to(asked)
    follow_up = await world.tg.user_says(alice, group, "And the Catechism?", reply_to=first)
    await world.answered(2)

    assert follow_up.delivered
    assert world.upstream.questions[1][-3:] == [
        {"role": "user", "content": "Why is life sacred?"},
        {"role": "assistant", "content": "Life is sacred from conception to natural death[^1]."},
        {"role": "user", "content": "And the Catechism?"},
    ]
    [second] = world.answer_to(follow_up)
    assert second.readable == "It is the Catechism's teaching too."


async def test_the_conversation_follows_the_reply_chain_through_the_cards(world: World) -> None:
    world.upstream.queue(CITED, answer(["Second."]), answer(["Third."]))
    alice = world.person("Alice")
    chat = world.tg.private_chat(alice)
    await world.tg.user_says(alice, chat, "Why is life sacred?")
    await world.answered()
    _answer, cards = world.tg.bot_messages(chat)
    await world.tg.user_says(alice, chat, "Tell me more.", reply_to=cards)
    await world.answered(2)
    second = world.tg.bot_messages(chat)[-1]
    await world.tg.user_says(alice, chat, "And then?", reply_to=second)
    await world.answered(3)
    await world.tg.user_says(alice, chat, "Something new.")
    await world.answered(4)

    asked = [[m["content"] for m in q if m["role"] == "user"] for q in world.upstream.questions]
    assert asked == [
        ["Why is life sacred?"],
        ["Why is life sacred?", "Tell me more."],
        ["Why is life sacred?", "Tell me more.", "And then?"],
        ["Something new."],
    ]


async def test_a_reply_to_an_answer_no_longer_remembered_takes_it_as_context(
    world: World,
) -> None:
    """The conversations are remembered for MEMORY_TTL_SECONDS; past it (or with the state store
    down), a reply still carries the answer it replies to."""
    group = await world.group()
    alice = world.person("Alice")
    owner = world.people["Owner"]
    old = await world.tg.user_says(owner, group, "/ask@citebot What is grace?")
    await world.answered()
    [forgotten] = world.answer_to(old)
    await world.service.state.cache(f"thread-of:telegram:{group.id}:{forgotten.id}", "", ttl=0.01)
    await asyncio.sleep(0.05)  # as if MEMORY_TTL_SECONDS had passed
    world.upstream.queue(answer(["Grace is a gift."]))
    await world.tg.user_says(alice, group, "Is it free?", reply_to=forgotten)
    await world.answered(2)
    assert world.upstream.questions[1][-2:] == [
        {"role": "assistant", "content": "Hello world."},
        {"role": "user", "content": "Is it free?"},
    ]


async def test_a_forum_topic_keeps_its_thread(world: World) -> None:
    world.upstream.queue(CITED)
    group = await world.group("Forum", forum=True)
    alice = world.person("Alice")
    topic = await world.tg.open_topic(group, "Life questions", by=alice)
    asked = await world.tg.user_says(alice, group, "/ask@citebot Why is life sacred?", thread=topic)
    await world.answered()

    sent = [m for m in world.tg.bot_messages(group, thread=topic)]
    assert len(sent) == 2  # the answer and its cards, both in the topic
    assert world.answer_to(asked) == sent[:1]
    written = world.tg.requests_to("sendMessage") + world.tg.requests_to("sendRichMessage")
    assert {r.params.get("message_thread_id") for r in written} == {topic}
    assert {r.params.get("message_thread_id") for r in world.tg.requests_to("sendChatAction")} == {
        topic
    }


async def test_the_first_words_show_before_the_rest_is_written(world: World) -> None:
    world.upstream.queue(answer(["Grace", " builds on nature."], between=[Gate()]))
    alice = world.person("Alice")
    chat = world.tg.private_chat(alice)
    await world.tg.user_says(alice, chat, "What does grace do?")
    await world.tg.until(lambda: any("Grace" in d.history[-1] for d in world.tg.drafts_in(chat)))
    assert world.tg.bot_messages(chat) == []  # a draft so far, no message
    group = await world.group()
    world.upstream.queue(answer(["Nature", " is good."], between=[Gate("group")]))
    asked = await world.tg.user_says(alice, group, "/ask@citebot Is nature good?")
    await world.tg.until(lambda: [m.readable for m in world.answer_to(asked)] == ["Nature"])
    world.upstream.release()
    world.upstream.release("group")
    await world.answered(2)
    assert [m.readable for m in world.tg.bot_messages(chat)] == ["Grace builds on nature."]
    assert [m.readable for m in world.answer_to(asked)] == ["Nature is good."]


async def test_typing_shows_while_it_thinks(world: World) -> None:
    world.upstream.queue(answer(["Patience."], between=[Gate()]))
    group = await world.group()
    await world.tg.user_says(world.person("Alice"), group, "/ask@citebot Why wait?")
    await world.tg.until(lambda: world.tg.typing_in(group) == "typing")
    world.upstream.release()
    await world.answered()
    assert world.tg.typing_in(group) is None  # the answer's message ends it


async def test_ask_alone_in_reply_to_someones_message_asks_that_message(world: World) -> None:
    group = await world.group()
    alice, owner = world.person("Alice"), world.people["Owner"]
    wondered = await world.tg.user_says(alice, group, "Is it true that grace builds on nature?")
    asked = await world.tg.user_says(owner, group, "/ask@citebot", reply_to=wondered)
    await world.answered()
    assert world.upstream.questions[0][-1] == {
        "role": "user",
        "content": "Is it true that grace builds on nature?",
    }
    assert [m.readable for m in world.answer_to(asked)] == ["Hello world."]


async def test_a_long_pause_keeps_the_draft_and_the_typing_alive(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A draft is "a temporary 30-second preview" and "typing" lasts five seconds: both are
    renewed while the upstream pauses (here with clocks a hundredth as long)."""
    monkeypatch.setattr(sink_module, "DRAFT_SECONDS", 0.3)
    monkeypatch.setattr(sink_module, "TYPING_SECONDS", 0.05)
    world.tg.draft_ttl = 0.5
    world.upstream.queue(answer(["Patience", " pays."], between=[Pause(1.5)]))
    alice = world.person("Alice")
    chat = world.tg.private_chat(alice)
    await world.tg.user_says(alice, chat, "Why wait?")
    await world.tg.until(lambda: any("Patience" in d.history[-1] for d in world.tg.drafts_in(chat)))
    draft = next(d for d in world.tg.drafts_in(chat) if "Patience" in d.history[-1])
    for _ in range(10):  # a second of the pause: the draft never lapses
        await asyncio.sleep(0.1)
        assert not world.tg.draft_vanished(draft)
    await world.answered()
    assert draft.history.count("Patience") >= 2  # shown again while nothing changed
    [message] = world.tg.bot_messages(chat)
    assert draft.finished_by is message
    assert len(world.tg.requests_to("sendChatAction")) >= 1


async def test_nothing_the_answer_or_its_cards_say_pings_anyone_here(world: World) -> None:
    world.upstream.queue(
        answer(
            ["Ask @alice_1 or @all, and mail info@vatican.va[^1]."],
            [magisterium_citation(0, "Said by @owner_0.", title="Letter to @alice_1")],
        )
    )
    world.tg.refuse_next("sendRichMessage", 404, "Not Found: method not found")  # classic cards
    group = await world.group(admin=True)
    await world.tg.user_says(world.person("Alice"), group, "/ask@citebot Who?")
    await world.answered()
    answer_message, cards = world.tg.bot_messages(group)
    assert "@alice_1" in answer_message.readable.replace("\u200b", "")
    assert "info@vatican.va" in answer_message.readable
    assert "@owner_0" in cards.readable.replace("\u200b", "")
    assert world.tg.pinged() == []
