"""citebot's settings, changed in Slack by the workspace's admins (issue 25).

The App Home tab shows the page (:mod:`integrations.slack.admin_view`) when it is opened, and again
whenever ``app_context_changed`` says an admin now looks at another channel (the page then shows
that channel too, and keeps it in its ``private_metadata``, so the next opening shows it
whichever worker takes it); ``/citebot`` opens the same page as a modal. Each control changes one
setting through the kit: a select at once, a number or the disclaimer through a one-line form
whose refusal shows under its field in the admin's language. Whoever is not an admin or owner
of the workspace (``users.info``), nor listed in ``SLACK_ADMIN_USERS``, gets a page or an answer
saying only admins may, and nothing changes: every change asks Slack again.

Below the settings, the Home tab shows an admin the report (:mod:`.reporting`) and ends with
everyone's "Delete my data"; ``/citebot forget-me`` opens forget-me's dialog
(:mod:`.forgetting`) instead of the page, for anyone.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from slack_sdk.errors import SlackApiError

from bot.adapter import (
    KEYS,
    Admitted,
    Period,
    Refusal,
    SettingChange,
    StateUnavailable,
    Venue,
    made_or_refused,
)
from bot.i18n.wording import Wording
from integrations.slack.admin_view import (
    EDIT_ACTION,
    EDIT_BLOCK,
    EDIT_CALLBACK,
    FOLLOW,
    SETTING_ACTION,
    Page,
    Shown,
    edit_form,
    home_view,
    members_page,
    settings_modal,
    settings_page,
    value_text,
)
from integrations.slack.blocks import Block
from integrations.slack.context import Context, action_key
from integrations.slack.forgetting import FORGET_COMMAND, Forgetting, forget_button
from integrations.slack.members import team_of
from integrations.slack.report import DEFAULT_PERIOD, Reports, period_of
from integrations.slack.report_view import PERIOD_ACTION

if TYPE_CHECKING:
    from slack_bolt.app.async_app import AsyncApp

__all__ = ["COMMAND", "SettingsPages"]

log = logging.getLogger(__name__)

COMMAND = "/citebot"
HISTORY_SECONDS = 1.0
"""The longest the page waits for the history: a modal must open within Slack's 3 s."""
CHANNEL_ENTITY = "slack#/types/channel_id"


class SettingsPages:
    """The settings page's listeners, for one workspace's app."""

    def __init__(self, context: Context, *, reports: Reports, forgetting: Forgetting) -> None:
        self._context = context
        self._kit = context.kit
        self._web = context.web
        self._reports = reports
        self._forgetting = forgetting

    def register(self, app: AsyncApp) -> None:
        app.command(COMMAND)(self._on_command)
        app.action(SETTING_ACTION)(self._on_control)
        app.action(PERIOD_ACTION)(self._on_period)
        app.view(EDIT_CALLBACK)(self._on_edit)
        app.event("app_context_changed")(self._on_context)

    # -- what a person opens -----------------------------------------------------------------
    async def on_home_opened(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        """The Home tab opened: drawn again, for the channel and period it last showed, its
        report read afresh: the page and the report for an admin, how to ask citebot for
        anyone else."""
        user, team = str(event["user"]), team_of(body)
        shown = event.get("view") or {}
        channel = self.channel_of(shown)
        period = period_of(_metadata(shown).get("period"))

        async def act(admitted: Admitted) -> None:
            await self.draw(user, team, channel, admitted.words, period=period, fresh=True)

        async def refuse(_: str) -> None:
            await self.draw_members(user, team, channel)

        opened = self._context.arrival(f"event:{body.get('event_id')}", user=user, team=team)
        await self._kit.take(
            opened, act, gate=self._context.admins(user, fresh=False), refuse=refuse
        )

    async def _on_context(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        """An admin with citebot open moved to another channel: their page shows it."""
        user = event.get("user") or next(
            (a.get("user_id") for a in body.get("authorizations", []) if not a.get("is_bot")),
            None,
        )
        entities = (event.get("context") or {}).get("entities") or []
        channel = next((str(e["value"]) for e in entities if e.get("type") == CHANNEL_ENTITY), None)
        if not user or channel is None or channel[:1] not in ("C", "G"):
            return
        team = team_of(body)

        async def act(admitted: Admitted) -> None:
            try:
                await self.draw(str(user), team, channel, admitted.words, period=DEFAULT_PERIOD)
            except SlackApiError as error:  # the Home tab switched off in the app's settings
                log.info("could not draw the settings page: %s", error.response.get("error"))

        moved = self._context.arrival(f"event:{body.get('event_id')}", user=str(user), team=team)
        await self._kit.take(moved, act, gate=self._context.admins(str(user), fresh=False))

    async def _on_command(self, ack: Any, respond: Any, command: dict[str, Any]) -> None:
        """``/citebot``: the page as a modal, for the channel it was typed in; ``/citebot
        forget-me``: forget-me's dialog, for anyone."""
        await ack()
        user, team = str(command["user_id"]), str(command["team_id"])
        channel = str(command.get("channel_id") or "")
        channel_id = channel if channel[:1] in ("C", "G") else None
        trigger = str(command["trigger_id"])
        typed = self._context.arrival(f"command:{trigger}", user=user, team=team)

        async def refuse(words: str) -> None:
            await respond(text=words, response_type="ephemeral")

        if str(command.get("text") or "").strip().lower() == FORGET_COMMAND:

            async def forget(admitted: Admitted) -> None:
                words = admitted.words
                if not await self._forgetting.ask(
                    user=user, team=team, trigger_id=trigger, words=words
                ):
                    await refuse(words.try_again())

            await self._kit.take(typed, forget, gate="everyone")
            return

        async def act(admitted: Admitted) -> None:
            words = admitted.words
            page = await self._page(team, channel_id)
            modal = settings_modal(settings_page(page, words), words, team=team, channel=channel_id)
            try:
                await self._web.views_open(trigger_id=trigger, view=modal)
            except SlackApiError as error:  # the trigger expired (3 s) while the page was read
                log.warning("could not open the settings page: %s", error.response.get("error"))
                await refuse(words.try_again())

        await self._kit.take(typed, act, gate=self._context.admins(user), refuse=refuse)

    async def _on_period(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        """A period chosen: the Home tab drawn again with its report (an admin's only: the
        admission is asked of Slack again)."""
        await ack()
        user, team = str(body["user"]["id"]), team_of(body)
        period = period_of((action.get("selected_option") or {}).get("value"))
        channel = self.channel_of(body.get("view") or {})

        async def act(admitted: Admitted) -> None:
            log.info("report of %s (%s) shown to %s", team, period, user)
            await self.draw(user, team, channel, admitted.words, period=period, fresh=True)

        async def refuse(_: str) -> None:
            await self.draw_members(user, team, channel)

        chosen = self._context.arrival(action_key(body, action), user=user, team=team)
        await self._kit.take(chosen, act, gate=self._context.admins(user), refuse=refuse)

    # -- what an admin changes ----------------------------------------------------------------
    async def _on_control(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        """A select chosen, or a number's or the disclaimer's button pressed."""
        await ack()
        view = body.get("view") or {}
        meta = json.loads(view.get("private_metadata") or "{}")
        team, channel = str(meta.get("team") or team_of(body)), meta.get("channel")
        user = str(body["user"]["id"])
        scope, _, key = str(action.get("block_id", "")).partition(":")

        async def refuse(_: str) -> None:
            words = await self._context.words(user, team)
            await self._refresh(view, user, team, channel, words, members_page(words))

        async def act(admitted: Admitted) -> None:
            words = admitted.words
            if key not in KEYS:
                await refuse("")
                return
            where = Venue(server=team, channel=channel if scope == "channel" else None)
            if action.get("type") == "button":
                await self._open_form(body, view, key, where, words)
                return
            chosen = str((action.get("selected_option") or {}).get("value", ""))
            value = None if chosen == FOLLOW else chosen
            notice = await self._change(where, key, value, user, words)
            blocks = settings_page(await self._page(team, channel, notice), words)
            period = period_of(meta.get("period"))
            await self._refresh(view, user, team, channel, words, blocks, period)

        pressed = self._context.arrival(action_key(body, action), user=user, team=team)
        await self._kit.take(pressed, act, gate=self._context.admins(user), refuse=refuse)

    async def _open_form(
        self, body: dict[str, Any], view: dict[str, Any], key: str, where: Venue, words: Wording
    ) -> None:
        """The one-line form of a number or the disclaimer, over the page it was opened from."""
        assert where.server is not None
        channel = where.channel or json.loads(view.get("private_metadata") or "{}").get("channel")
        in_modal = view.get("type") == "modal"
        form = edit_form(
            words,
            key=key,
            shown=await self._shown(where.server, where.channel),
            team=where.server,
            channel=channel,
            origin="modal" if in_modal else "home",
        )
        if in_modal:
            await self._web.views_update(view_id=view["id"], view=form)
        else:
            await self._web.views_open(trigger_id=body["trigger_id"], view=form)

    async def _on_edit(self, ack: Any, body: dict[str, Any], view: dict[str, Any]) -> None:
        """The one-line form submitted: saved, or refused under its field."""
        meta = json.loads(view.get("private_metadata") or "{}")
        team, channel, key = str(meta["team"]), meta.get("channel"), str(meta["key"])
        user = str(body["user"]["id"])
        state = (view.get("state") or {}).get("values") or {}
        text = str((state.get(EDIT_BLOCK) or {}).get(EDIT_ACTION, {}).get("value") or "")
        where = Venue(server=team, channel=channel if meta.get("scope") == "channel" else None)

        async def refuse(words: str) -> None:
            await ack(response_action="errors", errors={EDIT_BLOCK: words})

        async def act(admitted: Admitted) -> None:
            words = admitted.words
            change = self._kit.change_setting(where, key, text.strip() or None, by=user)
            made = await made_or_refused(change, words)
            if isinstance(made, Refusal):
                await refuse(made.said)
                return
            notice = await self._noticed(made, where, key, words)
            blocks = settings_page(await self._page(team, channel, notice), words)
            if meta.get("origin") == "modal":
                modal = settings_modal(blocks, words, team=team, channel=channel)
                await ack(response_action="update", view=modal)
                return
            await ack()
            await self._publish(user, team, channel, words, blocks, period=DEFAULT_PERIOD)

        sent = self._context.arrival(action_key(body), user=user, team=team)
        await self._kit.take(sent, act, gate=self._context.admins(user), refuse=refuse)

    async def _change(
        self, where: Venue, key: str, value: str | None, user: str, words: Wording
    ) -> str:
        """Make the change; the line the page shows about it."""
        made = await made_or_refused(self._kit.change_setting(where, key, value, by=user), words)
        if isinstance(made, Refusal):
            return made.said
        return await self._noticed(made, where, key, words)

    async def _noticed(
        self, made: SettingChange | None, where: Venue, key: str, words: Wording
    ) -> str:
        """``✓ Language: Deutsch``; when the place's own value went, what it follows now."""
        if made is None:
            return words.nothing_changed()
        now = value_text(key, getattr(await self._kit.settings_at(where), key), words)
        if made.new is None:
            follows = words.follow_workspace if where.channel else words.follow_default
            now = follows(now)
        return f"✓ {words.setting_label(key)}: {now}"

    # -- drawing the page ---------------------------------------------------------------------
    async def draw(
        self,
        user: str,
        team: str,
        channel: str | None,
        words: Wording,
        *,
        period: Period = DEFAULT_PERIOD,
        fresh: bool = False,
        notice: str | None = None,
    ) -> None:
        """An admin's Home tab: the page, and the report of ``period`` (``fresh``: read now,
        :class:`~integrations.slack.report.Reports`; ``notice``: a line about the change just
        made)."""
        blocks = settings_page(await self._page(team, channel, notice), words)
        await self._publish(user, team, channel, words, blocks, period=period, fresh=fresh)

    async def draw_members(self, user: str, team: str, channel: str | None) -> None:
        """Anyone else's Home tab: how to ask citebot."""
        words = await self._context.words(user, team)
        await self._publish(user, team, channel, words, members_page(words))

    async def _refresh(
        self,
        view: dict[str, Any],
        user: str,
        team: str,
        channel: str | None,
        words: Wording,
        blocks: list[Block],
        period: Period | None = None,
    ) -> None:
        """The page drawn again where it is shown (``period``: an admin's Home tab, with its
        report)."""
        if view.get("type") == "modal":
            modal = settings_modal(blocks, words, team=team, channel=channel)
            await self._web.views_update(view_id=view["id"], view=modal)
        else:
            await self._publish(user, team, channel, words, blocks, period=period)

    async def _publish(
        self,
        user: str,
        team: str,
        channel: str | None,
        words: Wording,
        blocks: list[Block],
        *,
        period: Period | None = None,
        fresh: bool = False,
    ) -> None:
        """``user``'s Home tab: the page, the report of ``period`` (an admin's page only),
        then the button that deletes their data."""
        if period is not None:
            blocks = blocks + await self._reports.blocks(team, words, period, fresh=fresh)
        view = home_view(blocks + forget_button(words), team=team, channel=channel, period=period)
        await self._web.views_publish(user_id=user, view=view)

    def channel_of(self, view: dict[str, Any]) -> str | None:
        """The channel a page shows, as its view carries it."""
        channel = _metadata(view).get("channel")
        return str(channel) if channel else None

    async def _shown(self, team: str, channel: str | None) -> Shown:
        workspace = await self._kit.settings_at(Venue(server=team))
        if channel is None:
            default = await self._kit.settings_at(Venue())
            return Shown(scope="workspace", settings=workspace, fallback=default)
        here = await self._kit.settings_at(Venue(server=team, channel=channel))
        return Shown(scope="channel", settings=here, fallback=workspace)

    async def _page(self, team: str, channel: str | None, notice: str | None = None) -> Page:
        places = [Venue(server=team)] + ([Venue(server=team, channel=channel)] if channel else [])
        changes: list[SettingChange] = []
        try:
            async with asyncio.timeout(HISTORY_SECONDS):
                for place in places:
                    changes += await self._kit.setting_history(place)
        except (StateUnavailable, TimeoutError):
            log.info("the settings page is drawn without its history")
        try:
            own_answers = await self._kit.own_answers(Venue(server=team))
        except StateUnavailable:
            own_answers = None
        return Page(
            team=team,
            workspace=await self._shown(team, None),
            channel_id=channel,
            channel=await self._shown(team, channel) if channel else None,
            changes=sorted(changes, key=lambda change: change.at, reverse=True),
            notice=notice,
            own_answers=own_answers,
        )


def _metadata(view: dict[str, Any]) -> dict[str, Any]:
    """What a view carries of its page; nothing for a view that is not citebot's page."""
    try:
        meta = json.loads(str(view.get("private_metadata") or "{}"))
    except ValueError:
        return {}
    return meta if isinstance(meta, dict) else {}
