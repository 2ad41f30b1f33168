"""The report in the App Home, end to end: questions asked, voted on and refused through the
simulated Slack, two workers on one real Redis; a workspace admin's Home tab reports them in
their language, for the period they choose; whoever else opens it sees no report."""

from __future__ import annotations

from bot.i18n.wording import Wording
from bot.places import Place
from tests.integrations.slack.workspaces import (
    ADMIN,
    ASK,
    ASKER,
    MEMBER,
    QUIET,
    Workspace,
    asked,
    two_workers,
    voted_down,
)
from tests.places import at
from tests.sim.slack.views import StoredView

DUTCH = Wording("nl", "slack")
PERIOD = "citebot_report_period"


async def asked_and_voted(workspace: Workspace) -> None:
    """Three answers (one question twice, in two channels), a 👎 with its reason, a 👍, and a
    question refused for the per-person daily limit."""
    sim = workspace.sim
    await workspace.service.places.set(
        at(str(Place("slack", workspace.team))), "daily_questions_per_person", "2", by=ADMIN
    )
    grace = await asked(workspace, "What is grace?", user=MEMBER)
    await asked(workspace, "what is  GRACE", user=ASKER, channel=QUIET)
    hope = await asked(workspace, "What is *hope* _now_?", user=ASKER)
    await voted_down(workspace, grace, user=MEMBER)
    await sim.click("citebot_feedback", "positive", channel=ASK, message_ts=hope.ts, user=ASKER)
    await sim.wait_for(lambda: len(sim.ephemerals(ASKER)) == 1)
    refused = await sim.mention(ASK, "One more?", user=ASKER)
    await sim.wait_for(lambda: sim.bot_replies(ASK, refused.ts) and not workspace.world.busy())


async def published(workspace: Workspace, user: str, times: int) -> StoredView:
    """``user``'s Home tab once citebot has published it ``times`` times."""
    sim = workspace.sim

    def count() -> int:
        return sum(c.ok and c.args.get("user_id") == user for c in sim.calls_to("views.publish"))

    await sim.wait_for(lambda: count() >= times)
    home = sim.home(user)
    assert home is not None
    return home


async def test_an_admin_reads_what_was_asked_in_their_language_for_the_period_they_choose(
    redis_url: str,
) -> None:
    async with two_workers(redis_url, ANSWER_LOG="full") as workspace:
        await asked_and_voted(workspace)
        sim = workspace.sim
        await sim.open_home(user=ADMIN)
        labels = DUTCH.report_labels
        home = await workspace.home(ADMIN, labels.top_questions)
        week = home.texts()
        [period] = [e for e in home.elements() if e["action_id"] == PERIOD]
        assert period["initial_option"]["value"] == "7d"
        assert period["initial_option"]["text"]["text"] == DUTCH.report_periods()["7d"]

        await sim.choose(home, PERIOD, "today")
        home = await published(workspace, ADMIN, 2)
        today = home.texts()
        [period] = [e for e in home.elements() if e["action_id"] == PERIOD]
        assert period["initial_option"]["text"]["text"] == DUTCH.report_periods()["today"]

    reasons = DUTCH.reason_labels.reasons
    for said in (week, today):
        assert f"{labels.outcomes['answered']}: *3*" in said
        assert f"{labels.refusals['daily_questions_per_person']}: *1*" in said
        assert "👍 *1* · 👎 *1*" in said
        assert f"{reasons['does_not_answer']}: *1*" in said
        assert "1. What is grace? · 2" in said  # asked twice, as its first asker wrote it
        assert "2. What is *hope* _now_? · 1" in said  # as written, in plain text
        assert f"<#{ASK}> · *3*" in said
        assert f"<#{QUIET}> · *1*" in said
        assert labels.tokens in said
        assert "p50" in said


async def test_whoever_is_not_an_admin_sees_no_report(redis_url: str) -> None:
    async with two_workers(redis_url, ANSWER_LOG="full") as workspace:
        await asked(workspace, "What is grace?", user=MEMBER)
        sim = workspace.sim
        await sim.open_home(user=MEMBER)
        members = await workspace.home(MEMBER, "citebot")
        await sim.open_home(user=ADMIN)
        admins = await workspace.home(ADMIN, DUTCH.report_labels.top_questions)
        members_page, members_elements = members.texts(), members.elements()
        await sim.choose(admins, PERIOD, "30d", user=MEMBER)  # forged from an admin's page
        forged = await published(workspace, MEMBER, 2)
    german = Wording("de", "slack").report_labels
    assert Wording("de", "slack").forget_me_button() in members_page
    for said in (members_page, forged.texts()):
        assert german.top_questions not in said
        assert "What is grace?" not in said
    for elements in (members_elements, forged.elements()):
        assert all(e["action_id"] != PERIOD for e in elements)


async def test_a_redraw_shows_the_last_minutes_report_and_opening_the_tab_reads_it_again(
    redis_url: str,
) -> None:
    """Changing a setting redraws the Home tab without reading the report again (an admin
    moving between channels would read it every few seconds); opening the tab reads it."""
    async with two_workers(redis_url, workers=1, ANSWER_LOG="full") as workspace:
        sim = workspace.sim
        await asked(workspace, "What is grace?", user=MEMBER)
        await sim.open_home(user=ADMIN)
        labels = DUTCH.report_labels
        answered = f"{labels.outcomes['answered']}: *1*"
        home = await workspace.home(ADMIN, answered)
        await asked(workspace, "What is hope?", user=MEMBER)
        await sim.choose(home, "citebot_setting", "on", block_id="workspace:auto_answer")
        redrawn = await workspace.home(ADMIN, "✓")
        assert answered in redrawn.texts()  # the report read a moment ago
        await sim.open_home(user=ADMIN)
        reopened = await workspace.home(ADMIN, f"{labels.outcomes['answered']}: *2*")
    assert "What is hope?" in reopened.texts()
