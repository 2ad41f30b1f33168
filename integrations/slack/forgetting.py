"""Forgetting on Slack: a person's "Delete my data", and a workspace that uninstalls the app.

Everyone's Home tab ends with a "Delete my data" button, and ``/citebot forget-me`` does the
same from any conversation: neither the allowlists nor a channel where citebot is turned off
stand in the way (a person's right to be forgotten does not depend on where they ask). Both open
a modal first, in the person's language, saying what goes, that it cannot be undone and what
stays (the messages already in Slack, which are Slack's); a confirm object could not hold that
(300 characters), a modal can. Its submit button deletes everything kept about whoever submits
it (the submitter's own id: nobody can delete anyone else's data) and the modal then says it is
done; a store that does not answer deletes nothing (one script per forget), and the modal says
so and keeps its button for another try.

A workspace that uninstalls the app (``app_uninstalled``), or revokes its bot token
(``tokens_revoked`` naming bot tokens; a person's own OAuth token revoked is not the app
leaving), has everything kept about it deleted, in the background and tried again while the
store does not answer (:meth:`~bot.kit.Kit.forget_removed`). Slack sends both events
only to an app subscribed to them (their reference pages), so the manifest lists them.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from slack_sdk.errors import SlackApiError

from bot.adapter import Admitted, Arrival, ForgetTooSoon, StateUnavailable, Venue
from bot.i18n.wording import Wording
from integrations.slack.blocks import Block, context, plain_text, section
from integrations.slack.context import Context, action_key
from integrations.slack.limits import BUTTON_TEXT
from integrations.slack.markdown import mrkdwn
from integrations.slack.members import team_of

if TYPE_CHECKING:
    from slack_bolt.app.async_app import AsyncApp

__all__ = [
    "FORGET_ACTION",
    "FORGET_CALLBACK",
    "FORGET_COMMAND",
    "Forgetting",
    "forget_button",
    "forget_modal",
    "forgotten_modal",
]

log = logging.getLogger(__name__)

FORGET_ACTION = "citebot_forget"
"""The Home tab's "Delete my data" button."""
FORGET_CALLBACK = "citebot_forget"
"""The modal that asks first."""
FORGET_COMMAND = "forget-me"
"""``/citebot forget-me``: the slash command's text."""
SLACK = "Slack"
TITLE_ROOM = 24


def forget_button(words: Wording) -> list[Block]:
    """The end of everyone's Home tab."""
    button = {
        "type": "button",
        "action_id": FORGET_ACTION,
        "style": "danger",
        "text": plain_text(words.forget_me_button(), BUTTON_TEXT),
        "value": FORGET_COMMAND,
    }
    return [{"type": "divider"}, {"type": "actions", "elements": [button]}]


def forget_modal(words: Wording, *, team: str, said: str | None = None) -> dict[str, Any]:
    """The modal that asks first (``said``: the store failed, said under it, the button kept);
    :func:`forgotten_modal` replaces it once done."""
    blocks = [
        section(mrkdwn(words.forget_me_asks())),
        context(mrkdwn(words.forget_me_leaves(SLACK))),
    ]
    if said is not None:
        blocks.append(section(f"*{mrkdwn(said)}*"))
    return {
        "type": "modal",
        "callback_id": FORGET_CALLBACK,
        "title": plain_text(words.forget_me_button(), TITLE_ROOM),
        "submit": plain_text(words.forget_me_button(), TITLE_ROOM),
        "private_metadata": json.dumps({"team": team}),
        "blocks": blocks,
    }


def forgotten_modal(words: Wording, said: str | None = None) -> dict[str, Any]:
    """Done (``said``: done a moment ago, nothing done now): no button left to press."""
    return {
        "type": "modal",
        "title": plain_text(words.forget_me_button(), TITLE_ROOM),
        "blocks": [
            section(mrkdwn(said or words.forgot_you())),
            context(mrkdwn(words.forget_me_leaves(SLACK))),
        ],
    }


class Forgetting:
    def __init__(self, context: Context) -> None:
        self._context = context
        self._kit = context.kit
        self._web = context.web

    def register(self, app: AsyncApp) -> None:
        app.action(FORGET_ACTION)(self._on_button)
        app.view(FORGET_CALLBACK)(self._on_confirmed)
        app.event("app_uninstalled")(self._on_uninstalled)
        app.event("tokens_revoked")(self._on_tokens_revoked)

    async def ask(self, *, user: str, team: str, trigger_id: str, words: Wording) -> bool:
        """Open the modal that asks first; False when Slack would not (the trigger expired)."""
        try:
            await self._web.views_open(trigger_id=trigger_id, view=forget_modal(words, team=team))
        except SlackApiError as error:
            log.warning("could not ask before forgetting: %s", error.response.get("error"))
            return False
        return True

    async def _on_button(self, ack: Any, body: dict[str, Any]) -> None:
        await ack()
        user, team = str(body["user"]["id"]), team_of(body)

        async def act(admitted: Admitted) -> None:
            trigger = str(body["trigger_id"])
            await self.ask(user=user, team=team, trigger_id=trigger, words=admitted.words)

        pressed = self._context.arrival(action_key(body), user=user, team=team)
        await self._kit.take(pressed, act, gate="everyone")

    async def _on_confirmed(self, ack: Any, body: dict[str, Any], view: dict[str, Any]) -> None:
        """The submit button: forget whoever pressed it, within Slack's 3 s (the store's calls
        are bounded by ``STATE_TIMEOUT_SECONDS``), and say so in the modal."""
        user = str(body["user"]["id"])
        team = str(json.loads(view.get("private_metadata") or "{}").get("team") or team_of(body))

        async def act(admitted: Admitted) -> None:
            words = admitted.words
            try:
                forgotten = await self._kit.forget_person(user)
            except StateUnavailable:
                said = forget_modal(words, team=team, said=words.could_not_forget())
                await ack(response_action="update", view=said)
                return
            except ForgetTooSoon as soon:
                view = forgotten_modal(words, words.forget_me_too_soon(soon.retry_after))
                await ack(response_action="update", view=view)
                return
            log.info("forget-me: %d things kept about a person deleted", forgotten)
            await ack(response_action="update", view=forgotten_modal(words))

        confirmed = self._context.arrival(action_key(body), user=user, team=team)
        await self._kit.take(confirmed, act, gate="everyone")

    async def _on_uninstalled(self, body: dict[str, Any]) -> None:
        await self._removed(body)

    async def _on_tokens_revoked(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        if (event.get("tokens") or {}).get("bot"):
            await self._removed(body)

    async def _removed(self, body: dict[str, Any]) -> None:
        team = body.get("team_id")
        if not team:
            return

        async def act(_: Admitted) -> None:
            await self._kit.forget_removed(str(team))

        removed = Arrival(keys=(f"event:{body.get('event_id')}",), venue=Venue(server=str(team)))
        await self._kit.take(removed, act, gate="everyone", spawn=True)
