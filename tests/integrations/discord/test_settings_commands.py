"""``/citebot settings`` in Discord: a server's admin changes citebot's settings there (select
menus for the choices, a modal for what is written), privately and in their own language, and
the next answer follows; anyone else is refused in theirs and nothing changes."""

from __future__ import annotations

import re

from bot.i18n.wording import Wording
from bot.places import Places
from integrations.discord.markdown import DiscordMarkdown
from tests.integrations.discord.admins import change, run_settings
from tests.integrations.discord.harness import Harness, running_on_redis
from tests.sim.discord import DiscordSim
from tests.sim.discord.model import EPHEMERAL, MEMBER_PERMISSIONS
from tests.sim.redis_server import RedisProcess
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

FRENCH = Wording(language="fr")
GERMAN = Wording(language="de")


def escaped(words: str) -> str:
    """citebot's words as Discord shows them literally (``daily\\_questions``)."""
    return DiscordMarkdown().escape(words, line_start=True)


def server(sim: DiscordSim) -> str:
    return f"discord:{sim.guild_id}"


def places(harness: Harness) -> Places:
    return harness.service.places


async def test_the_admins_choices_decide_the_next_answers(
    harness: Harness, sim: DiscordSim
) -> None:
    """language and private_by_default in menus, daily_questions and the disclaimer in modals;
    enabled off for one channel: each applies to the next question."""
    said = await change(sim, "language", "fr", locale="de")
    assert said == GERMAN.setting_saved("`language`", "fr")  # the admin's own language
    assert await change(sim, "private_by_default", "on") == "`private_by_default` is now on here."
    await change(sim, "daily_questions", "2")
    line = "Answers are generated and can be wrong: ask @everyone's priest."
    await change(sim, "disclaimer", line)

    harness.upstream.queue(answer(["La grâce est un don."]))
    first = await harness.ask("恵みとは何ですか？", private=None, locale="ja")
    assert "speaks French" in harness.upstream.questions[0][0]["content"]
    assert first.flags & EPHEMERAL  # private, as the server's admins chose
    assert first.content.startswith("La grâce est un don.\n\n*Answers are generated")
    assert "@\u200beveryone" in first.content
    harness.upstream.queue(answer(["Second."]))
    await harness.ask("Again?")
    third = await harness.ask("And a third?")
    assert third.content.startswith("Today's limit of questions here (2) has been reached.")
    assert len(harness.upstream.requests) == 2

    said = await change(sim, "enabled", "off", where="channel")
    assert said == "`enabled` is now off here."
    refused = await sim.slash_command("ask", {"question": "Still there?"})
    await sim.until(lambda: refused.original is not None)
    assert refused.original is not None
    assert refused.original.content == Wording(platform="discord").not_allowed_here()
    assert len(harness.upstream.requests) == 2


async def test_every_answer_is_private_and_the_menu_offers_each_choice_in_its_own_words(
    harness: Harness, sim: DiscordSim
) -> None:
    opened = await run_settings(sim, "set", {"setting": "language"})
    assert opened.original is not None
    assert opened.original.ephemeral
    [menu] = opened.original.buttons()
    labels = {option["value"]: option["label"] for option in menu["options"]}
    assert (labels["fr"], labels["de"], labels["zh_Hant"]) == ("Français", "Deutsch", "中文 (繁體)")
    assert [option["value"] for option in menu["options"] if option.get("default")] == ["en"]
    shown = await run_settings(sim, "show")
    history = await run_settings(sim, "history")
    for interaction in (shown, history):
        assert interaction.acks[0] == {"type": 5, "data": {"flags": EPHEMERAL}}
        assert interaction.original is not None
        assert interaction.original.ephemeral
    assert sim.channel_messages(sim.text.id) == []  # nothing anyone else sees


async def test_show_history_and_unset_speak_of_each_setting_and_where_it_was_set(
    harness: Harness, sim: DiscordSim
) -> None:
    await change(sim, "language", "fr")
    await change(sim, "quote_check", "off", where="channel")
    shown = await run_settings(sim, "show")
    assert shown.original is not None
    lines = shown.original.content.split("\n")
    assert lines[0] == f"**<#{sim.text.id}>**"
    assert "- `language` **fr** · Sim Guild" in lines
    assert f"- `quote_check` **off** · <#{sim.text.id}>" in lines
    assert "- `enabled` **on** · default" in lines

    history = await run_settings(sim, "history")
    assert history.original is not None
    changed = history.original.content.split("\n")[1:]
    assert [re.sub(r"<t:\d+:f>", "WHEN", line) for line in changed] == [
        f"- WHEN · <@{sim.admin.id}> · Sim Guild · `language`: not set → fr",
        f"- WHEN · <@{sim.admin.id}> · <#{sim.text.id}> · `quote_check`: not set → off",
    ]

    unset = await run_settings(sim, "unset", {"setting": "language"})
    assert unset.original is not None
    assert unset.original.content == "`language` here now follows the default (en)."
    assert (await places(harness).effective("discord", str(sim.guild_id))).language == "en"


async def test_a_member_is_refused_in_their_language_and_nothing_changes(
    harness: Harness, sim: DiscordSim
) -> None:
    for subcommand, options in [
        ("set", {"setting": "enabled"}),
        ("unset", {"setting": "language"}),
        ("show", {}),
        ("history", {}),
    ]:
        refused = await run_settings(sim, subcommand, options, user_id=sim.user.id, locale="fr")
        assert refused.original is not None
        assert refused.original.ephemeral
        assert refused.original.content == FRENCH.admins_only()
        assert refused.modal is None
        assert not refused.original.components
    assert await places(harness).history() == []


async def test_an_admin_demoted_before_choosing_or_sending_changes_nothing(
    harness: Harness, sim: DiscordSim
) -> None:
    menu = await run_settings(sim, "set", {"setting": "enabled"})
    modal = await run_settings(sim, "set", {"setting": "disclaimer"})
    sim.admin.permissions = MEMBER_PERMISSIONS  # their role taken away meanwhile
    assert menu.original is not None
    picked = await sim.choose(
        menu.original.id, "citebot:set:server:enabled", ["off"], user_id=sim.admin.id
    )
    sent = await sim.submit_modal(modal, {"value": "Ask a priest."})
    await sim.until(lambda: picked.original is not None and sent.original is not None)
    assert picked.original is not None
    assert sent.original is not None
    assert picked.original.content == sent.original.content == Wording().admins_only()
    assert await places(harness).history() == []


async def test_a_value_that_is_not_one_is_said_and_changes_nothing(
    harness: Harness, sim: DiscordSim
) -> None:
    said = await change(sim, "daily_questions", "lots", locale="fr")
    assert said == escaped(FRENCH.setting_count("daily_questions", 1_000_000_000, "'lots'"))
    said = await change(sim, "disclaimer", "x" * 150 + "\u0007")
    assert said == escaped(Wording().setting_one_line("disclaimer"))
    assert await places(harness).history() == []


async def test_in_a_thread_the_channel_is_its_parent_and_in_a_dm_there_are_no_settings(
    harness: Harness, sim: DiscordSim
) -> None:
    cited = magisterium_citation(0, "Grace is favor.", url="https://example.org/ccc/1996")
    harness.upstream.queue(answer(["Grace is a gift[^1]."], [cited]))
    message = await harness.ask("What is grace?")
    thread = sim.thread_of(message.id)
    assert thread is not None
    await change(sim, "quote_check", "off", where="channel", channel_id=thread.id)
    here = await places(harness).effective("discord", str(sim.guild_id), str(sim.text.id))
    assert (here.quote_check, str(here.set_in["quote_check"])) == (
        False,
        f"{server(sim)}/{sim.text.id}",
    )

    in_dm = await run_settings(sim, "show", channel_id=sim.dm.id, locale="fr")
    assert in_dm.original is not None
    assert in_dm.original.content == FRENCH.no_place_settings_here()


async def test_a_store_that_does_not_answer_is_said_and_nothing_is_pretended(
    sim: DiscordSim, upstream: UpstreamSim, redis_process: RedisProcess
) -> None:
    async with running_on_redis(sim, upstream, redis_process.url, namespace="admin"):
        redis_process.kill()
        said = await change(sim, "enabled", "off", locale="fr")
    assert said == FRENCH.could_not_save()


async def test_ask_in_a_forum_post_follows_the_forums_settings(
    harness: Harness, sim: DiscordSim
) -> None:
    line = "Answers in this forum are generated."
    await change(sim, "disclaimer", line, where="channel", channel_id=sim.forum_post.id)
    harness.upstream.queue(answer(["Grace is a gift."]))
    shown = await harness.ask("What is grace?", channel_id=sim.forum_post.id)
    assert shown.content.endswith(f"*{line}*")
