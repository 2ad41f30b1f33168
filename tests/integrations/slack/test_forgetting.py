"""Forgetting on Slack, end to end: the real slack-bolt app against the simulated Slack, on a
real Redis read back key by key. "Delete my data" (everyone's Home tab, ``/citebot forget-me``)
asks first in the person's language, then deletes everything kept about whoever confirms; a
workspace that uninstalls the app (``app_uninstalled``, ``tokens_revoked`` with the bot token)
leaves nothing of itself behind, and a person's own token revoked deletes nothing."""

from __future__ import annotations

import asyncio
import time

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
from tests.patience import PATIENCE
from tests.sim.redis_server import RedisProcess
from tests.sim.slack.views import StoredView

GERMAN = Wording("de", "slack")
ENGLISH = Wording("en", "slack")
FORGET = "citebot_forget"
SHORT_LIVED = {"seen", "lease", "hits"}
"""What a forgotten workspace leaves, each gone within minutes by itself and naming no
workspace: claims of deliveries (DEDUP_TTL), a thread's lease tickets, and the minute's rate
windows of its askers."""


async def forget_modal(workspace: Workspace, user: str) -> StoredView:
    """``user`` opens their Home tab and presses "Delete my data"; the modal that asks."""
    sim = workspace.sim
    await sim.open_home(user=user)
    home = await workspace.home(user, "citebot")
    await sim.choose(home, FORGET)
    return await workspace.modal(user)


async def confirmed(workspace: Workspace, modal: StoredView) -> StoredView:
    """The modal's button pressed; the modal once citebot has answered."""
    await workspace.sim.acked(await workspace.sim.submit(modal))
    [shown] = workspace.sim.modals(modal.user)
    return shown


async def test_delete_my_data_asks_then_deletes_everything_kept_about_the_person(
    redis_url: str,
) -> None:
    async with two_workers(redis_url, ANSWER_LOG="full") as workspace:
        sim = workspace.sim
        await workspace.service.places.set(
            Place("slack", workspace.team), "daily_questions_per_person", "10", by=ADMIN
        )
        first = await asked(workspace, "What is grace?", user=MEMBER)
        await voted_down(workspace, first, user=MEMBER)
        await asked(workspace, "What is mercy?", user=ASKER)
        held = await workspace.stored()
        assert MEMBER in held
        assert "What is grace?" in held

        modal = await forget_modal(workspace, MEMBER)
        said = modal.texts()
        assert GERMAN.forget_me_asks() in said  # the member's German
        assert GERMAN.forget_me_leaves("Slack") in said
        assert modal.body["submit"]["text"] == GERMAN.forget_me_button()
        assert MEMBER in await workspace.stored()  # nothing goes before it is confirmed

        done = await confirmed(workspace, modal)
        held = await workspace.stored()
    assert GERMAN.forgot_you() in done.texts()
    assert "submit" not in done.body
    assert MEMBER not in held
    assert "What is grace?" not in held
    assert ASKER in held  # someone else's question stays
    assert "What is mercy?" in held
    assert sim.workspace.find(ASK, first.ts) is not None  # Slack's to keep


async def test_citebot_forget_me_works_where_citebot_is_turned_off(redis_url: str) -> None:
    """Being forgotten does not depend on where one asks: a channel turned off, and outside
    the channel allowlist (``/citebot forget-me`` typed there)."""
    async with two_workers(redis_url, SLACK_CHANNEL_ALLOWLIST=ASK) as workspace:
        sim = workspace.sim
        await asked(workspace, "What is grace?", user=ASKER)
        await workspace.service.places.set(
            Place("slack", workspace.team, ASK), "enabled", "off", by=ADMIN
        )
        assert ASKER in await workspace.stored()
        for channel in (ASK, QUIET):
            command = await sim.command("forget-me", channel=channel, user=ASKER)
            await sim.acked(command)
            modal = await workspace.modal(ASKER)
            assert ENGLISH.forget_me_asks() in modal.texts()  # no Japanese: the place's
            done = await confirmed(workspace, modal)
            assert ENGLISH.forgot_you() in done.texts()
            assert ASKER not in await workspace.stored()
            sim.views.close(done.id)
        assert sim.ephemerals(ASKER) == []


async def test_a_store_that_does_not_answer_deletes_nothing_and_keeps_the_button(
    redis_process: RedisProcess,
) -> None:
    async with two_workers(redis_process.url, workers=1) as workspace:
        modal = await forget_modal(workspace, MEMBER)
        redis_process.kill()
        shown = await confirmed(workspace, modal)
    assert GERMAN.could_not_forget() in shown.texts()
    assert shown.body["submit"]["text"] == GERMAN.forget_me_button()  # to try again


async def workspace_data(workspace: Workspace) -> None:
    """Settings and their history, answers in two channels, a 👎 with its reason, a
    conversation's memory."""
    places = workspace.service.places
    await places.set(Place("slack", workspace.team), "language", "fr", by=ADMIN)
    await places.set(Place("slack", workspace.team, QUIET), "quote_check", "off", by=ADMIN)
    first = await asked(workspace, "What is grace?", user=MEMBER)
    await asked(workspace, "What is hope?", user=ASKER, channel=QUIET)
    await voted_down(workspace, first, user=MEMBER)


def kinds(held: str) -> set[str]:
    """The kinds of key a Redis store holds (``settings``, ``log``, ``turns``, ...)."""
    return {line.split(":", 2)[1] for line in held.splitlines() if line}


async def until_gone(workspace: Workspace, team: str) -> str:
    """What the store holds once nothing of ``team`` is left in it (deleted in the
    background): read again once the workspace is gone, as a read that saw it go may have
    listed other keys before the deletion and read them after (a forget is one script)."""
    deadline = time.monotonic() + PATIENCE  # a store slow to answer is tried again (kit)
    while team in (held := await workspace.stored()):
        assert time.monotonic() < deadline, f"the workspace's data stayed:\n{held}"
        await asyncio.sleep(0.05)
    return await workspace.stored()


async def test_an_uninstalled_app_leaves_nothing_of_the_workspace(redis_url: str) -> None:
    async with two_workers(redis_url, ANSWER_LOG="full") as workspace:
        await workspace_data(workspace)
        held = await workspace.stored()
        for kept in (workspace.team, QUIET, "What is hope?", "does_not_answer"):
            assert kept in held

        revoked, uninstalled = await workspace.sim.uninstall()
        assert revoked.envelope_ids  # the manifest subscribes to both
        assert uninstalled.envelope_ids
        held = await until_gone(workspace, workspace.team)
    for gone in ("What is grace?", "What is hope?", "does_not_answer"):
        assert gone not in held, held
    assert kinds(held) <= SHORT_LIVED, held


async def test_a_revoked_bot_token_forgets_the_workspace_and_a_persons_token_does_not(
    redis_url: str,
) -> None:
    async with two_workers(redis_url, ANSWER_LOG="full") as workspace:
        await workspace_data(workspace)
        person = await workspace.sim.revoke_tokens(people=(MEMBER,))
        await workspace.sim.acked(person)
        await asyncio.sleep(0.5)  # time enough to have deleted, had it been asked to
        assert workspace.team in await workspace.stored()

        await workspace.sim.revoke_tokens(bot=True)
        held = await until_gone(workspace, workspace.team)
    assert "What is hope?" not in held
    assert kinds(held) <= SHORT_LIVED, held


async def test_forget_me_whose_dialog_slack_will_not_open_says_to_try_again(
    redis_url: str,
) -> None:
    async with two_workers(redis_url, workers=1) as workspace:
        sim = workspace.sim
        sim.fail_next("views.open", "expired_trigger_id", status=200, retry_after=None)
        await sim.acked(await sim.command("forget-me", channel=ASK, user=MEMBER))
        await sim.wait_for(lambda: sim.ephemerals(MEMBER))
    [said] = sim.ephemerals(MEMBER)
    assert said.shown == GERMAN.try_again()
    assert sim.modals(MEMBER) == []
