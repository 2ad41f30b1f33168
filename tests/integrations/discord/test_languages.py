"""A Discord user reads citebot's own words in the language their Discord client is set to."""

from __future__ import annotations

import pytest

from tests.integrations.discord.harness import Harness
from tests.sim.upstream import Cut, Json, Stream, answer, chunk, magisterium_citation

CITED = answer(
    ["Genade is een gave", " van God[^1]."],
    [
        magisterium_citation(
            0,
            "Genade is gunst, de vrije en onverdiende hulp.",
            title="Catechismus",
            url="https://example.org/ccc/1996",
        ),
        magisterium_citation(
            1,
            "Heiligmakende genade is een blijvende gave.",
            title="Compendium",
            url="https://example.org/comp/423",
        ),
    ],
    related=["Wat is heiligmakende genade?"],
)


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
    assert failed.content == (
        "Ik kon de antwoorddienst op dit moment niet bereiken. Probeer het over een minuut opnieuw."
    )

    harness.upstream.queue(Stream((chunk("Genade is een gave"), chunk(" van God."), Cut())))
    cut = await harness.ask("Wat is genade?", locale="nl")
    assert "Genade is een gave van God." in cut.content
    assert "*Het antwoord werd onderbroken voordat het klaar was;" in cut.content


async def test_a_regional_locale_finds_its_language_and_an_unknown_one_gets_the_default(
    harness: Harness,
) -> None:
    harness.upstream.queue(Json(500), Json(500), Json(500))
    brazil = await harness.ask("O que é a graça?", locale="pt-BR")
    assert brazil.content.startswith("Não consegui acessar o serviço de respostas agora.")
    japan = await harness.ask("恵みとは何ですか？", locale="ja")
    assert japan.content.startswith("I could not reach the answer service just now.")
    american = await harness.ask("What is grace?", locale="en-US")
    assert american.content == japan.content


QUOTES = (
    "A graça é um dom gratuito de Deus — «favor e socorro».",
    "Gratia non tollit naturam, sed perficit eam: „la grâce“ achève la nature.",
)


@pytest.mark.parametrize(
    ("locale", "supports", "language"),
    [
        ("pt-BR", "Fundamenta", "Portuguese (Brazil)"),
        ("zh-CN", "佐证", "Chinese (Simplified, China)"),
    ],
)
async def test_the_users_locale_not_the_guilds_names_the_language_upstream_and_on_cards(
    harness: Harness, locale: str, supports: str, language: str
) -> None:
    """The simulated guild's locale is en-US; the interaction's ``locale`` is the user's."""
    harness.upstream.queue(
        answer(
            ["A graça é um dom[^1]", " que aperfeiçoa a natureza[^2]."],
            [
                magisterium_citation(0, QUOTES[0], title="Catecismo"),
                magisterium_citation(1, QUOTES[1], title="Summa"),
            ],
        )
    )
    message = await harness.ask("O que é a graça?", locale=locale)

    [system, question] = harness.upstream.questions[0]
    assert system["role"] == "system"
    assert f"answer in {language}" in system["content"]
    assert question == {"role": "user", "content": "O que é a graça?"}
    embeds = [e for m in harness.sim.thread_messages(message.id) for e in m.embeds]
    assert embeds[0]["fields"][0]["name"] == supports
    assert [e["description"].encode() for e in embeds[:2]] == [
        f"> {quote}".encode() for quote in QUOTES
    ]


async def test_a_language_without_a_catalogue_still_asks_the_upstream_for_it(
    harness: Harness,
) -> None:
    harness.upstream.queue(CITED)
    message = await harness.ask("恵み", locale="ja")
    [system, _question] = harness.upstream.questions[0]
    assert "answer in Japanese" in system["content"]
    embeds = [e for m in harness.sim.thread_messages(message.id) for e in m.embeds]
    assert embeds[0]["fields"][0]["name"] == "Supports"  # citebot's own words: the default


async def test_an_english_user_sends_the_question_alone(harness: Harness) -> None:
    harness.upstream.queue(CITED)
    await harness.ask("What is grace?", locale="en-GB")
    assert harness.upstream.questions[0] == [{"role": "user", "content": "What is grace?"}]
