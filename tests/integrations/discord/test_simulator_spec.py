"""The simulated Discord refuses what Discord's official spec and docs refuse, and shows what a
person would see: discord.py's own HTTP client sends each body over loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord.http import HTTPClient, Route

from tests.sim.discord import DiscordSim, SimInteraction
from tests.sim.discord.schema import operation

GOOD_URLS = [
    "https://example.org/ccc/1996",
    "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%C3%BCn%C3%AF",
    "https://example.org/a%20b?x=(1)&y=~",
]
BAD_URLS = {
    "2,100 characters": "https://example.org/" + "a" * 2080,
    "non-ASCII": "https://例え.jp/パス?q=ünï",
    **{f"raw {c!r}": f"https://example.org/a{c}b" for c in '|{}^`"<>\\'},
    "bad % escape": "https://example.org/100%zz",
    "space": "https://example.org/a b",
}


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


def _create(sim: DiscordSim) -> Route:
    return Route("POST", "/channels/{channel_id}/messages", channel_id=sim.text.id)


def _callback(interaction: SimInteraction) -> Route:
    return Route(
        "POST",
        "/interactions/{interaction_id}/{interaction_token}/callback",
        interaction_id=interaction.id,
        interaction_token=interaction.token,
    )


async def _deferred(sim: DiscordSim, http: HTTPClient, *, private: bool) -> SimInteraction:
    interaction = await sim.slash_command("ask", {"question": "grace"})
    body = {"type": 5, "data": {"flags": 64 if private else 0}}
    await http.request(_callback(interaction), json=body)
    return interaction


def _original(sim: DiscordSim, interaction: SimInteraction) -> Route:
    return Route(
        "PATCH",
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        webhook_id=sim.application_id,
        webhook_token=interaction.token,
    )


async def test_every_route_that_takes_a_body_is_checked_against_the_spec(sim: DiscordSim) -> None:
    assert sim._runner is not None
    routes = [
        (route.method, str(route.resource.canonical).removeprefix("/api/v10"))
        for route in sim._runner.app.router.routes()
        if route.method in ("POST", "PATCH", "PUT") and route.resource is not None
    ]
    assert len(routes) >= 8
    assert [r for r in routes if operation(*r) is None] == []


@pytest.mark.parametrize("url", BAD_URLS.values(), ids=BAD_URLS.keys())
async def test_an_embed_url_the_spec_refuses_loses_the_message(
    sim: DiscordSim, http: HTTPClient, url: str
) -> None:
    body = {"embeds": [{"title": "Catechism", "url": url}], "allowed_mentions": {"parse": []}}
    refused = await _refused(http, _create(sim), body)
    assert (refused.status, refused.code) == (400, 50035)
    [request] = [r for r in sim.requests if r.form_errors]
    [error] = request.form_errors["embeds"]["0"]["url"]["_errors"]
    assert error["code"] in ("URL_TYPE_INVALID_URL", "BASE_TYPE_MAX_LENGTH")
    assert sim.channel_messages(sim.text.id) == []


@pytest.mark.parametrize("url", GOOD_URLS)
async def test_a_well_formed_embed_url_is_shown(
    sim: DiscordSim, http: HTTPClient, url: str
) -> None:
    await http.request(_create(sim), json={"embeds": [{"title": "Catechism", "url": url}]})
    [message] = sim.channel_messages(sim.text.id)
    assert message.embeds == [{"title": "Catechism", "url": url}]


async def test_every_body_is_checked_on_every_route(sim: DiscordSim, http: HTTPClient) -> None:
    """A callback, a command sync and a thread: each refused by the spec, each accepted when
    it keeps to it."""
    interaction = await sim.slash_command("ask", {"question": "grace"})
    callback = _callback(interaction)
    bad_card = {"type": 4, "data": {"embeds": [{"url": "https://例え.jp"}]}}
    assert (await _refused(http, callback, bad_card)).code == 50035
    assert interaction.response_type is None, "a refused callback acknowledges nothing"
    await http.request(callback, json={"type": 4, "data": {"content": "Grace is a gift."}})
    assert interaction.original is not None
    assert interaction.original.content == "Grace is a gift."

    commands = Route("PUT", "/applications/{app_id}/commands", app_id=sim.application_id)
    too_long = [{"name": "a" * 33, "description": "Ask", "type": 1}]
    assert (await _refused(http, commands, too_long)).code == 50035
    await http.request(commands, json=[{"name": "ask", "description": "Ask", "type": 1}])
    assert list(sim.commands) == ["ask"]

    threads = Route(
        "POST",
        "/channels/{channel_id}/messages/{message_id}/threads",
        channel_id=sim.text.id,
        message_id=interaction.original.id,
    )
    assert (await _refused(http, threads, {"name": ""})).code == 50035
    await http.request(threads, json={"name": "grace", "auto_archive_duration": 1440})
    assert sim.thread_of(interaction.original.id) is not None


async def test_embeds_sharing_a_url_show_as_one(sim: DiscordSim, http: HTTPClient) -> None:
    """Discord deduplicates embeds by URL: only the first of those sharing one is shown."""
    same = "https://example.org/ccc"
    cards = [
        {"title": "Catechism 1996", "url": same},
        {"title": "Catechism 1997", "url": same},
        {"title": "Catechism 2000", "url": "https://example.org/ccc/2000"},
        {"title": "No link"},
    ]
    await http.request(_create(sim), json={"embeds": cards})
    [message] = sim.channel_messages(sim.text.id)
    assert [e["title"] for e in message.embeds] == ["Catechism 1996", "Catechism 2000", "No link"]
    assert len(message.sent_embeds) == 4


async def test_an_edit_sets_only_the_documented_flags(sim: DiscordSim, http: HTTPClient) -> None:
    interaction = await _deferred(sim, http, private=True)
    edit = _original(sim, interaction)
    refused = await _refused(http, edit, {"content": "Grace.", "flags": 64 | 4})
    assert (refused.status, refused.code) == (400, 50035)
    [request] = [r for r in sim.requests if r.form_errors]
    assert request.form_errors["flags"]["_errors"][0]["code"] == "MESSAGE_FLAGS_INVALID"
    assert interaction.original is not None
    assert interaction.original.loading, "the refused edit changed nothing"

    await http.request(edit, json={"content": "Grace.", "flags": 4})
    assert interaction.original.content == "Grace."
    assert interaction.original.ephemeral, "a message's ephemeral state stays as deferred"


async def test_a_bot_edit_sets_only_the_documented_flags(sim: DiscordSim, http: HTTPClient) -> None:
    await http.request(_create(sim), json={"content": "Grace."})
    [message] = sim.channel_messages(sim.text.id)
    edit = Route(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=sim.text.id,
        message_id=message.id,
    )
    assert (await _refused(http, edit, {"content": "Grace!", "flags": 4096})).code == 50035
    await http.request(edit, json={"content": "Grace!", "flags": 4})
    assert message.content == "Grace!"


def _button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": "Ask", "custom_id": custom_id}


BEYOND_THE_SPEC = {
    "content over a bot's 2,000": ({"content": "x" * 2001}, {"content": "x" * 2000}, "content"),
    "6,000 across embeds": (
        {"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]},
        {"embeds": [{"description": "x" * 4000}, {"description": "x" * 2000}]},
        "embeds",
    ),
    "an empty field value": (
        {"embeds": [{"fields": [{"name": "Quoted", "value": " "}]}]},
        {"embeds": [{"fields": [{"name": "Quoted", "value": "Grace."}]}]},
        "embeds",
    ),
    "a duplicated custom_id": (
        {"components": [{"type": 1, "components": [_button("up"), _button("up")]}]},
        {"components": [{"type": 1, "components": [_button("up"), _button("down")]}]},
        "components",
    ),
}


@pytest.mark.parametrize(
    ("bad", "good", "field"), BEYOND_THE_SPEC.values(), ids=BEYOND_THE_SPEC.keys()
)
async def test_documented_rules_the_spec_cannot_hold(
    sim: DiscordSim, http: HTTPClient, bad: dict[str, Any], good: dict[str, Any], field: str
) -> None:
    assert (await _refused(http, _create(sim), bad)).code == 50035
    [request] = [r for r in sim.requests if r.form_errors]
    assert list(request.form_errors) == [field]
    await http.request(_create(sim), json=good)
    assert len(sim.channel_messages(sim.text.id)) == 1
