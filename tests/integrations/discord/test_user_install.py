"""citebot installed to a person's account, used where its bot is not (another server, a group
DM), and in its own DM: every command may be installed so and used anywhere; where the bot is
not a member the answer and its cards come as the interaction's own followups, five at most,
and the cards that do not fit are listed, linked, in the last."""

from __future__ import annotations

from tests.integrations.discord.harness import Harness
from tests.sim.discord import DiscordSim, SimInteraction, SimMessage
from tests.sim.upstream import answer, magisterium_citation

FOLLOWUP = "POST /webhooks/{application_id}/{token}"
BY_BOT = (
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
)
THREADS = "POST /channels/{channel_id}/messages/{message_id}/threads"


def grace(sources: int, *, quote: str = "Grace is favor.") -> list[dict[str, object]]:
    return [
        magisterium_citation(
            n, f"{quote} ({n})", title=f"Source {n}", url=f"https://example.org/s/{n}"
        )
        for n in range(sources)
    ]


async def asked(
    harness: Harness, channel_id: int, question: str = "What is grace?"
) -> SimInteraction:
    done = len(harness.service.outcomes)
    interaction = await harness.sim.slash_command(
        "ask", {"question": question}, channel_id=channel_id
    )
    await harness.answers(done + 1)
    return interaction


def seen(sim: DiscordSim, interaction: SimInteraction) -> list[SimMessage]:
    return [m for m in sim.messages.values() if m.interaction is interaction]


async def test_every_command_may_be_installed_to_a_person_and_used_anywhere(
    harness: Harness, sim: DiscordSim
) -> None:
    assert list(sim.commands) == [
        "ask",
        "citebot",
        "Check with sources",
        "Check with sources privately",
    ]
    for command in sim.commands.values():
        assert (command["integration_types"], command["contexts"]) == ([0, 1], [0, 1, 2])
    assert sim.commands["Check with sources"]["name_localizations"]["fr"] == (
        "Vérifier avec les sources"
    )
    assert (
        sim.commands["citebot"].get("default_member_permissions") is None
    )  # forget-me is everyone's


async def test_in_a_server_without_the_bot_the_answer_and_its_cards_are_followups(
    harness: Harness, sim: DiscordSim
) -> None:
    sources = grace(3)
    harness.upstream.queue(
        answer(["Grace is a gift[^1], freely given[^2] and received[^3]."], sources)
    )
    interaction = await asked(harness, sim.foreign.id)
    assert interaction.owners == {"1": str(sim.user.id)}  # the asker's own install
    answer_message, cards, *rest = seen(sim, interaction)
    assert answer_message.content.startswith("Grace is a gift[¹](<https://example.org/s/0>)")
    assert [embed["title"] for embed in cards.embeds] == ["Source 0", "Source 1", "Source 2"]
    assert interaction.followups == 1 + len(rest)
    for route in (*BY_BOT, THREADS):
        assert sim.requests_to(route) == []  # no bot token where the bot is not


async def test_cards_past_five_followups_are_listed_with_their_links(
    harness: Harness, sim: DiscordSim
) -> None:
    """An answer of three messages (the response and two followups) leaves three followups:
    two of cards, then one listing the other sources, each linked."""
    paragraphs = [f"Part {n}: " + "grace builds on nature. " * 50 + "\n\n" for n in range(3)]
    markers = "".join(f"[^{n + 1}]" for n in range(20))
    long_quote = "Grace is favor, the free and undeserved help that God gives us. " * 14
    harness.upstream.queue(
        answer([*paragraphs, "Grace" + markers + "."], grace(20, quote=long_quote))
    )
    interaction = await asked(harness, sim.group_dm.id)
    shown = seen(sim, interaction)
    assert shown[2].content.endswith("[²⁰](<https://example.org/s/19>).")  # the answer whole
    assert interaction.followups == 5
    assert [r.status for r in sim.requests_to(FOLLOWUP)] == [200] * 5  # never a sixth (40094)
    assert [bool(m.embeds) for m in shown] == [False, False, False, True, True, False]
    carded = [embed["title"] for message in shown[3:5] for embed in message.embeds]
    assert carded == [f"Source {n}" for n in range(10)]
    summary = shown[-1].content.split("\n")
    assert summary[0] == "**…and 10 more sources**"
    assert summary[1:] == [
        f"- [{n + 1}] [Source {n}](<https://example.org/s/{n}>)" for n in range(10, 20)
    ]


async def test_a_long_answer_keeps_room_for_its_cards(harness: Harness, sim: DiscordSim) -> None:
    paragraphs = [f"Paragraph {n}: " + "grace builds on nature. " * 55 + "\n\n" for n in range(8)]
    harness.upstream.queue(answer([*paragraphs, "Said here[^1]."], grace(1)))
    interaction = await asked(harness, sim.foreign.id)
    shown = seen(sim, interaction)
    text = [m for m in shown if m.content and not m.embeds]
    assert len(text) == 3  # the response and two followups
    assert text[-1].content.endswith("Ask a follow-up question for the rest.*")
    assert [embed["title"] for embed in shown[-1].embeds] == ["Source 0"]
    assert interaction.followups == 3


async def test_in_the_bots_own_dm_ask_is_answered_with_its_cards(
    harness: Harness, sim: DiscordSim
) -> None:
    harness.upstream.queue(answer(["Grace is a gift[^1]."], grace(1)))
    interaction = await asked(harness, sim.dm.id)
    answer_message, cards = seen(sim, interaction)
    assert answer_message.content.startswith("Grace is a gift")
    assert cards.embeds[0]["title"] == "Source 0"
    assert interaction.owners == {"0": "0"}


async def test_a_check_in_a_server_without_the_bot_is_answered_in_followups(
    harness: Harness, sim: DiscordSim
) -> None:
    claim = await sim.user_message(sim.foreign.id, "Grace is earned.", user_id=sim.admin.id)
    harness.upstream.queue(answer(["The sources say it is a gift[^1]."], grace(1)))
    done = len(harness.service.outcomes)
    interaction = await sim.message_command("Check with sources", claim)
    await harness.answers(done + 1)
    quote, answer_message, cards = seen(sim, interaction)
    assert quote.content.endswith("> Grace is earned.")
    assert answer_message.content.startswith("The sources say it is a gift")
    assert cards.embeds[0]["title"] == "Source 0"
    assert sim.requests_to(THREADS) == []
