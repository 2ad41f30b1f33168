"""The workspace's own answers, kept by its admins from citebot's settings page: the section's
buttons open a form of a question and its answer, or one to pick an answer to remove
(:mod:`.answers_view` draws them).

Only the workspace's admins see the section, and every button and form admits only them again,
through the kit's admins' gate (anyone else is shown the members' page, or told so under the
form's field); the kit keeps the answers (:class:`~bot.adapter.Kit`), and what it refuses is
said under the form's field. After a change the page is drawn again where it was, with a line
about the change.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from slack_sdk.errors import SlackApiError

from bot.adapter import Admitted, Refusal, Venue, made_or_refused
from integrations.slack.admin import SettingsPages
from integrations.slack.answers_view import (
    ADD_CALLBACK,
    ANSWER_BLOCK,
    ANSWERS_BUTTONS,
    PICK_BLOCK,
    QUESTION_BLOCK,
    REMOVE_CALLBACK,
    add_form,
    remove_form,
    submitted_values,
)
from integrations.slack.context import Context, action_key

if TYPE_CHECKING:
    from slack_bolt.app.async_app import AsyncApp

__all__ = ["OwnAnswersPage"]

log = logging.getLogger(__name__)


class OwnAnswersPage:
    """The section's listeners, for one workspace's app."""

    def __init__(self, context: Context, *, pages: SettingsPages) -> None:
        self._context = context
        self._kit = context.kit
        self._web = context.web
        self._pages = pages

    def register(self, app: AsyncApp) -> None:
        app.action(ANSWERS_BUTTONS)(self._on_button)
        app.view(ADD_CALLBACK)(self._on_add)
        app.view(REMOVE_CALLBACK)(self._on_remove)

    async def _on_button(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        view = body.get("view") or {}
        meta = json.loads(view.get("private_metadata") or "{}")
        user, team = str(body["user"]["id"]), str(meta.get("team") or "")

        async def refuse(_: str) -> None:
            await self._pages.draw_members(user, team, None)

        async def act(admitted: Admitted) -> None:
            carried = json.dumps({"team": team, "channel": meta.get("channel")})
            if action.get("value") == "remove":
                kept = await self._kit.own_answers(Venue(server=team))
                form = remove_form(admitted.words, kept, metadata=carried)
            else:
                form = add_form(admitted.words, metadata=carried)
            await self._web.views_open(trigger_id=body["trigger_id"], view=form)

        pressed = self._context.arrival(action_key(body, action), user=user, team=team or None)
        await self._kit.take(pressed, act, gate=self._context.admins(user), refuse=refuse)

    async def _on_add(self, ack: Any, body: dict[str, Any], view: dict[str, Any]) -> None:
        await self._submitted(ack, body, view, QUESTION_BLOCK, add=True)

    async def _on_remove(self, ack: Any, body: dict[str, Any], view: dict[str, Any]) -> None:
        await self._submitted(ack, body, view, PICK_BLOCK, add=False)

    async def _submitted(
        self, ack: Any, body: dict[str, Any], view: dict[str, Any], field: str, *, add: bool
    ) -> None:
        meta = json.loads(view.get("private_metadata") or "{}")
        user, team, channel = str(body["user"]["id"]), str(meta["team"]), meta.get("channel")
        values = submitted_values(view)

        async def refuse(words: str) -> None:
            await ack(response_action="errors", errors={field: words})

        async def act(admitted: Admitted) -> None:
            words, where = admitted.words, Venue(server=team)
            if add:
                change = self._kit.add_own_answer(
                    where,
                    values.get(QUESTION_BLOCK, ""),
                    values.get(ANSWER_BLOCK, ""),
                    by=user,
                    name=await self._name(user),
                    language=words.language,
                )
            else:
                change = self._kit.remove_own_answer(where, values.get(PICK_BLOCK, ""), by=user)
            own = await made_or_refused(change, words)
            if isinstance(own, Refusal):
                await refuse(own.said)
                return
            notice = words.own_answer_saved(own.id) if add else words.own_answer_removed(own.id)
            await ack()
            await self._pages.draw(user, team, channel, words, notice=notice)

        sent = self._context.arrival(action_key(body), user=user, team=team)
        await self._kit.take(sent, act, gate=self._context.admins(user), refuse=refuse)

    async def _name(self, user: str) -> str:
        """How the answer shows who set it: their Slack name (a ``<@U…>`` would notify them)."""
        try:
            info = await self._web.users_info(user=user)
        except SlackApiError:  # the name is a nicety: the id stands in
            log.info("no name for %s", user)
            return user
        profile = info["user"].get("profile") or {}
        return str(profile.get("display_name") or profile.get("real_name") or user)
