"""``/report`` in a group, end to end: its administrators read what was asked there, votes and
the 👎's reasons (chosen with the buttons a 👎 shows in place of 👍/👎), in their language, for
the period they pick with a button; a member is refused and shown nothing; the report of a
group at its widest keeps Telegram's 4,096 characters in every language."""

from __future__ import annotations

import pytest

from bot.i18n.conversation_words import REASONS
from bot.i18n.wording import LANGUAGES, Wording
from integrations.telegram.markdown import TelegramHTML
from integrations.telegram.report_view import report_text
from tests.bot.ops.reports import widest_report
from tests.integrations.telegram.payloads import validate_telegram_payload
from tests.integrations.telegram.world import World
from tests.sim.upstream import CITED, answer


async def test_an_admin_reads_the_groups_report_and_a_member_is_refused(world: World) -> None:
    world.upstream.queue(CITED, answer(["Mercy is love."]))
    alice, owner = world.person("Alice"), world.person("Owner", language_code="fr")
    group = await world.group()
    for text in ("Why is life sacred?", "What is mercy?"):
        await world.tg.user_says(alice, group, f"/ask@citebot {text}")
        await world.answered(len(world.upstream.requests) + 1)
    first = next(m for m in world.tg.bot_messages(group) if m.readable.startswith("Life"))
    down = await world.tg.click(alice, first, "fb:down")
    await world.tg.until(lambda: down.answered and len(first.buttons) == 6)
    assert down.answer["text"] == "What was wrong with this answer?"
    labels = Wording().reason_labels.reasons
    assert first.buttons[2:] == [(labels[r], f"fr:{r}") for r in REASONS]
    why = await world.tg.click(alice, first, "fr:quote_not_on_page")
    await world.tg.until(lambda: why.answered and len(first.buttons) == 2)
    assert why.answer["text"] == Wording().reason_thanks()
    await world.idle()

    refused = await world.tg.user_says(alice, group, "/report@citebot")
    asked = await world.tg.user_says(owner, group, "/report@citebot today")
    await world.idle()
    [no] = world.answer_to(refused)
    assert no.readable == Wording().report_admins_only()
    [shown] = world.answer_to(asked)
    french = Wording(language="fr")
    labels_fr = french.report_labels
    text = shown.readable
    assert text.startswith(f"**{french.report_period('Parish', '', '').split(',')[0]}")
    assert f"{labels_fr.outcomes['answered']}: **2**" in text
    assert "👍 **0** · 👎 **1**" in text
    assert f"{french.reason_labels.reasons['quote_not_on_page']}: **1**" in text
    assert french.questions_not_kept(world.config.settings.answer_log) in text
    periods = french.report_periods()
    assert shown.buttons == [
        ("✓ " + periods["today"], "rp:today"),
        (periods["7d"], "rp:7d"),
        (periods["30d"], "rp:30d"),
    ]
    member_press = await world.tg.click(alice, shown, "rp:30d")
    await world.tg.until(lambda: member_press.answered)
    assert member_press.answer["text"] == Wording().report_admins_only()
    pressed = await world.tg.click(owner, shown, "rp:30d")
    await world.tg.until(lambda: pressed.answered and shown.buttons[2][0].startswith("✓"))
    assert f"{labels_fr.outcomes['answered']}: **2**" in shown.readable


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_report_at_its_widest_keeps_telegrams_limit(language: str) -> None:
    wording = Wording(language=language, platform="telegram")
    report = widest_report("telegram:-1001")
    text = report_text(report, group="@parish " + "P" * 200, wording=wording, kept="full")
    assert TelegramHTML().length(text) <= 4096
    payload = {"method": "sendMessage", "text": text, "parse_mode": "HTML"}
    assert validate_telegram_payload(payload) == []
    assert "10." in text  # every question listed
