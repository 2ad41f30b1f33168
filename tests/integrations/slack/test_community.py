"""What a workspace makes its own, on Slack through the simulator and two workers of one real
Redis: its admins keep own answers on the App Home (a member's press changes nothing); a
reworded question gets one with no upstream call and "Ask the sources" beside 👍/👎; "Ask a
person" mentions exactly the user group, once, whichever worker takes each press; a source
outside its trusted ones says so on its card."""

from __future__ import annotations

import asyncio

from bot.i18n.wording import Wording
from bot.places import CACHE_TTL
from bot.platforms import place_forms
from tests.integrations.slack.workspaces import ADMIN, ASK, ASKER, MEMBER, Workspace, two_workers
from tests.places import at
from tests.sim.slack import Message
from tests.sim.upstream import answer, magisterium_citation

GROUP = "S0PASTORS"


def buttons_of(workspace: Workspace, thread: str) -> Message:
    [with_buttons] = [
        m
        for m in workspace.sim.bot_replies(ASK, thread)
        if any(e.get("action_id", "").startswith("citebot_action_") for e in m.elements())
    ]
    return with_buttons


async def test_own_answers_kept_on_the_app_home_answer_reworded_questions(
    redis_url: str,
) -> None:
    async with two_workers(redis_url) as workspace:
        sim = workspace.sim
        await sim.open_home(user=MEMBER)
        member_home = await workspace.home(MEMBER)
        assert "citebot_own_answers_add" not in str(member_home.body)
        await sim.open_home(user=ADMIN)
        home = await workspace.home(ADMIN, "Eigen antwoorden")  # the admin's Dutch
        await sim.choose(home, "citebot_own_answers_add")
        form = await workspace.modal(ADMIN)
        sim.fill(form, "question", "When is Mass on Sunday?")
        sim.fill(form, "answer", "Sunday Mass is at **10:00**.")
        forged = await sim.choose(home, "citebot_own_answers_add", user=MEMBER)
        await sim.acked(forged)
        await sim.submit(form)
        home = await workspace.home(ADMIN, "When is Mass on Sunday?")
        assert "Eigen antwoord " in home.texts()
        await asyncio.sleep(CACHE_TTL)  # every worker reads a place at most once a second

        asked = await sim.mention(ASK, "What time is Sunday Mass?", user=ASKER)
        await sim.wait_for(lambda: bool(workspace.world.answer_of(ASK, asked.ts)))
        await sim.wait_for(lambda: not workspace.world.busy())
        [own] = workspace.world.answer_of(ASK, asked.ts)
        assert own.shown.startswith("Sunday Mass is at **10:00**.")
        assert workspace.world.upstream.requests == []
        holder = buttons_of(workspace, asked.ts)

        workspace.world.upstream.queue(answer(["From the sources."]))
        other = await sim.click(
            "citebot_action_ask_sources", channel=ASK, message_ts=holder.ts, user=MEMBER
        )
        await sim.acked(other)
        await sim.wait_for(lambda: bool(sim.ephemerals(MEMBER)))
        assert sim.ephemerals(MEMBER)[-1].shown == Wording("de").not_your_button()
        await sim.click("citebot_action_ask_sources", channel=ASK, message_ts=holder.ts, user=ASKER)
        await workspace.world.answered(ASK, asked.ts)
        assert [q[-1]["content"] for q in workspace.world.upstream.questions] == [
            "What time is Sunday Mass?"
        ]


async def test_ask_a_person_mentions_exactly_the_user_group_once(redis_url: str) -> None:
    async with two_workers(redis_url) as workspace:
        sim, world = workspace.sim, workspace.world
        team = at(f"slack:{workspace.team}")
        await workspace.service.places.set(team, "handoff", GROUP, by="op", forms=place_forms())
        world.upstream.queue(answer(["Let us pray."]))
        asked = await sim.mention(ASK, "Can someone pray with me?", user=ASKER)
        await world.answered(ASK, asked.ts)
        holder = buttons_of(workspace, asked.ts)
        presses = [
            await sim.click(
                "citebot_action_ask_person", channel=ASK, message_ts=holder.ts, user=who
            )
            for who in (MEMBER, ASKER, ASKER)
        ]
        for press in presses:
            await sim.acked(press)
        await sim.wait_for(lambda: len(sim.ephemerals(ASKER)) >= 2)
        await sim.wait_for(
            lambda: any("subteam" in (m.text or "") for m in sim.bot_replies(ASK, asked.ts))
        )
        [handoff] = [m for m in sim.bot_replies(ASK, asked.ts) if "subteam" in (m.text or "")]
        pinged = [p for m in sim.bot_replies(ASK, asked.ts) for p in m.pings()]
    assert pinged == [f"<!subteam^{GROUP}>"]
    assert handoff.text is not None
    assert "would like a person to answer their question." in handoff.text
    assert f"<@{ASKER}>" not in handoff.text
    assert "https://sim.slack.com/archives/" in handoff.text
    said = sorted(m.shown for m in sim.ephemerals(ASKER))
    assert said == [
        "A person has already been asked about this answer.",
        "Done: a person has been asked to look at your question.",
    ]


async def test_a_source_outside_the_trusted_ones_says_so_on_its_card(redis_url: str) -> None:
    async with two_workers(redis_url) as workspace:
        sim, world = workspace.sim, workspace.world
        await workspace.service.places.set(
            at(f"slack:{workspace.team}"), "trusted_sources", "vatican.va", by="op"
        )
        world.upstream.queue(
            answer(
                ["Grace [^1] and more [^2]."],
                [
                    magisterium_citation(0, "Grace is...", url="https://www.vatican.va/ccc"),
                    magisterium_citation(1, "Elsewhere...", url="https://blog.example/grace"),
                ],
            )
        )
        asked = await sim.mention(ASK, "What is grace?", user=ASKER)
        await world.answered(ASK, asked.ts)
        cards = " ".join(str(m.blocks) for m in world.cards_of(ASK, asked.ts))
    assert cards.count("Not among the sources trusted here") == 1
    assert cards.index("Document 2") < cards.index("Not among the sources trusted here")
