"""Who may ask, and what a person is told when they may not: the chat allowlist (a group, or a
private chat by the person's id), the per-person limit, a question too long or empty; /start
and /help say how to ask; other bots and chatter are left alone."""

from __future__ import annotations

from tests.integrations.telegram.world import World, telegram_world

NOT_HERE = "citebot is not enabled here. Please ask in a group where it is allowed."


async def test_only_the_chats_of_the_allowlist_are_answered() -> None:
    async with telegram_world() as probe:
        allowed_id = (await probe.group("Allowed")).id
    async with telegram_world({"TELEGRAM_CHAT_ALLOWLIST": f"{allowed_id}"}) as world:
        allowed = await world.group("Allowed")
        other = await world.group("Other")
        assert allowed.id == allowed_id  # the simulator numbers groups alike
        alice = world.person("Alice")
        await world.tg.user_says(alice, allowed, "/ask@citebot Why?")
        await world.answered()
        await world.tg.user_says(alice, other, "/ask@citebot Why?")
        private = world.tg.private_chat(alice)
        await world.tg.user_says(alice, private, "Why?")
        await world.idle()

        assert len(world.upstream.requests) == 1
        assert [m.readable for m in world.tg.bot_messages(other)] == [NOT_HERE]
        assert [m.readable for m in world.tg.bot_messages(private)] == [NOT_HERE]


async def test_a_private_chat_the_allowlist_names_is_answered() -> None:
    async with telegram_world() as probe:
        alice_id = probe.person("Alice").id
    async with telegram_world({"TELEGRAM_CHAT_ALLOWLIST": f"-100123, {alice_id}"}) as world:
        alice = world.person("Alice")
        chat = world.tg.private_chat(alice)
        await world.tg.user_says(alice, chat, "Why?")
        await world.answered()
        assert [m.readable for m in world.tg.bot_messages(chat)] == ["Hello world."]


async def test_a_person_asking_too_often_is_told_to_wait() -> None:
    async with telegram_world({"RATE_LIMIT_PER_MINUTE": "2"}) as world:
        alice = world.person("Alice")
        chat = world.tg.private_chat(alice)
        for n in range(3):
            await world.tg.user_says(alice, chat, f"Question {n}?")
            await world.idle()
        assert len(world.upstream.requests) == 2
        last = world.tg.bot_messages(chat)[-1].readable
        assert last.startswith("You have asked a lot of questions in a short time. Please wait")


async def test_a_question_too_long_or_empty_is_answered_with_what_to_do() -> None:
    async with telegram_world({"MAX_QUESTION_LENGTH": "20"}) as world:
        group = await world.group()
        alice = world.person("Alice")
        await world.tg.user_says(alice, group, "/ask@citebot " + "why " * 10)
        await world.idle()
        await world.tg.user_says(alice, group, "/ask@citebot")
        await world.idle()
        assert world.upstream.requests == []
        assert [m.readable for m in world.tg.bot_messages(group)] == [
            "That question is too long: please use at most 20 characters.",
            "Please include a question, for example: “What does paragraph 34 of Cherishing Life"
            " say?”",
        ]


async def test_start_and_help_say_how_to_ask_in_the_askers_language(world: World) -> None:
    alice = world.person("Alice", language_code="de")
    chat = world.tg.private_chat(alice)
    await world.tg.user_says(alice, chat, "/start")
    await world.idle()
    group = await world.group()
    await world.tg.user_says(world.person("Bob"), group, "/help@citebot")
    await world.idle()
    assert world.upstream.requests == []
    [german] = world.tg.bot_messages(chat)
    assert german.readable.startswith("Senden Sie mir eine Frage")
    assert "/ask" in german.readable
    [english] = world.tg.bot_messages(group)
    assert english.readable == (
        "Send me a question and I will answer it with its sources. In a group, write /ask"
        " followed by your question. Reply to one of my answers to ask a follow-up question."
    )


async def test_other_bots_commands_and_other_bots_are_left_alone(world: World) -> None:
    group = await world.group("Busy", admin=True)
    helper = world.tg.add_other_bot("helper_bot")
    world.tg.add_member(group, helper)
    alice = world.person("Alice")
    await world.tg.user_says(alice, group, "/ask@helper_bot what time is it?")
    await world.tg.user_says(alice, group, "/start@helper_bot")
    await world.tg.user_says(helper, group, "@citebot are you a bot too?")
    await world.tg.user_says(alice, group, "Just chatting here.")
    await world.idle()
    assert world.upstream.requests == []
    assert world.tg.bot_messages(group) == []
