"""The buttons under an answer and its cards: 👍/👎 counted once per person and on its answer's
record in the answer log, a related question asked in the conversation it came from; every
press answered (Telegram waits about 15 s)."""

from __future__ import annotations

import time

from tests.integrations.telegram.world import World, telegram_world
from tests.sim.upstream import CITED, answer


async def test_a_vote_is_thanked_kept_once_per_person_and_counted_on_its_answer(
    world: World,
) -> None:
    world.upstream.queue(CITED)
    alice = world.person("Alice", language_code="pt-br")
    chat = world.tg.private_chat(alice)
    await world.tg.user_says(alice, chat, "Por que a vida é sagrada?")
    await world.answered()
    answer_message = world.tg.bot_messages(chat)[0]
    pressed = await world.tg.click(alice, answer_message, "fb:up")
    again = await world.tg.click(alice, answer_message, "fb:down")
    await world.tg.until(lambda: pressed.answered and again.answered)
    await world.idle()

    assert pressed.answer == {"text": "Obrigado pelo feedback!", "show_alert": False}
    key = f"telegram:{chat.id}:{answer_message.id}"
    assert await world.service.state.feedback(key) == {str(alice.id): "down"}
    [record] = [
        record
        async for batch in world.service.state.logged_answers(since=0, until=time.time() + 1)
        for record in batch
    ]
    assert (record.platform, record.asker, record.language) == ("telegram", str(alice.id), "pt_BR")
    assert record.vote_key == key
    assert [(vote.user, vote.value) for vote in record.votes] == [(str(alice.id), "down")]


async def test_a_related_question_is_asked_as_a_follow_up_under_the_cards(world: World) -> None:
    world.upstream.queue(CITED, answer(["The Catechism agrees."]))
    group = await world.group()
    alice, bob = world.person("Alice"), world.person("Bob")
    await world.tg.user_says(alice, group, "/ask@citebot Why is life sacred?")
    await world.answered()
    cards = world.tg.bot_messages(group)[-1]
    pressed = await world.tg.click(bob, cards, "rq:0")
    await world.answered(2)

    assert pressed.answered
    assert pressed.answer == {}
    asked = [m["content"] for m in world.upstream.questions[1] if m["role"] == "user"]
    assert asked == ["Why is life sacred?", "What does the Catechism say about it?"]
    [follow_up] = [m for m in world.tg.bot_messages(group) if m.reply_to is cards]
    assert follow_up.readable == "The Catechism agrees."


async def test_a_press_where_citebot_may_not_answer_is_refused_and_changes_nothing() -> None:
    async with telegram_world({"TELEGRAM_CHAT_ALLOWLIST": "-100999"}) as world:
        alice = world.person("Alice")
        group = await world.group()
        await world.tg.user_says(alice, group, "/ask@citebot Why?")
        await world.idle()
        [refusal] = world.tg.bot_messages(group)
        assert refusal.readable == (
            "citebot is not enabled here. Please ask in a group where it is allowed."
        )
        refusal.keyboard = [[{"text": "👍", "callback_data": "fb:up"}]]  # an old answer's
        pressed = await world.tg.click(alice, refusal, "fb:up")
        await world.tg.until(lambda: pressed.answered)
        assert pressed.answer == {
            "text": "citebot is not enabled here. Please ask in a group where it is allowed.",
            "show_alert": True,
        }
        assert await world.service.state.feedback(f"telegram:{group.id}:{refusal.id}") == {}
        assert world.upstream.requests == []
