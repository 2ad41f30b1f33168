"""citebot's settings, changed in Slack by the workspace's admins (issue 25).

The App Home tab shows the page (:mod:`integrations.slack.home`) when it is opened, and again
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

from bot.i18n.wording import Wording, catalogue_language
from bot.kit import Venue
from bot.ops.report import Period
from bot.places import KEYS, SettingRefused
from bot.state import SettingChange, StateUnavailable
from integrations.slack.blocks import Block
from integrations.slack.forgetting import FORGET_COMMAND, forget_button
from integrations.slack.home import (
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
from integrations.slack.members import team_of
from integrations.slack.reporting import DEFAULT_PERIOD, period_of

if TYPE_CHECKING:
    from slack_bolt.app.async_app import AsyncApp

    from integrations.slack.app import SlackBot

__all__ = ["COMMAND", "SettingsPages"]

log = logging.getLogger(__name__)

COMMAND = "/citebot"
HISTORY_SECONDS = 1.0
"""The longest the page waits for the history: a modal must open within Slack's 3 s."""
CHANNEL_ENTITY = "slack#/types/channel_id"


class SettingsPages:
    """The settings page's listeners, for one workspace's app."""

    def __init__(self, bot: SlackBot) -> None:
        self._bot = bot
        self._kit = bot.kit
        self._web = bot.web

    def register(self, app: AsyncApp) -> None:
        app.command(COMMAND)(self._on_command)
        app.action(SETTING_ACTION)(self._on_control)
        app.view(EDIT_CALLBACK)(self._on_edit)
        app.event("app_context_changed")(self._on_context)

    # -- what a person opens -----------------------------------------------------------------
    async def show_home(
        self,
        *,
        user: str,
        team: str,
        channel: str | None,
        period: Period | None = DEFAULT_PERIOD,
        fresh: bool = False,
        notice: str | None = None,
    ) -> None:
        """Publish ``user``'s Home tab: the page and the report of ``period`` for an admin,
        else how to ask citebot (``period`` None: the caller already found ``user`` no admin);
        ``fresh``: the report read now (:class:`~integrations.slack.reporting.Reports`);
        ``notice``: a line about the change just made."""
        words = await self.words(user, team)
        if period is not None and await self._bot.members.is_admin(user, fresh=False):
            blocks = settings_page(await self._page(team, channel, notice), words)
            await self._publish(user, team, channel, words, blocks, period=period, fresh=fresh)
        else:
            await self._publish(user, team, channel, words, members_page(words))

    async def on_home_opened(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        """The Home tab opened: drawn again, for the channel and period it last showed, its
        report read afresh."""
        if not await self._kit.claim(f"event:{body.get('event_id')}"):
            return
        shown = event.get("view") or {}
        await self.show_home(
            user=str(event["user"]),
            team=team_of(body),
            channel=self.channel_of(shown),
            period=period_of(_metadata(shown).get("period")),
            fresh=True,
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
        if not await self._kit.claim(f"event:{body.get('event_id')}"):
            return
        if await self._bot.members.is_admin(str(user), fresh=False):
            try:
                await self.show_home(user=str(user), team=team_of(body), channel=channel)
            except SlackApiError as error:  # the Home tab switched off in the app's settings
                log.info("could not draw the settings page: %s", error.response.get("error"))

    async def _on_command(self, ack: Any, respond: Any, command: dict[str, Any]) -> None:
        """``/citebot``: the page as a modal, for the channel it was typed in."""
        await ack()
        if not await self._kit.claim(f"command:{command.get('trigger_id')}"):
            return
        user, team = str(command["user_id"]), str(command["team_id"])
        channel = str(command.get("channel_id") or "")
        channel_id = channel if channel[:1] in ("C", "G") else None
        words = await self.words(user, team)
        if str(command.get("text") or "").strip().lower() == FORGET_COMMAND:
            trigger = str(command["trigger_id"])
            if not await self._bot.forgetting.ask(
                user=user, team=team, trigger_id=trigger, words=words
            ):
                await respond(text=words.try_again(), response_type="ephemeral")
            return
        if not await self._bot.members.is_admin(user):
            await respond(text=words.admins_only(), response_type="ephemeral")
            return
        page = await self._page(team, channel_id)
        try:
            await self._web.views_open(
                trigger_id=command["trigger_id"],
                view=settings_modal(
                    settings_page(page, words), words, team=team, channel=channel_id
                ),
            )
        except SlackApiError as error:  # the trigger expired (3 s) while the page was read
            log.warning("could not open the settings page: %s", error.response.get("error"))
            await respond(text=words.try_again(), response_type="ephemeral")

    # -- what an admin changes ----------------------------------------------------------------
    async def _on_control(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        """A select chosen, or a number's or the disclaimer's button pressed."""
        await ack()
        if not await self._kit.claim(f"action:{body.get('trigger_id')}"):
            return
        view = body.get("view") or {}
        meta = json.loads(view.get("private_metadata") or "{}")
        team, channel = str(meta.get("team") or team_of(body)), meta.get("channel")
        user = str(body["user"]["id"])
        scope, _, key = str(action.get("block_id", "")).partition(":")
        words = await self.words(user, team)
        in_modal = view.get("type") == "modal"
        if key not in KEYS or not await self._bot.members.is_admin(user):
            await self._refresh(view, user, team, channel, words, members_page(words))
            return
        where = Venue(server=team, channel=channel if scope == "channel" else None)
        if action.get("type") == "button":
            shown = await self._shown(team, channel if scope == "channel" else None)
            form = edit_form(
                words,
                key=key,
                shown=shown,
                team=team,
                channel=channel,
                origin="modal" if in_modal else "home",
            )
            if in_modal:
                await self._web.views_update(view_id=view["id"], view=form)
            else:
                await self._web.views_open(trigger_id=body["trigger_id"], view=form)
            return
        chosen = str((action.get("selected_option") or {}).get("value", ""))
        notice = await self._change(where, key, None if chosen == FOLLOW else chosen, user, words)
        blocks = settings_page(await self._page(team, channel, notice), words)
        await self._refresh(view, user, team, channel, words, blocks, period_of(meta.get("period")))

    async def _on_edit(self, ack: Any, body: dict[str, Any], view: dict[str, Any]) -> None:
        """The one-line form submitted: saved, or refused under its field."""
        meta = json.loads(view.get("private_metadata") or "{}")
        team, channel, key = str(meta["team"]), meta.get("channel"), str(meta["key"])
        user = str(body["user"]["id"])
        words = await self.words(user, team)
        state = (view.get("state") or {}).get("values") or {}
        text = str((state.get(EDIT_BLOCK) or {}).get(EDIT_ACTION, {}).get("value") or "")
        where = Venue(server=team, channel=channel if meta.get("scope") == "channel" else None)
        if not await self._bot.members.is_admin(user):
            await ack(response_action="errors", errors={EDIT_BLOCK: words.admins_only()})
            return
        try:
            made = await self._kit.change_setting(where, key, text.strip() or None, by=user)
        except SettingRefused as refused:
            await ack(response_action="errors", errors={EDIT_BLOCK: refused.said(words)})
            return
        except StateUnavailable:
            await ack(response_action="errors", errors={EDIT_BLOCK: words.could_not_save()})
            return
        notice = await self._noticed(made, where, key, words)
        blocks = settings_page(await self._page(team, channel, notice), words)
        if meta.get("origin") == "modal":
            modal = settings_modal(blocks, words, team=team, channel=channel)
            await ack(response_action="update", view=modal)
            return
        await ack()
        await self._publish(user, team, channel, words, blocks, period=DEFAULT_PERIOD)

    async def _change(
        self, where: Venue, key: str, value: str | None, user: str, words: Wording
    ) -> str:
        """Make the change; the line the page shows about it."""
        try:
            made = await self._kit.change_setting(where, key, value, by=user)
        except SettingRefused as refused:
            return refused.said(words)
        except StateUnavailable:
            return words.could_not_save()
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
            blocks = blocks + await self._bot.reports.blocks(team, words, period, fresh=fresh)
        view = home_view(blocks + forget_button(words), team=team, channel=channel, period=period)
        await self._web.views_publish(user_id=user, view=view)

    def channel_of(self, view: dict[str, Any]) -> str | None:
        """The channel a page shows, as its view carries it."""
        channel = _metadata(view).get("channel")
        return str(channel) if channel else None

    async def words(self, user: str, team: str) -> Wording:
        language = catalogue_language(await self._bot.locales.locale(user))
        return await self._kit.words(Venue(server=team), language)

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
