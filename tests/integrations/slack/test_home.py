"""Settings changed in Slack itself (issue 25), end to end: the real slack-bolt app in Socket
Mode against the simulated Slack, two workers on one real Redis.

A workspace admin opens citebot's App Home tab, looks at a channel (``app_context_changed``),
and changes its settings there; the next answers, whichever worker gives them, follow. Whoever
is not an admin is told so in their language, and nothing changes.
"""

from __future__ import annotations

import asyncio

from bot.i18n.wording import Wording
from bot.places import CACHE_TTL
from tests.integrations.slack.workspaces import (
    ADMIN,
    ASK,
    ASKER,
    LISTED,
    MEMBER,
    OWNER,
    QUIET,
    two_workers,
)
from tests.sim.upstream import answer


async def test_an_admins_changes_in_the_app_home_decide_the_next_answers_on_every_worker(
    redis_url: str,
) -> None:
    async with two_workers(redis_url) as workspace:
        sim, world = workspace.sim, workspace.world
        await sim.open_home(user=ADMIN)
        home = await workspace.home(ADMIN, "Deze workspace")  # the admin's Dutch
        assert "open dit tabblad terwijl je in het kanaal bent" in home.texts().lower()
        await sim.look_at(ASK, user=ADMIN)
        home = await workspace.home(ADMIN, f"Dit kanaal: <#{ASK}>")

        await sim.choose(home, "citebot_setting", "nl", block_id="channel:language")
        home = await workspace.home(ADMIN, "✓ Taal: Nederlands")
        await sim.choose(home, "citebot_setting", block_id="workspace:daily_questions")
        form = await workspace.modal(ADMIN, "Vragen per dag")
        sim.fill(form, "value", "2")
        await sim.submit(form)
        home = await workspace.home(ADMIN, "✓ Vragen per dag: 2")
        await sim.wait_for(lambda: sim.modals(ADMIN) == [])  # the form closed on its own
        await sim.choose(home, "citebot_setting", block_id="workspace:disclaimer")
        form = await workspace.modal(ADMIN)
        sim.fill(form, "value", "Generated: check with Fr. Anthony.")
        await sim.submit(form)
        await workspace.home(ADMIN, "Generated: check with Fr. Anthony.")
        await sim.look_at(QUIET, user=ADMIN)
        home = await workspace.home(ADMIN, f"Dit kanaal: <#{QUIET}>")
        await sim.choose(home, "citebot_setting", "off", block_id="channel:enabled")
        home = await workspace.home(ADMIN, "✓ citebot antwoordt hier: Uit")
        await asyncio.sleep(CACHE_TTL)  # every worker reads a place at most once a second

        world.upstream.queue(answer(["Genade is een gave."]), answer(["Genade werkt."]))
        asked = [await sim.mention(ASK, "恵みとは？", user=ASKER, via=via) for via in (0, 1)]
        for n, question in enumerate(asked, start=1):
            await world.answered(ASK, question.ts, requests=n)
        refused = await sim.mention(ASK, "もう一つ？", user=ASKER, via=0)
        quiet = await sim.mention(QUIET, "ここは？", user=ASKER, via=1)
        await sim.wait_for(lambda: sim.bot_replies(ASK, refused.ts) and not world.busy())
        await sim.wait_for(lambda: sim.bot_replies(QUIET, quiet.ts) and not world.busy())
        history = (await workspace.home(ADMIN)).texts()

    assert [sim.sent_to[q.envelope_ids[0]] for q in asked] == [0, 1]  # one answer each worker
    for question in asked:
        assert sim.statuses(ASK, question.ts)[0] == "denkt na…"
        [feedback] = world.cards_of(ASK, question.ts)
        assert (feedback.blocks or [])[-1]["elements"][0]["text"] == (
            "Generated: check with Fr. Anthony."
        )
    assert all("speaks Dutch" in q[0]["content"] for q in world.upstream.questions)
    [limit] = sim.bot_replies(ASK, refused.ts)
    assert limit.shown.startswith("De daglimiet voor vragen hier (2) is bereikt.")
    [off] = sim.bot_replies(QUIET, quiet.ts)
    assert off.shown == Wording("en", "slack").not_allowed_here()
    assert len(world.upstream.requests) == 2
    assert f"<@{ADMIN}>" in history
    assert "Vragen per dag" in history


async def test_whoever_is_not_an_admin_is_told_so_and_nothing_changes(redis_url: str) -> None:
    async with two_workers(redis_url) as workspace:
        sim = workspace.sim
        await sim.open_home(user=MEMBER)
        home = await workspace.home(MEMBER, "Nur die Admins hier")  # the member's German
        assert "Schreiben Sie citebot mit einer Erwähnung in einem Channel" in home.texts()
        [forget] = home.elements()  # nothing to change: only their own data to delete
        assert forget["action_id"] == "citebot_forget"
        command = await sim.command(channel=ASK, user=MEMBER)
        await sim.acked(command)
        await sim.wait_for(lambda: sim.ephemerals(MEMBER))
        [refused] = sim.ephemerals(MEMBER)
        assert refused.shown == Wording("de").admins_only()
        assert sim.modals(MEMBER) == []

        await sim.open_home(user=ADMIN)
        admins = await workspace.home(ADMIN, "Deze workspace")
        forged = await sim.choose(
            admins, "citebot_setting", "off", block_id="workspace:enabled", user=MEMBER
        )
        await sim.acked(forged)
        await sim.open_home(user=OWNER)
        owners = await workspace.home(OWNER, "Cet espace de travail")
    assert "Modifications récentes" not in owners.texts()  # no change was made
    assert "Activé · _par défaut_" in owners.texts().replace("\u00a0", " ")


async def test_a_listed_user_may_and_a_bad_value_is_refused_under_its_field(
    redis_url: str,
) -> None:
    """``/citebot`` opens the page as a modal; a number's form refuses what is no number in
    the admin's language, under the field, and keeps the form open; a good one brings the page
    back, changed. SLACK_ADMIN_USERS let a member who is no workspace admin do it."""
    async with two_workers(redis_url) as workspace:
        sim = workspace.sim
        command = await sim.command(channel=ASK, user=LISTED)
        await sim.acked(command)
        page = await workspace.modal(LISTED, f"This channel: <#{ASK}>")
        await sim.choose(page, "citebot_setting", block_id="channel:daily_questions_per_person")
        form = await workspace.modal(LISTED, "A whole number from 1 to 1,000,000,000")
        sim.fill(form, "value", "lots")
        await sim.submit(form)
        await sim.wait_for(lambda: bool(sim.modals(LISTED)[-1].errors))
        [error] = sim.modals(LISTED)[-1].errors.values()
        assert error == Wording("en").setting_count(
            "daily_questions_per_person", 1_000_000_000, "'lots'"
        )
        form = sim.modals(LISTED)[-1]
        sim.fill(form, "value", "5")
        await sim.submit(form)
        page = await workspace.modal(LISTED, "✓ Questions a day per person: 5")
        await sim.choose(page, "citebot_setting", "on", block_id="channel:auto_answer")
        page = await workspace.modal(LISTED, "✓ Answer every new message: On")
        await sim.choose(page, "citebot_setting", "follow", block_id="channel:auto_answer")
        page = await workspace.modal(LISTED, "✓ Answer every new message: As the workspace (Off)")
        await sim.choose(page, "citebot_setting", "follow", block_id="channel:auto_answer")
        page = await workspace.modal(LISTED, "Nothing changed.")
    assert len(sim.modals(LISTED)) == 1
    assert f"<@{LISTED}>" in page.texts()
