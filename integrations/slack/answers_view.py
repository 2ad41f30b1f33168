"""How the workspace's own answers show on citebot's settings page (the App Home tab,
``/citebot``): the questions it answers itself, listed with their IDs, a button that opens a
form of a question and its answer, and one that opens a form to pick one to remove. What the
buttons and forms do is :mod:`.answers`'s."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.adapter import ANSWER_LIMIT, QUESTION_LIMIT, OwnAnswer
from bot.i18n.wording import Wording
from bot.render.thread import listed
from integrations.slack.blocks import Block, fit, plain_text, section
from integrations.slack.limits import SECTION_TEXT
from integrations.slack.markdown import mrkdwn

__all__ = [
    "ADD_CALLBACK",
    "ANSWERS_BUTTONS",
    "ANSWER_BLOCK",
    "PICK_BLOCK",
    "QUESTION_BLOCK",
    "REMOVE_CALLBACK",
    "add_form",
    "answers_blocks",
    "remove_form",
    "submitted_values",
]

ANSWERS_ACTION = "citebot_own_answers_"
"""The ``action_id`` prefix of the section's two buttons: ``add`` or ``remove`` follows (an
``action_id`` is unique in its block)."""
ANSWERS_BUTTONS = re.compile(rf"^{ANSWERS_ACTION}(add|remove)$")
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


def submitted_values(view: dict[str, Any]) -> dict[str, str]:
    """Each input's value by its block (a select's chosen option's)."""
    state = (view.get("state") or {}).get("values") or {}
    found: dict[str, str] = {}
    for block, actions in state.items():
        for value in actions.values():
            chosen = value.get("selected_option") or {}
            found[block] = str(value.get("value") or chosen.get("value") or "")
    return found
