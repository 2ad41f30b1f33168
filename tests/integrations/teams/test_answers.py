"""What people see of citebot's answers in Teams, end to end on the simulated Teams: a personal
chat's answer streams (Teams' streaming: informative, streaming updates, final), a mention in
a channel is answered in the thread of the question's post, a group chat's on a mention only;
every answer carries its sources as Teams' citations, its AI label and 👍/👎; an activity
without Teams' token is refused and nothing is posted."""

from __future__ import annotations

import asyncio
import json

from tests.integrations.teams.world import teams_world
from tests.sim.upstream import CITED, Cut, Gate, Stream, answer, chunk


async def test_a_personal_chats_answer_streams_and_ends_with_its_citations() -> None:
    held = answer(["Life is sacred from conception"], [])
    steps = (*held.steps[:2], Gate(), *CITED.steps[2:])
    async with teams_world() as world:
        teams = world.teams
        alice = teams.add_person("Alice Archer")
        chat = teams.personal_chat(alice)
        world.upstream.queue(Stream(steps))
        asked, delivered = await teams.say(alice, chat, "Is life sacred?")
        assert delivered.status == 200
        await teams.until(lambda: any(s.streamed for s in teams.streams.values()))
        world.upstream.release()
        await world.answered()
        (stream,) = teams.streams.values()
        assert stream.informative
        assert "citebot" in stream.informative[0]
        assert stream.streamed[0].startswith("Life is sacred from conception")
        assert stream.ended == "final"
        (shown,) = world.replies(chat, asked)
        assert shown.id == stream.id
        assert shown.text.startswith("Life is sacred from conception to natural death[1].")
        assert (shown.markers(), list(shown.citations), shown.ai_label, shown.feedback) == (
            [1],
            [1],
            True,
            True,
        )
        popup = shown.popup(1)
        assert popup is not None
        assert "Human life is sacred 'from its beginning'." in json.dumps(popup, ensure_ascii=False)
        assert shown.citations[1]["name"].startswith("Cherishing Life")
        related = [a for a in shown.attachments if "Why is life sacred?" in json.dumps(a)]
        assert related, "the related questions' card is on the answer"


async def test_a_mention_in_a_channel_is_answered_in_its_posts_thread() -> None:
    async with teams_world() as world:
        teams = world.teams
        owner, bob = teams.add_person("Olivia Owner"), teams.add_person("Bob Baker")
        team = teams.add_team("Parish", owners=[owner], members=[bob], channels=["General"])
        general = team.channels[0]
        world.upstream.queue(CITED)
        post, delivered = await teams.mention(bob, general, "Is life sacred?")
        assert delivered.status == 200
        await world.answered()
        (shown,) = world.replies(general, post)
        assert shown.thread is post
        assert shown.text.startswith("Life is sacred from conception to natural death[1].")
        assert list(shown.citations) == [1]
        assert shown.ai_label
        assert shown.feedback
        assert teams.streams == {}, "Teams streams in personal chats only"
        sent = world.upstream.questions[0][-1]["content"]
        assert sent.endswith("Is life sacred?")
        assert "citebot" not in sent


async def test_in_a_group_chat_only_a_mention_is_answered() -> None:
    async with teams_world() as world:
        teams = world.teams
        alice, bob = teams.add_person("Alice Archer"), teams.add_person("Bob Baker")
        chat = teams.group_chat("Friends", [alice, bob])
        world.upstream.queue(answer(["Grace is a gift."]))
        await teams.say(alice, chat, "Shall we meet at six?")
        await world.idle()
        assert world.upstream.requests == []
        asked, _ = await teams.mention(alice, chat, "What is grace?")
        await world.answered()
        (shown,) = world.replies(chat, asked)
        assert shown.text.startswith("Grace is a gift.")


async def test_an_activity_without_teams_token_is_refused_and_nothing_is_posted() -> None:
    async with teams_world() as world:
        teams = world.teams
        alice = teams.add_person("Alice Archer")
        chat = teams.personal_chat(alice)
        world.upstream.queue(answer(["Grace is a gift."]))
        _, unsigned = await teams.say(alice, chat, "What is grace?", token=None)
        _, forged = await teams.say(alice, chat, "What is grace?", token="e30.e30.c2ln")
        assert (unsigned.status, forged.status) == (401, 401)
        await world.idle()
        assert world.upstream.requests == []
        assert teams.requests_to("POST", "/activities") == []
        assert teams.bot_messages(chat) == []


async def test_a_stream_cut_by_the_upstream_keeps_its_text_and_says_so() -> None:
    async with teams_world() as world:
        teams = world.teams
        alice = teams.add_person("Alice Archer")
        chat = teams.personal_chat(alice)
        world.upstream.queue(Stream((chunk("Grace is"), chunk(" a gift"), Cut())))
        asked, _ = await teams.say(alice, chat, "What is grace?")
        await world.answered()
        shown = world.replies(chat, asked)
        assert shown
        assert shown[0].text.startswith("Grace is a gift")
        assert "interrupted" in shown[-1].text


async def test_a_worker_stopping_finishes_the_answer_in_flight_and_takes_nothing_new() -> None:
    held = answer(["Grace is a gift."])
    async with teams_world() as world:
        teams = world.teams
        alice = teams.add_person("Alice Archer")
        chat = teams.personal_chat(alice)
        world.upstream.queue(Stream((*held.steps[:1], Gate(), *held.steps[1:])))
        asked, _ = await teams.say(alice, chat, "What is grace?")
        await teams.until(lambda: bool(world.upstream.requests))
        stopping = asyncio.create_task(world.stop())
        await teams.until(lambda: not world.kit.accepting)
        _, late = await teams.say(alice, chat, "And mercy?")
        assert late.status == 503, "Teams delivers it again, to a worker that stays"
        world.upstream.release()
        await stopping
        (shown,) = world.replies(chat, asked)
        assert shown.text.startswith("Grace is a gift.")
        assert len(world.upstream.requests) == 1


async def test_a_call_teams_throttles_is_counted_and_waited_out_and_the_answer_lands() -> None:
    async with teams_world() as world:
        teams = world.teams
        owner = teams.add_person("Olivia Owner")
        channel = teams.add_team("Parish", owners=[owner]).channels[0]
        world.upstream.queue(answer(["Grace is a gift."]))
        teams.refuse_next("POST", 429, "Throttled", retry_after=1)
        post, _ = await teams.mention(owner, channel, "What is grace?")
        await world.answered()
        await teams.until(lambda: bool(world.replies(channel, post)))
        (shown,) = world.replies(channel, post)
        assert shown.text.startswith("Grace is a gift.")
        throttled = [r for r in teams.requests if r.status == 429]
        assert len(throttled) == 1
        limited = world.service.metrics.registry.get_sample_value(
            "citebot_platform_rate_limited_total", {"platform": "teams"}
        )
        assert limited == 1
        teams.take_violations()  # the throttled call is Teams' doing here, not the bot's
