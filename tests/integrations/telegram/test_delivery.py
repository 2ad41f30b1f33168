"""Nothing Telegram refuses is lost: a long answer is split into messages Telegram takes (its
4,096 characters counted after the HTML is parsed, no entity broken), a message refused for its
formatting is sent again plainer, a card refused costs only itself, and a Bot API server without
drafts or rich messages gets messages and classic HTML instead."""

from __future__ import annotations

from tests.integrations.telegram.payloads import validate_telegram_payload
from tests.integrations.telegram.world import World
from tests.sim.upstream import CITED, Pause, answer, magisterium_citation

PARAGRAPH = (
    "Grace is the **free and undeserved help** that God gives us to respond to his call, "
    "to become children of God, partakers of the divine nature and of eternal life. "
) * 8


def long_answer(paragraphs: int = 6) -> list[str]:
    return [f"{PARAGRAPH}[^{n % 3 + 1}]\n\n" for n in range(paragraphs)]


LONG = answer(
    long_answer(),
    [magisterium_citation(n, f"Passage {n + 1}.", title=f"Source {n + 1}") for n in range(3)],
    between=[Pause(0.1)],
)


async def test_a_long_answer_is_split_into_messages_telegram_takes_each_footnote_linked(
    world: World,
) -> None:
    world.upstream.queue(LONG)
    alice = world.person("Alice")
    chat = world.tg.private_chat(alice)
    await world.tg.user_says(alice, chat, "What is grace?")
    await world.answered()

    *messages, cards = world.tg.bot_messages(chat)
    assert len(messages) >= 2
    assert all(len(m.text) <= 4096 for m in messages)
    shown = "\n\n".join(m.readable for m in messages)
    assert shown.count("**free and undeserved help**") == 6 * 8
    for n in (1, 2, 3):
        assert f"[{'¹²³'[n - 1]}](https://example.org/doc/{n})" in shown
    assert len({d.draft_id for d in world.tg.drafts_in(chat)}) == len(messages)
    assert all(draft.finished_by in messages for draft in world.tg.drafts_in(chat))
    assert cards.reply_to is messages[-1]
    sent = [r.params for r in world.tg.requests_to("sendMessage")]
    assert all(validate_telegram_payload({"method": "sendMessage", **p}) == [] for p in sent)


async def test_a_message_refused_for_its_formatting_is_sent_again_plainer(world: World) -> None:
    world.upstream.queue(CITED)
    world.tg.refuse_next(
        "sendMessage", 400, 'Bad Request: can\'t parse entities: Unsupported start tag "x" at 0'
    )
    group = await world.group()
    asked = await world.tg.user_says(world.person("Alice"), group, "/ask@citebot Why?")
    await world.answered()

    [answer_message] = world.answer_to(asked)
    assert answer_message.readable.startswith("Life is sacred from conception to natural death")
    refused, plainer = world.tg.requests_to("sendMessage")[:2]
    assert refused.status == 400
    assert refused.params["parse_mode"] == "HTML"
    assert "parse_mode" not in plainer.params
    assert plainer.params["text"] == "Life is sacred from conception"


async def test_a_refused_cards_message_is_sent_again_card_by_card(world: World) -> None:
    world.upstream.queue(CITED)
    world.tg.refuse_next("sendRichMessage", 400, "Bad Request: can't parse rich message: x")
    alice = world.person("Alice")
    chat = world.tg.private_chat(alice)
    await world.tg.user_says(alice, chat, "Why is life sacred?")
    await world.answered()

    answer_message, card, related = world.tg.bot_messages(chat)
    assert "Human life is sacred 'from its beginning'." in card.rich_text
    assert related.rich_text == "Related questions"
    assert next(button for button, _ in related.buttons) == "What does the Catechism say about it?"
    assert card.reply_to is related.reply_to is answer_message


async def test_without_drafts_or_rich_messages_the_answer_is_edited_and_the_cards_classic(
    world: World,
) -> None:
    """A local Bot API server older than 9.3 has no drafts, one older than 10.1 no rich
    messages: each is tried once per worker, then left alone."""
    missing = "Not Found: method not found"
    world.tg.refuse_next("sendMessageDraft", 404, missing, count=2)
    world.tg.refuse_next("sendRichMessage", 404, missing)
    world.upstream.queue(CITED, CITED)
    alice = world.person("Alice")
    chat = world.tg.private_chat(alice)
    for n in (1, 2):
        await world.tg.user_says(alice, chat, f"Why is life sacred, {n}?")
        await world.answered(n)

    first, cards, second, cards_again = world.tg.bot_messages(chat)
    for message in (first, second):
        assert message.readable == "Life is sacred from conception to natural death" + (
            "[¹](https://example.org/doc/1)."
        )
    for message in (cards, cards_again):
        assert message.rich is None
        assert "Human life is sacred 'from its beginning'." in message.readable
        assert message.buttons[0] == ("What does the Catechism say about it?", "rq:0")
    assert len(world.tg.requests_to("sendRichMessage")) == 1
    assert [r.status for r in world.tg.requests_to("sendMessageDraft")][-1] == 404
    assert world.tg.drafts_in(chat) == []


async def test_an_edit_telegram_finds_unchanged_is_taken_as_done(world: World) -> None:
    """Telegram answers an edit that changes nothing with "message is not modified": the
    message already shows it, so the answer goes on to its cards."""
    world.upstream.queue(CITED)
    world.tg.refuse_next(
        "editMessageText",
        400,
        "Bad Request: message is not modified: specified new message content and reply markup"
        " are exactly the same as a current content and reply markup of the message",
    )
    group = await world.group()
    asked = await world.tg.user_says(world.person("Alice"), group, "/ask@citebot Why?")
    await world.answered()
    [answer_message] = world.answer_to(asked)
    assert [m for m in world.tg.bot_messages(group) if m.reply_to is answer_message]  # cards
    assert (
        world.service.metrics.registry.get_sample_value(
            "citebot_answers_total", {"platform": "telegram", "outcome": "answered"}
        )
        == 1
    )
