"""The workspace's own answers on citebot's settings page (the App Home tab, ``/citebot``): the
questions it answers itself, listed with their IDs, a button that opens a form of a question and
its answer, and one that opens a form to pick one to remove.

Only the workspace's admins see the section, and every button and form admits only them again
(anyone else is shown the members' page); the kit keeps the answers
(:class:`~bot.kit_community.CommunityKit`), and what it refuses is said under the form's field.
After a change the page is drawn again where it was, with a line about the change.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from slack_sdk.errors import SlackApiError

from bot.i18n.wording import Wording
from bot.kit import Venue
from bot.places import SettingRefused
from bot.places.own import ANSWER_LIMIT, QUESTION_LIMIT, OwnAnswer
from bot.render.thread import listed
from bot.state import StateUnavailable
from integrations.slack.blocks import Block, fit, plain_text, section
from integrations.slack.limits import SECTION_TEXT
from integrations.slack.markdown import mrkdwn

if TYPE_CHECKING:
    from slack_bolt.app.async_app import AsyncApp

    from integrations.slack.app import SlackBot

__all__ = ["ANSWERS_ACTION", "OwnAnswersPage", "add_form", "answers_blocks", "remove_form"]

log = logging.getLogger(__name__)

ANSWERS_ACTION = "citebot_own_answers_"
"""The ``action_id`` prefix of the section's two buttons: ``add`` or ``remove`` follows (an
``action_id`` is unique in its block)."""
_BUTTONS = re.compile(rf"^{ANSWERS_ACTION}(add|remove)$")
ADD_CALLBACK, REMOVE_CALLBACK = "citebot_own_answer_add", "citebot_own_answer_remove"
QUESTION_BLOCK, ANSWER_BLOCK, PICK_BLOCK = "question", "answer", "pick"
TITLE_ROOM, OPTION_ROOM, SHOWN = 24, 75, 100


def answers_blocks(kept: Sequence[OwnAnswer], words: Wording) -> list[Block]:
    """The section of the page: its heading and the answers (as many as fit a section), then
    the buttons."""
    labels = words.own_answer_labels
    heading = f"*{mrkdwn(labels.title)}*"

    def line(own: OwnAnswer) -> str:
        answer = fit(" ".join(own.answer.split()), SHOWN)
        return f"• `{own.id}` *{fit(own.question, SHOWN)}* {answer} · {fit(own.name, 40)}"

    lines = (
        listed(kept, line=line, room=SECTION_TEXT - len(heading) - 1, rest=lambda n: f"… +{n}")
        if kept
        else [mrkdwn(labels.none_yet)]
    )
    buttons = [_button(labels.add, "add")]
    if kept:
        buttons.append(_button(labels.remove, "remove"))
    return [section("\n".join([heading, *lines])), {"type": "actions", "elements": buttons}]


def _button(label: str, value: str) -> Block:
    return {
        "type": "button",
        "action_id": f"{ANSWERS_ACTION}{value}",
        "text": plain_text(label, OPTION_ROOM),
        "value": value,
    }


def add_form(words: Wording, *, metadata: str) -> dict[str, Any]:
    """A question and its answer to write."""
    labels = words.own_answer_labels

    def field(block: str, label: str, most: int, *, multiline: bool) -> Block:
        element = {"type": "plain_text_input", "action_id": block, "max_length": most}
        if multiline:
            element["multiline"] = True
        return {
            "type": "input",
            "block_id": block,
            "label": plain_text(label, 2000),
            "element": element,
        }

    return {
        "type": "modal",
        "callback_id": ADD_CALLBACK,
        "title": plain_text(labels.title, TITLE_ROOM),
        "submit": plain_text(words.settings_page.save, TITLE_ROOM),
        "private_metadata": metadata,
        "blocks": [
            field(QUESTION_BLOCK, labels.question, QUESTION_LIMIT, multiline=False),
            field(ANSWER_BLOCK, labels.answer, ANSWER_LIMIT, multiline=True),
        ],
    }


def remove_form(words: Wording, kept: Sequence[OwnAnswer], *, metadata: str) -> dict[str, Any]:
    """The own answers to pick one of to remove (a select holds 100, the most a place keeps)."""
    labels = words.own_answer_labels
    options = [
        {"text": plain_text(f"{own.id} · {own.question}", OPTION_ROOM), "value": own.id}
        for own in kept[:100]
    ]
    return {
        "type": "modal",
        "callback_id": REMOVE_CALLBACK,
        "title": plain_text(labels.title, TITLE_ROOM),
        "submit": plain_text(labels.remove, TITLE_ROOM),
        "private_metadata": metadata,
        "blocks": [
            {
                "type": "input",
                "block_id": PICK_BLOCK,
                "label": plain_text(labels.question, 2000),
                "element": {"type": "static_select", "action_id": PICK_BLOCK, "options": options},
            }
        ],
    }


class OwnAnswersPage:
    """The section's listeners, for one workspace's app."""

    def __init__(self, bot: SlackBot) -> None:
        self._bot = bot
        self._kit = bot.kit
        self._web = bot.web

    def register(self, app: AsyncApp) -> None:
        app.action(_BUTTONS)(self._on_button)
        app.view(ADD_CALLBACK)(self._on_add)
        app.view(REMOVE_CALLBACK)(self._on_remove)

    async def _on_button(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        if not await self._kit.claim(f"action:{body.get('trigger_id')}"):
            return
        view = body.get("view") or {}
        meta = json.loads(view.get("private_metadata") or "{}")
        user, team = str(body["user"]["id"]), str(meta.get("team") or "")
        pages = self._bot.pages
        words = await pages.words(user, team)
        if not team or not await self._bot.members.is_admin(user):
            await pages.show_home(user=user, team=team, channel=None, period=None)
            return
        carried = json.dumps({"team": team, "channel": meta.get("channel")})
        if action.get("value") == "remove":
            kept = await self._kit.own_answers(Venue(server=team))
            form = remove_form(words, kept, metadata=carried)
        else:
            form = add_form(words, metadata=carried)
        await self._web.views_open(trigger_id=body["trigger_id"], view=form)

    async def _on_add(self, ack: Any, body: dict[str, Any], view: dict[str, Any]) -> None:
        values = _values(view)
        await self._submitted(ack, body, view, QUESTION_BLOCK, values, add=True)

    async def _on_remove(self, ack: Any, body: dict[str, Any], view: dict[str, Any]) -> None:
        await self._submitted(ack, body, view, PICK_BLOCK, _values(view), add=False)

    async def _submitted(
        self,
        ack: Any,
        body: dict[str, Any],
        view: dict[str, Any],
        field: str,
        values: dict[str, str],
        *,
        add: bool,
    ) -> None:
        meta = json.loads(view.get("private_metadata") or "{}")
        user, team, channel = str(body["user"]["id"]), str(meta["team"]), meta.get("channel")
        words = await self._bot.pages.words(user, team)
        if not await self._bot.members.is_admin(user):
            await ack(response_action="errors", errors={field: words.admins_only()})
            return
        where = Venue(server=team)
        try:
            if add:
                name = await self._name(user)
                kept = await self._kit.add_own_answer(
                    where,
                    values.get(QUESTION_BLOCK, ""),
                    values.get(ANSWER_BLOCK, ""),
                    by=user,
                    name=name,
                    language=words.language,
                )
                notice = words.own_answer_saved(kept.id)
            else:
                gone = await self._kit.remove_own_answer(where, values.get(PICK_BLOCK, ""), by=user)
                notice = words.own_answer_removed(gone.id)
        except SettingRefused as refused:
            await ack(response_action="errors", errors={field: refused.said(words)})
            return
        except StateUnavailable:
            await ack(response_action="errors", errors={field: words.could_not_save()})
            return
        await ack()
        await self._bot.pages.show_home(user=user, team=team, channel=channel, notice=notice)

    async def _name(self, user: str) -> str:
        """How the answer shows who set it: their Slack name (a ``<@U…>`` would notify them)."""
        try:
            info = await self._web.users_info(user=user)
        except SlackApiError:  # the name is a nicety: the id stands in
            log.info("no name for %s", user)
            return user
        profile = info["user"].get("profile") or {}
        return str(profile.get("display_name") or profile.get("real_name") or user)


def _values(view: dict[str, Any]) -> dict[str, str]:
    """Each input's value by its block (a select's chosen option's)."""
    state = (view.get("state") or {}).get("values") or {}
    found: dict[str, str] = {}
    for block, actions in state.items():
        for value in actions.values():
            chosen = value.get("selected_option") or {}
            found[block] = str(value.get("value") or chosen.get("value") or "")
    return found
