"""What ``settings`` shows a Teams place's admin, in their language: one Adaptive Card with every
setting in effect there, where each comes from and a field that changes it, the place's own
answers (each with its Remove button, and fields to add one), the recent changes, and a Save
button.

A field holds the place's own value (empty: it follows the default, which its placeholder
shows); Save brings the bot every field (Action.Submit merges the card's inputs into its
data), and each field whose value differs from the place's own is changed, an emptied one
following the default again. Settings are named as the command line names them
(``daily_questions``) beside their label, so what an admin reads is what an operator types.
``private_by_default`` means nothing in Teams (an answer in a channel is the channel's) and
is not shown. The card's texts are ``TextRun``s and plain ``TextBlock``s, which Adaptive
Cards do not parse as Markdown past its basics, and every text an admin or the upstream wrote
is clipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from microsoft_teams.cards import (
    ActionSet,
    CardElement,
    Choice,
    ChoiceSetInput,
    Container,
    Fact,
    FactSet,
    TextBlock,
    TextInput,
)

from bot.adapter import (
    ANSWER_LIMIT,
    KEYS,
    QUESTION_LIMIT,
    OwnAnswer,
    PlaceSettings,
    SettingChange,
    as_changed,
    longest_written,
    value_as_said,
    written,
)
from bot.i18n.wording import LANGUAGES, Wording, language_name
from bot.render.ports import Payload
from bot.render.text import clip
from integrations.teams.cards import adaptive, attached, submit

__all__ = ["ANSWERS", "SETTINGS", "TEAMS_KEYS", "Page", "settings_card", "submitted"]

SETTINGS = "settings"
"""``value.citebot`` of the card's Save button; ``scope`` says whose settings it shows."""
ANSWERS = "answers"
"""``value.citebot`` of an own answer's Remove button (``remove``: its ID) and of Add."""
TEAMS_KEYS = tuple(key for key in KEYS if key != "private_by_default")
"""The settings a Teams place has, in the order they are shown."""
QUESTION_FIELD, ANSWER_FIELD = "own_question", "own_answer"
CHANGES = 8
"""Recent changes the card lists."""
SHOWN = 120
"""Characters of a value, an own answer's question or answer the card shows."""


@dataclass(frozen=True, slots=True)
class Page:
    """What the card shows of one place."""

    scope: str
    """``server`` (a team, a group chat) or ``channel``."""
    settings: PlaceSettings
    own: dict[str, str]
    """Each setting the place itself set, as written (``on``, ``30``, the disclaimer)."""
    answers: Sequence[OwnAnswer] | None
    """Its own answers; None when the store could not say."""
    changes: Sequence[SettingChange]
    notices: Sequence[str] = ()
    """What the last Save did (a line a change), or refused."""


def settings_card(page: Page, words: Wording) -> Payload:
    """The card, as a message's attachment."""
    labels = words.settings_page
    body: list[CardElement] = [
        TextBlock(text=labels.title, weight="Bolder", size="Medium", wrap=True),
    ]
    body += [
        TextBlock(text=clip(notice, 500), wrap=True, color="Accent") for notice in page.notices
    ]
    for key in TEAMS_KEYS:
        body.append(_field(key, page, words))
    save = submit(labels.save, {"citebot": SETTINGS, "scope": page.scope})
    body.append(ActionSet(actions=[save]))
    body += _answers(page, words)
    body += _changes(page.changes, words)
    return attached(adaptive(body))


def _field(key: str, page: Page, words: Wording) -> CardElement:
    """A setting's label, what is in effect and where from, and its field."""
    value = getattr(page.settings, key)
    said = clip(value_as_said(key, value, words), SHOWN)
    source = words.settings_page.set_here if key in page.own else words.settings_labels.default
    label = f"{words.setting_label(key)} ({key}): {said} · {source}"
    own = page.own.get(key, "")
    kind = KEYS[key].kind
    field: CardElement
    if kind in ("switch", "language"):
        shown = {"on": words.settings_page.on, "off": words.settings_page.off}
        options = ("on", "off") if kind == "switch" else LANGUAGES
        choices = [Choice(title=words.follow_default(said), value="")] + [
            Choice(title=shown.get(option) or language_name(option), value=option)
            for option in options
        ]
        field = ChoiceSetInput(id=key, label=label, choices=choices, value=own, style="compact")
    else:
        field = TextInput(
            id=key,
            label=label,
            value=own,
            placeholder=clip(said, SHOWN),
            max_length=longest_written(KEYS[key]),
        )
    return Container(id=f"setting-{key}", items=[field])


def _answers(page: Page, words: Wording) -> list[CardElement]:
    """The place's own answers, each with its Remove button, then the fields to add one."""
    labels = words.own_answer_labels
    body: list[CardElement] = [
        TextBlock(text=labels.title, weight="Bolder", wrap=True, separator=True)
    ]
    if page.answers is None:
        return [*body, TextBlock(text=words.could_not_save(), wrap=True)]
    if not page.answers:
        body.append(TextBlock(text=labels.none_yet, wrap=True, is_subtle=True))
    for own in page.answers:
        day = datetime.fromtimestamp(own.at, UTC).strftime("%Y-%m-%d")
        facts = FactSet(
            facts=[
                Fact(title=labels.question, value=clip(own.question, SHOWN)),
                Fact(title=labels.answer, value=clip(" ".join(own.answer.split()), SHOWN)),
                Fact(title=labels.set_by, value=f"{clip(own.name, 60)} · {day} · {own.id}"),
            ]
        )
        remove = submit(labels.remove, {"citebot": ANSWERS, "remove": own.id, "scope": page.scope})
        body.append(Container(id=f"own-{own.id}", items=[facts, ActionSet(actions=[remove])]))
    body += [
        TextInput(id=QUESTION_FIELD, label=labels.question, max_length=QUESTION_LIMIT),
        TextInput(id=ANSWER_FIELD, label=labels.answer, max_length=ANSWER_LIMIT, is_multiline=True),
        ActionSet(actions=[submit(labels.add, {"citebot": ANSWERS, "scope": page.scope})]),
    ]
    return body


def _changes(changes: Sequence[SettingChange], words: Wording) -> list[CardElement]:
    """The latest changes, newest first: when (UTC), who, the setting, before → after."""
    labels = words.settings_labels
    heading = TextBlock(
        text=words.settings_page.recent_changes, weight="Bolder", wrap=True, separator=True
    )
    if not changes:
        return [heading, TextBlock(text=words.no_setting_changes(), wrap=True, is_subtle=True)]
    facts = [
        Fact(
            title=datetime.fromtimestamp(change.at, UTC).strftime("%Y-%m-%d %H:%M UTC"),
            value=(
                f"{change.key}: {_written(change.key, change.old, labels.not_set)} → "
                f"{_written(change.key, change.new, labels.not_set)}"
            ),
        )
        for change in sorted(changes, key=lambda change: change.at, reverse=True)[:CHANGES]
    ]
    return [heading, FactSet(facts=facts)]


def _written(key: str, value: str | None, not_set: str) -> str:
    shown = as_changed(key, value)
    return not_set if shown is None else clip(shown, 60)


def own_values(settings: PlaceSettings, *, channel: str | None) -> dict[str, str]:
    """The settings the place itself set (a channel's, or with ``channel`` None its
    server's), as written."""
    return {
        key: written(getattr(settings, key))
        for key in TEAMS_KEYS
        if (place := settings.set_in[key]) is not None and place.channel == channel
    }


def submitted(value: dict[str, Any], own: dict[str, str]) -> list[tuple[str, str | None]]:
    """The changes a Save brings: each setting whose field differs from the place's own value
    (an emptied field: None, the default again)."""
    changes: list[tuple[str, str | None]] = []
    for key in TEAMS_KEYS:
        given = value.get(key)
        if not isinstance(given, str):
            continue
        given = given.strip()
        if given != own.get(key, ""):
            changes.append((key, given or None))
    return changes
