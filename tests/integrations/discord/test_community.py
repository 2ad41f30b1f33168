"""What a server makes its own, on Discord through the simulator: its own answer comes back for
a reworded /ask with no upstream call and a button to ask the sources anyway; "Ask a person"
mentions exactly its role, once, for the asker alone; a source outside its trusted ones says so
on its card."""

from __future__ import annotations

import re

from bot.adapter import Venue
from bot.i18n.wording import Wording
from tests.integrations.discord.admins import answered, run_admin
from tests.integrations.discord.harness import Harness
from tests.sim.discord import DiscordSim
from tests.sim.upstream import answer, magisterium_citation

ROLE = "987654321098765432"


def server(sim: DiscordSim) -> Venue:
    return Venue(server=str(sim.text.guild_id))


async def test_a_reworded_question_gets_the_own_answer_and_may_ask_the_sources(
    harness: Harness, sim: DiscordSim
) -> None:
    await harness.kit.add_own_answer(
        server(sim),
        "When is Mass on Sunday?",
        "Sunday Mass: **10:00**.",
        by="1",
        name="Anna",
        language="en",
    )
    message = await harness.ask("What time is Sunday Mass?")
    assert message.content.startswith("Sunday Mass: **10:00**.")
    assert "set by Anna on" in message.content
    assert harness.upstream.requests == []
    assert [b.get("label") for b in message.buttons()][-1] == "Ask the sources"

    stranger = await sim.click_button(
        message.id, "citebot:action:ask_sources", user_id=sim.admin.id
    )
    await sim.until(lambda: stranger.response_type is not None)
    assert stranger.acks[0]["data"]["content"] == "Only the person who asked can use this button."
    assert stranger.acks[0]["data"]["flags"] == 64

    done = len(harness.service.outcomes)
    harness.upstream.queue(answer(["From the sources."]))
    pressed = await sim.click_button(message.id, "citebot:action:ask_sources")
    await harness.answers(done + 1)
    assert pressed.original is not None
    assert pressed.original.content.startswith("From the sources.")
    assert [m[-1]["content"] for m in harness.upstream.questions] == ["What time is Sunday Mass?"]
    assert sim.pinged() == []


async def test_ask_a_person_mentions_exactly_the_role_once_for_the_asker(
    harness: Harness, sim: DiscordSim
) -> None:
    await harness.kit.change_setting(server(sim), "handoff", ROLE, by="1")
    harness.upstream.queue(
        answer(["Pray with us [^1]."], [magisterium_citation(0, "Pray always.")])
    )
    message = await harness.ask("Can someone pray with me?")
    assert "citebot:action:ask_person" in {b.get("custom_id") for b in message.buttons()}

    other = await sim.click_button(message.id, "citebot:action:ask_person", user_id=sim.admin.id)
    first = await sim.click_button(message.id, "citebot:action:ask_person")
    again = await sim.click_button(message.id, "citebot:action:ask_person")
    presses = (other, first, again)

    def said() -> list[str]:
        return [press.original.content for press in presses if press.original is not None]

    await sim.until(lambda: len([words for words in said() if words]) == len(presses))
    assert said() == [
        "Only the person who asked can use this button.",
        "Done: a person has been asked to look at your question.",
        "A person has already been asked about this answer.",
    ]
    await sim.until(lambda: sim.pinged())
    assert sim.pinged() == [f"<@&{ROLE}>"]
    [handoff] = [m for m in sim.thread_messages(message.id) if f"<@&{ROLE}>" in m.content]
    assert f"<@{sim.user.id}> would like a person to answer their question." in handoff.content
    assert f"/{message.channel_id}/{message.id}>)" in handoff.content


async def test_a_source_outside_the_trusted_ones_says_so_on_its_card(
    harness: Harness, sim: DiscordSim
) -> None:
    await harness.kit.change_setting(server(sim), "trusted_sources", "vatican.va", by="1")
    harness.upstream.queue(
        answer(
            ["Grace [^1] and more [^2]."],
            [
                magisterium_citation(0, "Grace is...", url="https://www.vatican.va/ccc/1996"),
                magisterium_citation(1, "Elsewhere...", url="https://blog.example/grace"),
            ],
        )
    )
    message = await harness.ask("What is grace?")
    footers = [
        embed.get("footer", {}).get("text", "")
        for card in sim.thread_messages(message.id)
        for embed in card.embeds
    ]
    assert ["⚠ Not among the sources trusted here" in footer for footer in footers] == [
        False,
        True,
    ]


async def test_admins_keep_own_answers_with_citebot_answers_and_members_are_refused(
    harness: Harness, sim: DiscordSim
) -> None:
    opened = await run_admin(sim, "citebot answers add")
    assert opened.modal is not None
    assert opened.modal["title"] == "Add an own answer"
    sent = await sim.submit_modal(
        opened, {"question": "When is the parish office open?", "answer": "Mon-Fri, 9-12."}
    )
    await answered(sim, sent)
    assert sent.original is not None
    [answer_id] = re.findall(r"Own answer (\w+) saved\.", sent.original.content)
    listed = await run_admin(sim, "citebot answers list")
    assert listed.original is not None
    assert f"`{answer_id}` **When is the parish office open?** Mon-Fri, 9-12." in (
        listed.original.content
    )

    member = await run_admin(sim, "citebot answers remove", {"id": answer_id}, user_id=sim.user.id)
    assert member.original is not None
    assert member.original.content == Wording().admins_only()
    refused_add = await run_admin(sim, "citebot answers add", user_id=sim.user.id)
    assert refused_add.modal is None
    assert len(await harness.kit.own_answers(server(sim))) == 1

    message = await harness.ask("when does the parish office open")
    assert message.content.startswith("Mon-Fri, 9-12.")
    removed = await run_admin(sim, "citebot answers remove", {"id": answer_id})
    assert removed.original is not None
    assert removed.original.content == f"Own answer {answer_id} removed."
    assert await harness.kit.own_answers(server(sim)) == []
