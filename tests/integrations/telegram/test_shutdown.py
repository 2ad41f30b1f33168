"""SIGTERM: a worker stops reading updates at once (another worker takes the reader), lets its
answers finish for ``SHUTDOWN_GRACE_SECONDS`` and closes the rest with a note, so nobody is left
with a draft that lapses or a message that stops mid-sentence."""

from __future__ import annotations

from bot.i18n.wording import Wording
from tests.integrations.telegram.world import World
from tests.sim.upstream import Gate, answer

INTERRUPTED = Wording().interrupted()


async def test_an_answer_still_writing_when_the_worker_stops_ends_with_the_note(
    world: World,
) -> None:
    world.upstream.queue(answer(["Grace builds on nature", " and perfects it."], between=[Gate()]))
    alice = world.person("Alice")
    chat = world.tg.private_chat(alice)
    await world.tg.user_says(alice, chat, "What does grace do?")
    await world.tg.until(lambda: any("Grace" in d.history[-1] for d in world.tg.drafts_in(chat)))
    group = await world.group()
    world.upstream.queue(answer(["Nature is good", " by creation."], between=[Gate("group")]))
    asked = await world.tg.user_says(alice, group, "/ask@citebot Is nature good?")
    await world.tg.until(lambda: bool(world.answer_to(asked)))

    await world.worker.stop()  # the grace (2 s) runs out: the gates never open

    [private] = world.tg.bot_messages(chat)
    assert private.readable == f"Grace builds on nature\n\n_{INTERRUPTED}_"
    assert world.tg.drafts_in(chat)[-1].finished_by is private
    [in_group] = world.answer_to(asked)
    assert in_group.readable == f"Nature is good\n\n_{INTERRUPTED}_"
    assert not world.tg.updates.long_polling  # the reader was let go first
