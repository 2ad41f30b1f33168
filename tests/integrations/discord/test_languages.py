"""A Discord user reads citebot's own words in the language their Discord client is set to."""

from __future__ import annotations

from tests.integrations.discord.harness import Harness
from tests.sim.upstream import Cut, Json, Stream, answer, chunk, magisterium_citation

CITED = answer(
    ["Genade is een gave", " van God[^1]."],
    [magisterium_citation(0, "Genade is gunst, de vrije en onverdiende hulp.",
                          title="Catechismus", url="https://example.org/ccc/1996"),
     magisterium_citation(1, "Heiligmakende genade is een blijvende gave.",
                          title="Compendium", url="https://example.org/comp/423")],
    related=["Wat is heiligmakende genade?"])


async def test_a_dutch_user_gets_dutch_cards_notes_and_thanks(harness: Harness) -> None:
    harness.upstream.queue(CITED)
    message = await harness.ask("Wat is genade?", locale="nl")

    assert "Genade is een gave van God" in message.content
    thread = harness.sim.thread_messages(message.id)
    embeds = [e for m in thread for e in m.embeds]
    assert embeds[0]["fields"][0]["name"] == "Onderbouwt"
    assert embeds[1]["title"] == "Ook geraadpleegd"
    assert [m.content for m in thread if m.buttons()] == ["**Verwante vragen**"]

    click = await harness.sim.click_button(message.id, "citebot:feedback:up", locale="nl")
    await harness.sim.until(lambda: click.original is not None)
    assert click.original is not None
    assert click.original.content == "Bedankt voor je feedback!"

    harness.upstream.queue(Json(500, {"error": {"message": "boom"}}))
    failed = await harness.ask("Wat is genade?", locale="nl")
    assert failed.content == ("Ik kon de antwoorddienst op dit moment niet bereiken. "
                              "Probeer het over een minuut opnieuw.")

    harness.upstream.queue(Stream((chunk("Genade is een gave"), chunk(" van God."), Cut())))
    cut = await harness.ask("Wat is genade?", locale="nl")
    assert "Genade is een gave van God." in cut.content
    assert "*Het antwoord werd onderbroken voordat het klaar was;" in cut.content


async def test_a_regional_locale_finds_its_language_and_an_unknown_one_gets_the_default(
        harness: Harness) -> None:
    harness.upstream.queue(Json(500), Json(500), Json(500))
    brazil = await harness.ask("O que é a graça?", locale="pt-BR")
    assert brazil.content.startswith("Não consegui acessar o serviço de respostas agora.")
    japan = await harness.ask("恵みとは何ですか？", locale="ja")
    assert japan.content.startswith("I could not reach the answer service just now.")
    american = await harness.ask("What is grace?", locale="en-US")
    assert american.content == japan.content
