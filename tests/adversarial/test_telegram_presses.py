"""Telegram's button presses as a hostile client sends them: the Bot API passes on any callback
data a client makes up, so only the values citebot itself writes are acted on (everything else
is answered, so the client stops spinning, and neither kept nor counted); and a press is handed
to a task like a command, so the one update reader every worker shares never waits on one
chat's 429."""

from __future__ import annotations

from prometheus_client import generate_latest

from tests.integrations.telegram.world import CITED, World, telegram_world
from tests.sim.telegram import SimMessage, SimUser
from tests.sim.upstream import answer

FORGED = (
    "fb:evil",
    "fb:",
    "fb:up ",
    "fb:" + "x" * 61,
    "fr:because",
    "fr:other\n",
    "rq:7",
    "rq:-1",
    "rq:٣",
    "st:enabled=maybe",
    "st:handoff=admins",
    "st:language=xx",
    "rp:365d",
    "fm:someone",
    "fm:1\n",
    "zz:anything",
    "",
)
"""Callback data citebot never writes: a made-up vote, reason, related question, setting,
period or person, and data of no button of citebot's at all."""


async def answered_in_private(world: World, name: str) -> tuple[SimUser, SimMessage]:
    person = world.person(name)
    chat = world.tg.private_chat(person)
    await world.tg.user_says(person, chat, "Why is life sacred?")
    await world.answered(len(world.upstream.requests) + 1)
    return person, world.tg.bot_messages(chat)[0]


async def test_forged_presses_are_answered_and_neither_acted_on_nor_counted() -> None:
    async with telegram_world() as world:
        world.upstream.queue(CITED)
        alice, shown = await answered_in_private(world, "Alice")
        exposed = generate_latest(world.service.metrics.registry)
        requests = len(world.tg.requests)

        presses = [world.tg.forge_press(alice, shown, data) for data in FORGED * 20]
        await world.tg.until(lambda: all(press.answered for press in presses))
        await world.idle()

        assert {str(press.answer) for press in presses} == {"{}"}
        assert await world.service.state.feedback(f"telegram:{shown.chat.id}:{shown.id}") == {}
        sent = {r.method for r in world.tg.requests[requests:]} - {"getUpdates"}
        assert sent == {"answerCallbackQuery"}
        assert len(world.upstream.requests) == 1
        assert generate_latest(world.service.metrics.registry) == exposed


async def test_a_vote_is_counted_under_its_own_value_and_nothing_else() -> None:
    async with telegram_world() as world:
        world.upstream.queue(CITED)
        alice, shown = await answered_in_private(world, "Alice")
        world.tg.forge_press(alice, shown, "fb:evil")
        pressed = await world.tg.click(alice, shown, "fb:up")
        await world.tg.until(lambda: pressed.answered)
        await world.idle()

        exposed = generate_latest(world.service.metrics.registry).decode()
        votes = [line for line in exposed.splitlines() if line.startswith("citebot_votes_total")]
        assert votes == ['citebot_votes_total{platform="telegram",value="up"} 1.0']


async def test_a_press_waiting_out_its_chats_429_holds_up_no_other_chat() -> None:
    """Alice's 👎 shows the reasons by editing her answer's buttons, and Telegram makes her chat
    wait an hour; Bob, in another chat, asks after her press was read and is answered while her
    edit still waits."""
    async with telegram_world() as world:
        world.upstream.queue(CITED, answer(["Hope is trust."]))
        alice, shown = await answered_in_private(world, "Alice")
        bob = world.person("Bob")
        world.tg.rate_limit_next("editMessageReplyMarkup", 3600)

        down = await world.tg.click(alice, shown, "fb:down")
        await world.tg.until(lambda: world.tg.requests_to("editMessageReplyMarkup"))
        chat = world.tg.private_chat(bob)
        await world.tg.user_says(bob, chat, "What is hope?")
        await world.tg.until(lambda: world.tg.bot_messages(chat))

        [bobs] = world.tg.bot_messages(chat)
        assert bobs.readable == "Hope is trust."
        assert down.answered
        assert [b["callback_data"] for row in shown.keyboard for b in row] == ["fb:up", "fb:down"]
