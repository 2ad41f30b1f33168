"""What people do in the simulated Discord reaches the bot as Discord sends it, and what the
app answers is held to Discord's rules: modals checked against the spec and filled in as the
client lets people fill them, five followups and no bot token where only a user's install
reaches, commands kept with their install types and localizations, the Message Content intent
allowed only when the portal allows it. Spoken to by discord.py's own HTTP client and gateway."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord.http import HTTPClient, Route

from tests.patience import PATIENCE
from tests.sim.discord import DiscordSim, SimInteraction, SimMessage

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


@pytest.fixture
async def http(sim: DiscordSim) -> AsyncIterator[HTTPClient]:
    client = HTTPClient(asyncio.get_running_loop())
    await client.static_login(sim.token)
    yield client
    await client.close()


async def _refused(http: HTTPClient, route: Route, body: Any) -> discord.HTTPException:
    with pytest.raises(discord.HTTPException) as refused:
        await http.request(route, json=body)
    return refused.value


def _callback(interaction: SimInteraction) -> Route:
    return Route(
        "POST",
        CALLBACK,
        interaction_id=interaction.id,
        interaction_token=interaction.token,
    )


def _followup(sim: DiscordSim, interaction: SimInteraction) -> Route:
    return Route(
        "POST",
        "/webhooks/{webhook_id}/{webhook_token}",
        webhook_id=sim.application_id,
        webhook_token=interaction.token,
    )


def _modal(options: list[str]) -> dict[str, Any]:
    return {
        "type": 9,
        "data": {
            "custom_id": "why",
            "title": "Bad answer",
            "components": [
                {
                    "type": 18,
                    "label": "What was wrong?",
                    "component": {
                        "type": 21,
                        "custom_id": "reason",
                        "options": [{"value": o, "label": o.title()} for o in options],
                    },
                },
                {
                    "type": 18,
                    "label": "Tell us more",
                    "component": {
                        "type": 4,
                        "custom_id": "comment",
                        "style": 2,
                        "required": False,
                        "max_length": 10,
                    },
                },
            ],
        },
    }


async def test_a_modal_keeps_to_the_spec_and_comes_back_as_people_fill_it_in(
    sim: DiscordSim, http: HTTPClient
) -> None:
    shown = await sim.slash_command("ask", {"question": "grace"})
    one_choice = await _refused(http, _callback(shown), _modal(["other"]))
    assert (one_choice.status, one_choice.code) == (400, 50035)  # a radio group offers 2-10
    assert shown.response_type is None
    await http.request(_callback(shown), json=_modal(["quote", "other"]))
    assert shown.modal is not None

    with pytest.raises(AssertionError, match="must be chosen"):
        await sim.submit_modal(shown, {"comment": "hm"})
    with pytest.raises(AssertionError, match="not among"):
        await sim.submit_modal(shown, {"reason": "spam"})
    with pytest.raises(AssertionError, match="at most 10"):
        await sim.submit_modal(shown, {"reason": "quote", "comment": "far too long"})
    sent = await sim.submit_modal(shown, {"reason": "quote"})
    assert sent.type == 5

    again = await _refused(http, _callback(sent), _modal(["quote", "other"]))
    assert again.status == 400  # a modal's submission cannot open another
    await http.request(_callback(sent), json={"type": 4, "data": {"content": "Thanks."}})
    assert sent.original is not None
    assert sent.original.content == "Thanks."


@pytest.mark.parametrize("where", ["foreign", "group_dm"])
async def test_where_only_a_users_install_reaches_five_followups_and_no_bot_token(
    sim: DiscordSim, http: HTTPClient, where: str
) -> None:
    channel = sim.foreign if where == "foreign" else sim.group_dm
    interaction = await sim.slash_command("ask", {"question": "grace"}, channel_id=channel.id)
    assert interaction.owners == {"1": str(sim.user.id)}
    await http.request(_callback(interaction), json={"type": 4, "data": {"content": "Grace."}})
    for n in range(5):
        await http.request(_followup(sim, interaction), json={"content": f"More {n}."})
    sixth = await _refused(http, _followup(sim, interaction), {"content": "Too many."})
    assert (sixth.status, sixth.code) == (400, 40094)

    create = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    by_bot = await _refused(http, create, {"content": "Hello."})
    assert (by_bot.status, by_bot.code) == (403, 50001)
    assert [m.content for m in sim.channel_messages(channel.id)] == [
        "Grace.",
        *(f"More {n}." for n in range(5)),
    ]


async def test_where_the_bot_is_a_member_followups_are_not_counted(
    sim: DiscordSim, http: HTTPClient
) -> None:
    interaction = await sim.slash_command("ask", {"question": "grace"})
    assert interaction.owners == {"0": str(sim.guild_id)}
    await http.request(_callback(interaction), json={"type": 5})
    for n in range(7):
        await http.request(_followup(sim, interaction), json={"content": f"More {n}."})
    assert len(sim.channel_messages(sim.text.id)) == 7


async def test_commands_keep_their_install_types_and_give_localizations_when_asked(
    sim: DiscordSim, http: HTTPClient
) -> None:
    commands = Route("PUT", "/applications/{app_id}/commands", app_id=sim.application_id)
    check = {"name": "Check with sources", "type": 3, "name_localizations": {"fr": "Vérifier"}}
    await http.request(commands, json=[check, {"name": "ask", "description": "Ask", "type": 1}])
    listed = Route("GET", "/applications/{app_id}/commands", app_id=sim.application_id)
    plain = await http.request(listed)
    whole = await http.request(listed, params={"with_localizations": "true"})
    assert [c.get("name_localizations") for c in plain] == [None, None]
    assert whole[0]["name_localizations"] == {"fr": "Vérifier"}
    assert whole[0]["description"] == ""  # a message command has none
    assert [(c["integration_types"], c["contexts"]) for c in whole] == [([0], [0, 1, 2])] * 2


async def test_a_string_select_offers_only_its_options(sim: DiscordSim, http: HTTPClient) -> None:
    menu = {
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": "pick",
                "options": [{"label": "on", "value": "on"}, {"label": "off", "value": "off"}],
            }
        ],
    }
    create = Route("POST", "/channels/{channel_id}/messages", channel_id=sim.text.id)
    message = await http.request(create, json={"content": "Pick one", "components": [menu]})
    with pytest.raises(AssertionError, match="not among"):
        await sim.choose(int(message["id"]), "pick", ["maybe"])
    picked = await sim.choose(int(message["id"]), "pick", ["off"])
    assert picked.type == 3


class Listener(discord.Client):
    """A bare discord.py client that keeps the messages and edits it is told of."""

    def __init__(self, *, message_content: bool) -> None:
        intents = discord.Intents.default()
        intents.message_content = message_content
        super().__init__(intents=intents)
        self.heard: list[tuple[str, str, int]] = []
        self.seen = asyncio.Event()

    async def on_message(self, message: discord.Message) -> None:
        kind = "forum post" if isinstance(message.channel, discord.Thread) else "message"
        self.heard.append((kind, message.content, message.id))
        self.seen.set()

    async def on_message_edit(self, before: discord.Message, after: discord.Message) -> None:
        self.heard.append(("edit", after.content, after.id))
        self.seen.set()


@pytest.fixture
async def listen(sim: DiscordSim) -> AsyncIterator[Any]:
    running: list[tuple[Listener, asyncio.Task[None]]] = []

    async def start(*, message_content: bool) -> Listener:
        client = Listener(message_content=message_content)
        await client.login(sim.token)
        task = asyncio.create_task(client.connect(reconnect=False))
        running.append((client, task))
        await sim.wait_connected()
        return client

    yield start
    for client, task in running:
        await client.close()
        await task


async def test_a_forum_post_and_an_edit_carry_their_text_only_with_the_intent(
    sim: DiscordSim, listen: Any
) -> None:
    client = await listen(message_content=True)
    post = await sim.start_forum_post("Is grace a gift?", "I read that it is earned.")
    message: SimMessage = sim.messages[post.id]
    async with asyncio.timeout(PATIENCE):
        await client.seen.wait()
        client.seen.clear()
        await sim.user_edit(message, "I read that it is freely given.")
        await client.seen.wait()
    assert client.heard == [
        ("forum post", "I read that it is earned.", post.id),
        ("edit", "I read that it is freely given.", post.id),
    ]
    thread = client.get_channel(post.id)
    assert isinstance(thread, discord.Thread)
    assert thread.parent_id == sim.forum.id


async def test_without_the_intent_a_message_comes_without_its_text(
    sim: DiscordSim, listen: Any
) -> None:
    client = await listen(message_content=False)
    await sim.user_message(sim.text.id, "just chatting")
    await sim.user_message(sim.foreign.id, "elsewhere")  # the bot is not in that guild
    async with asyncio.timeout(PATIENCE):
        await client.seen.wait()
    await asyncio.sleep(0.2)
    assert [(kind, text) for kind, text, _ in client.heard] == [("message", "")]


async def test_the_message_content_intent_needs_the_portals_switch(sim: DiscordSim) -> None:
    sim.message_content_allowed = False
    client = Listener(message_content=True)
    await client.login(sim.token)
    try:
        with pytest.raises(discord.PrivilegedIntentsRequired):
            await client.connect(reconnect=True)
    finally:
        await client.close()
    assert sim.identifies == []  # no session began
