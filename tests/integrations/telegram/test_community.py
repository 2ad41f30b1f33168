"""What a group makes its own, on Telegram through the simulator: its administrators keep own
answers with ``/settings answers`` (a member is refused), a reworded question gets one with no
upstream call and "Ask the sources" under it; "Ask a person" names the group's administrators
once, for the asker alone; a source outside its trusted ones says so on its card."""

from __future__ import annotations

from bot.i18n.wording import Wording
from tests.integrations.telegram.world import World, telegram_world
from tests.sim.telegram import SimChat, SimMessage, SimUser, TelegramSim
from tests.sim.upstream import answer, magisterium_citation


async def replied(world: World, user: SimUser, chat: SimChat, text: str) -> SimMessage:
    """``user`` says ``text``; the bot's reply once it is done."""
    question = await world.tg.user_says(user, chat, text)
    await world.tg.until(lambda: bool(world.answer_to(question)) and world.settled(), within=15)
    return world.answer_to(question)[-1]


async def pressed(tg: TelegramSim, user: SimUser, message: SimMessage, data: str) -> str:
    callback = await tg.click(user, message, data)
    await tg.until(lambda: callback.answered, within=15)
    return str(callback.answer.get("text", ""))


async def test_own_answers_kept_by_the_admins_answer_reworded_questions_and_ask_the_sources() -> (
    None
):
    async with telegram_world() as world:
        chat = await world.group()
        owner, alice = world.person("Owner"), world.person("Alice")
        refused = await replied(world, alice, chat, "/settings@citebot answers add Q? | A.")
        assert refused.readable == Wording().admins_only()
        added = await replied(
            world,
            owner,
            chat,
            "/settings@citebot answers add When is Mass on Sunday? | Sunday Mass is at 10:00.",
        )
        assert added.readable.startswith("Own answer ")
        assert added.readable.endswith(" saved.")
        listing = await replied(world, owner, chat, "/settings@citebot answers")
        assert "**When is Mass on Sunday?** Sunday Mass is at 10:00. · Owner ·" in listing.readable

        own = await replied(world, alice, chat, "/ask@citebot What time is Sunday Mass?")
        assert own.readable.startswith("Sunday Mass is at 10:00.")
        assert "the admins' own answer here, set by Owner on" in own.readable
        assert world.upstream.requests == []
        assert ("Ask the sources", "ac:ask_sources") in own.buttons
        said = await pressed(world.tg, owner, own, "ac:ask_sources")
        assert said == "Only the person who asked can use this button."
        world.upstream.queue(answer(["From the sources."]))
        await pressed(world.tg, alice, own, "ac:ask_sources")
        await world.answered(1)
        assert [m[-1]["content"] for m in world.upstream.questions] == ["What time is Sunday Mass?"]
        assert world.tg.pinged() == []


async def test_ask_a_person_names_the_groups_administrators_once_for_the_asker() -> None:
    async with telegram_world() as world:
        chat = await world.group()
        owner, alice = world.person("Owner"), world.person("Alice")
        said = await replied(world, owner, chat, "/settings@citebot set handoff admins")
        assert said.readable == "`handoff` is now admins here."
        answered = await replied(world, alice, chat, "/ask@citebot Can someone pray with me?")
        assert ("Ask a person", "ac:ask_person") in answered.buttons
        assert await pressed(world.tg, owner, answered, "ac:ask_person") == (
            "Only the person who asked can use this button."
        )
        assert await pressed(world.tg, alice, answered, "ac:ask_person") == (
            "Done: a person has been asked to look at your question."
        )
        assert await pressed(world.tg, alice, answered, "ac:ask_person") == (
            "A person has already been asked about this answer."
        )
        await world.tg.until(lambda: bool(world.tg.pinged()), within=10)
        await world.idle()
        assert world.tg.pinged() == [f"user {owner.id}"]
        [handoff] = [m for m in world.tg.bot_messages(chat) if "would like a person" in m.readable]
        assert handoff.readable.startswith(
            f"[Owner](tg://user?id={owner.id}): Alice would like a person to answer"
        )
        assert handoff.reply_to is answered


async def test_a_source_outside_the_trusted_ones_says_so_on_its_card() -> None:
    async with telegram_world() as world:
        chat = await world.group()
        owner, alice = world.person("Owner"), world.person("Alice")
        await replied(world, owner, chat, "/settings@citebot set trusted_sources vatican.va")
        world.upstream.queue(
            answer(
                ["Grace [^1] and more [^2]."],
                [
                    magisterium_citation(0, "Grace is...", url="https://www.vatican.va/ccc"),
                    magisterium_citation(1, "Elsewhere...", url="https://blog.example/grace"),
                ],
            )
        )
        question = await world.tg.user_says(alice, chat, "/ask@citebot What is grace?")
        await world.answered(1)
        thread = [m.readable for m in world.tg.bot_messages(chat) if m.reply_to is not question]
        text = "\n".join(thread)
        assert text.count("⚠ Not among the sources trusted here") == 1
        assert text.index("Document 2") < text.index("⚠ Not among the sources trusted here")
