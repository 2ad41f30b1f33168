"""What people do with citebot's answers and settings in Teams, end to end on the simulated
Teams: 👍/👎 through Teams' feedback form is kept as the presser's vote; a team's owner changes
a channel's settings from the settings card, anyone else is told only admins may and nothing
changes, and a store that does not answer is said, not a change pretended; the report is the
owners'; forget-me deletes what is kept about the asker once they press its button (nobody
else's press does); the bot removed from a team forgets the team; "Check with sources" on a
message answers in the message's thread."""

from __future__ import annotations

import json
from typing import Any

from bot.adapter import Venue
from bot.i18n.wording import Wording
from bot.places import Place
from bot.platforms import place_forms
from integrations.teams.manifest import CHECK_COMMAND
from tests.integrations.teams.world import World, teams_world
from tests.sim.redis_server import RedisProcess
from tests.sim.teams import SimMessage, SimPerson, SimTeam
from tests.sim.upstream import CITED, answer

EN = Wording("en", "teams")


def buttons(message: SimMessage) -> list[dict[str, Any]]:
    """Every ``messageBack`` button of ``message``'s cards: its ``msteams`` data."""
    found: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            msteams = (node.get("data") or {}).get("msteams") if node.get("type") else None
            if node.get("type") == "Action.Submit" and isinstance(msteams, dict):
                found.append({**msteams, "title": node.get("title")})
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(message.attachments)
    return found


def button(message: SimMessage, citebot: str) -> dict[str, Any]:
    (found,) = [b for b in buttons(message) if b["value"].get("citebot") == citebot]
    return found


def said(messages: list[SimMessage]) -> list[str]:
    return [m.text for m in messages]


async def _team(world: World) -> tuple[SimTeam, SimPerson, SimPerson]:
    teams = world.teams
    owner, bob = teams.add_person("Olivia Owner"), teams.add_person("Bob Baker")
    team = teams.add_team("Parish", owners=[owner], members=[bob], channels=["General", "Q"])
    return team, owner, bob


async def test_a_vote_from_teams_feedback_form_is_kept_as_the_pressers() -> None:
    async with teams_world() as world:
        teams = world.teams
        team, owner, bob = await _team(world)
        channel = team.channels[1]
        world.upstream.queue(CITED)
        post, _ = await teams.mention(bob, channel, "Is life sacred?")
        await world.answered()
        (shown,) = world.replies(channel, post)
        key = f"teams:{channel.id}:{shown.id}"
        liked = await teams.feedback(bob, shown, "like")
        assert (liked.status, liked.body) == (200, None)
        disliked = await teams.feedback(owner, shown, "dislike", "It cites the wrong page.")
        assert disliked.status == 200
        kept = await world.service.state.feedback(key)
        assert kept == {bob.id: "up", owner.id: "down"}


async def test_an_owner_changes_a_channels_settings_anyone_else_is_told_no() -> None:
    async with teams_world() as world:
        teams = world.teams
        team, owner, bob = await _team(world)
        channel = team.channels[1]
        assert said(await world.mention(bob, channel, "settings")) == [EN.admins_only()]
        (card,) = await world.mention(owner, channel, "settings")
        save = button(card, "settings")
        pressed = {**save, "value": {**save["value"], "enabled": "off", "language": ""}}
        await teams.press(bob, card, pressed)  # not an owner: nothing changes
        await world.idle()
        place = Place(platform="teams", server=team.id, channel=channel.id)
        assert (await world.service.places.of(place)).enabled
        await teams.press(owner, card, pressed)
        await world.idle()
        assert not (await world.service.places.of(place)).enabled
        assert "(enabled)" in json.dumps(card.attachments), "the card shows what was done"
        world.upstream.queue(answer(["Grace is a gift."]))
        assert said(await world.mention(bob, channel, "What is grace?")) == [EN.not_allowed_here()]
        assert world.upstream.requests == []


async def test_the_report_is_the_owners() -> None:
    async with teams_world() as world:
        team, owner, bob = await _team(world)
        channel = team.channels[1]
        assert said(await world.mention(bob, channel, "report")) == [EN.report_admins_only()]
        (card,) = await world.mention(owner, channel, "report 30d")
        periods = [b["value"]["period"] for b in buttons(card)]
        assert periods == ["today", "7d", "30d"]


async def test_forget_me_deletes_the_askers_data_once_they_press_its_button() -> None:
    async with teams_world() as world:
        teams = world.teams
        alice = teams.add_person("Alice Archer")
        chat = teams.personal_chat(alice)
        world.upstream.queue(answer(["Grace is a gift."]))
        await teams.say(alice, chat, "What is grace?")
        await world.answered()
        asked, _ = await teams.say(alice, chat, "forget-me")
        await world.idle()
        (card,) = world.replies(chat, asked)
        assert EN.forget_me_asks() in json.dumps(card.attachments, ensure_ascii=False)
        await teams.press(alice, card, button(card, "forget"))
        await world.idle()
        assert EN.forgot_you() in card.text
        left = await world.service.state.forget_person("teams", alice.id)
        assert left == 0, "nothing is left to delete"


async def test_a_press_of_someone_elses_forget_me_is_refused() -> None:
    async with teams_world() as world:
        teams = world.teams
        team, owner, bob = await _team(world)
        channel = team.channels[1]
        (card,) = await world.mention(bob, channel, "forget-me")
        await teams.press(owner, card, button(card, "forget"))
        await world.idle()
        assert EN.not_your_button() in said(world.replies(channel, card))


async def test_the_bot_removed_from_a_team_forgets_it() -> None:
    async with teams_world() as world:
        teams = world.teams
        team, owner, _ = await _team(world)
        place = Place(platform="teams", server=team.id)
        await world.service.places.set(place, "language", "de", by=owner.id)
        await teams.remove_bot_from_team(team, owner)
        await world.idle()
        assert (await world.service.places.of(place)).language != "de"


async def test_check_with_sources_answers_in_the_messages_thread() -> None:
    async with teams_world() as world:
        teams = world.teams
        team, owner, bob = await _team(world)
        channel = team.channels[1]
        post, _ = await teams.say(bob, channel, "Life is sacred from conception.")
        world.upstream.queue(CITED)
        delivered = await teams.check_with_sources(owner, post, CHECK_COMMAND)
        assert delivered.body["task"]["type"] == "message"
        await world.answered()
        replies = world.replies(channel, post)
        assert "Life is sacred from conception." in replies[0].text
        assert replies[-1].text.startswith("Life is sacred from conception to natural death[1].")
        assert "Life is sacred from conception." in world.upstream.questions[0][-1]["content"]


async def test_ask_a_person_mentions_the_teams_owners_once_for_the_asker() -> None:
    async with teams_world() as world:
        teams = world.teams
        team, owner, bob = await _team(world)
        channel = team.channels[1]
        place = Place(platform="teams", server=team.id)
        await world.service.places.set(place, "handoff", "admins", by=owner.id, forms=place_forms())
        world.upstream.queue(CITED)
        post, _ = await teams.mention(bob, channel, "Is life sacred?")
        await world.answered()
        (shown,) = world.replies(channel, post)
        ask = [b for b in buttons(shown) if b["value"].get("action") == "ask_person"]
        assert len(ask) == 1
        await teams.press(owner, shown, ask[0])  # not the asker: nothing is posted
        await world.idle()
        await teams.press(bob, shown, ask[0])
        await world.idle()
        await teams.press(bob, shown, ask[0])  # once
        await world.idle()
        handed = [m for m in world.replies(channel, post) if m.activity.get("entities")]
        handoffs = [m for m in handed if "<at>" in m.text]
        assert len(handoffs) == 1
        mentioned = [e["mentioned"]["id"] for e in handoffs[0].activity["entities"]]
        assert mentioned == [owner.id]
        assert "Bob Baker" in handoffs[0].text


async def test_an_own_answer_comes_first_and_ask_the_sources_asks_them() -> None:
    async with teams_world() as world:
        teams = world.teams
        team, owner, bob = await _team(world)
        channel = team.channels[1]
        venue = Venue(server=team.id)
        await world.kit.add_own_answer(
            venue,
            "When is Mass on Sunday?",
            "Mass is at 10 on Sundays.",
            by=owner.id,
            name=owner.name,
            language="en",
        )
        post, _ = await teams.mention(bob, channel, "When is Mass on Sunday?")
        await world.idle()
        (own,) = world.replies(channel, post)
        assert own.text.startswith("Mass is at 10 on Sundays.")
        assert world.upstream.requests == []
        sources = [b for b in buttons(own) if b["value"].get("action") == "ask_sources"]
        world.upstream.queue(answer(["The parish bulletin lists the times."]))
        await teams.press(bob, own, sources[0])
        await world.answered()
        assert world.replies(channel, post)[-1].text.startswith(
            "The parish bulletin lists the times."
        )


async def test_a_related_questions_button_asks_it_in_the_same_thread() -> None:
    async with teams_world() as world:
        teams = world.teams
        team, _, bob = await _team(world)
        channel = team.channels[1]
        world.upstream.queue(CITED, answer(["Because God made it."]))
        post, _ = await teams.mention(bob, channel, "Is life sacred?")
        await world.answered()
        (shown,) = world.replies(channel, post)
        related = [b for b in buttons(shown) if b["value"].get("citebot") == "related"]
        assert [b["value"]["question"] for b in related] == [
            "What does the Catechism say about it?",
            "Why is life sacred?",
        ]
        await teams.press(bob, shown, related[1])
        await world.answered(2)
        assert world.upstream.questions[1][-1]["content"].endswith("Why is life sacred?")
        assert world.replies(channel, post)[-1].text.startswith("Because God made it.")


async def test_in_a_group_chat_its_members_set_it_up_a_guest_may_not() -> None:
    async with teams_world() as world:
        teams = world.teams
        alice = teams.add_person("Alice Archer")
        guest = teams.add_person("Gina Guest", role="guest")
        chat = teams.group_chat("Friends", [alice, guest])
        assert said(await world.mention(guest, chat, "settings")) == [EN.admins_only()]
        (card,) = await world.mention(alice, chat, "settings")
        save = button(card, "settings")
        await teams.press(alice, card, {**save, "value": {**save["value"], "language": "de"}})
        await world.idle()
        assert (await world.service.places.of(Place("teams", chat.id))).language == "de"


async def test_help_says_how_citebot_is_asked_in_the_persons_language() -> None:
    async with teams_world() as world:
        teams = world.teams
        alice = teams.add_person("Alice Archer", locale="fr-FR")
        chat = teams.personal_chat(alice)
        asked, _ = await teams.say(alice, chat, "help")
        await world.idle()
        assert said(world.replies(chat, asked)) == [Wording("fr", "teams").mention_help()]
        assert world.upstream.requests == []


async def test_an_owner_adds_and_removes_an_own_answer_from_the_settings_card() -> None:
    async with teams_world() as world:
        teams = world.teams
        team, owner, _ = await _team(world)
        general = team.channels[0]
        (card,) = await world.mention(owner, general, "settings team")
        add = button(card, "answers")
        fields = {"own_question": "When is Mass?", "own_answer": "At 10 on Sundays."}
        await teams.press(owner, card, {**add, "value": {**add["value"], **fields}})
        await world.idle()
        venue = Venue(server=team.id)
        (kept,) = await world.kit.own_answers(venue)
        assert (kept.question, kept.answer, kept.name) == (
            "When is Mass?",
            "At 10 on Sundays.",
            "Olivia Owner",
        )
        remove = [b for b in buttons(card) if b["value"].get("remove") == kept.id]
        assert len(remove) == 1, "the card shows it again, with its Remove"
        await teams.press(owner, card, remove[0])
        await world.idle()
        assert await world.kit.own_answers(venue) == []


async def test_a_store_that_does_not_answer_is_said_on_the_card_and_nothing_is_pretended(
    redis_process: RedisProcess,
) -> None:
    async with teams_world({"STATE_URL": redis_process.url}) as world:
        team, owner, _ = await _team(world)
        channel = team.channels[1]
        (card,) = await world.mention(owner, channel, "settings")
        save = button(card, "settings")
        redis_process.kill()
        pressed = {**save, "value": {**save["value"], "enabled": "off", "language": ""}}
        await world.teams.press(owner, card, pressed)
        await world.idle()
        shown = json.dumps(card.attachments, ensure_ascii=False)
        assert EN.could_not_save() in shown
        assert " is now " not in shown, "no change is shown as made"
