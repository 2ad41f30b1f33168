"""citebot's settings page in Block Kit: the workspace's settings and the current channel's,
each with the control that changes it, then the recent changes; published as the App Home tab
(``views.publish``) or opened as a modal (``/citebot``), in the admin's language. Whoever may not
change the settings gets a page saying how to ask citebot, and that only admins change it.

A switch or the language is a select: its options are the values, and the one that follows the
workspace (or the default), showing what that is now. A number or the disclaimer is a button
that opens a one-line form; an empty form follows the workspace or the default again. Every
element's ``block_id`` says which place and setting it changes (``channel:language``), the
view's ``private_metadata`` which team and channel the page shows: the page carries its own
state, so any worker can act on it.

The workspace's own answers follow its settings (:mod:`integrations.slack.answers_view`).
Below the settings come an admin's report (:mod:`integrations.slack.report_view`) and everyone's
"Delete my data" (:mod:`integrations.slack.forgetting`): a page is a list of parts
(:func:`settings_page` returns blocks; the views wrap them).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from babel.dates import format_datetime

from bot.adapter import (
    KEYS,
    MOST_A_DAY,
    MOST_DOLLARS,
    OwnAnswer,
    Place,
    PlaceSettings,
    SettingChange,
    SettingRefused,
    Value,
    as_changed,
    longest_written,
    read_value,
    value_as_said,
    written,
)
from bot.i18n.wording import LANGUAGES, Wording, language_name
from bot.render.text import clip
from bot.render.thread import listed
from integrations.slack.answers_view import answers_blocks
from integrations.slack.blocks import Block, context, fit, plain_text, section
from integrations.slack.limits import SECTION_TEXT
from integrations.slack.markdown import mrkdwn
from integrations.slack.words import how_to_ask, look_at_a_channel, this_channel

__all__ = [
    "EDIT_CALLBACK",
    "FOLLOW",
    "SETTING_ACTION",
    "SLACK_KEYS",
    "Page",
    "Shown",
    "edit_form",
    "home_view",
    "members_page",
    "metadata",
    "settings_modal",
    "settings_page",
    "value_text",
]

SETTING_ACTION = "citebot_setting"
"""The ``action_id`` of every control of the page; its block says which setting."""
EDIT_CALLBACK = "citebot_setting_edit"
EDIT_BLOCK, EDIT_ACTION = "value", "value"
FOLLOW = "follow"
"""The select option that removes a place's own value."""
SLACK_KEYS = tuple(key for key in KEYS if key != "private_by_default")
"""The settings that mean something on Slack (``private_by_default`` is Discord's ``/ask``)."""
CHANGES_SHOWN = 10
CHANGED_VALUE = 60
"""Characters of a value in the recent changes (a disclaimer is cut there, whole above)."""
TITLE_ROOM = 24
OPTION_ROOM = 75


@dataclass(frozen=True, slots=True, kw_only=True)
class Shown:
    """One place's settings as the page shows them."""

    scope: str
    """``workspace`` or ``channel``."""
    settings: PlaceSettings
    """What applies there now."""
    fallback: PlaceSettings
    """What it takes where it sets nothing: the environment's (for the workspace), the
    workspace's (for a channel)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Page:
    """What a settings page shows: the workspace, the channel if one is known (``channel`` its
    id), the recent changes of both, and a line about the last change made from the page."""

    team: str
    workspace: Shown
    channel_id: str | None = None
    channel: Shown | None = None
    changes: Sequence[SettingChange] = ()
    notice: str | None = None
    own_answers: Sequence[OwnAnswer] | None = None
    """The workspace's own answers (None: the page shows no such section)."""


def metadata(team: str, channel: str | None, **more: str) -> str:
    """What a view carries of its page (``private_metadata``)."""
    return json.dumps({"team": team, "channel": channel, **more})


def settings_page(page: Page, words: Wording) -> list[Block]:
    labels = words.settings_page
    blocks: list[Block] = [
        {"type": "header", "text": plain_text(labels.title, 150)},
    ]
    if page.notice:
        blocks.append(context(fit(page.notice, 2000)))
    blocks.append(section(f"*{mrkdwn(labels.workspace)}*"))
    blocks += _settings(page.workspace, words)
    if page.own_answers is not None:
        blocks += answers_blocks(page.own_answers, words)
    blocks.append({"type": "divider"})
    if page.channel is not None and page.channel_id is not None:
        heading = mrkdwn(this_channel(words, "\0")).replace("\0", f"<#{page.channel_id}>")
        blocks.append(section(f"*{heading}*"))
        blocks += _settings(page.channel, words)
    else:
        blocks.append(context(mrkdwn(look_at_a_channel(words))))
    if page.changes:
        blocks.append({"type": "divider"})
        heading = f"*{mrkdwn(labels.recent_changes)}*"
        lines = listed(
            page.changes[:CHANGES_SHOWN],
            line=lambda change: _change(change, words),
            room=SECTION_TEXT - len(heading) - 1,
            rest=lambda n: f"… +{words.number(n)}",
        )
        blocks.append(section("\n".join([heading, *lines])))
    return blocks


def home_view(
    blocks: list[Block], *, team: str, channel: str | None, period: str | None = None
) -> dict[str, Any]:
    """The Home tab; ``period``: the report's it shows, if any."""
    more = {"period": period} if period else {}
    return {"type": "home", "blocks": blocks, "private_metadata": metadata(team, channel, **more)}


def settings_modal(
    blocks: list[Block], words: Wording, *, team: str, channel: str | None
) -> dict[str, Any]:
    """The page opened by ``/citebot``: no submit button, each control acts at once."""
    return {
        "type": "modal",
        "title": plain_text(words.settings_page.short_title, TITLE_ROOM),
        "blocks": blocks,
        "private_metadata": metadata(team, channel),
    }


def members_page(words: Wording) -> list[Block]:
    """The page of whoever may not change the settings."""
    return [
        {"type": "header", "text": plain_text(words.settings_page.title, 150)},
        section(mrkdwn(how_to_ask(words))),
        context(mrkdwn(words.admins_only())),
    ]


def edit_form(
    words: Wording, *, key: str, shown: Shown, team: str, channel: str | None, origin: str
) -> dict[str, Any]:
    """The one-line form of a number or the disclaimer; ``origin`` is where to go back to
    (``home``, or ``modal``: the form replaced the settings modal)."""
    settings = shown.settings
    own = settings.set_in[key]
    current = written(getattr(settings, key)) if _set_in_the_place_shown(own, shown) else ""
    most = longest_written(KEYS[key])
    hints = {
        "count": lambda: words.count_hint(MOST_A_DAY),
        "dollars": lambda: words.dollars_hint(MOST_DOLLARS),
    }
    hint = hints.get(KEYS[key].kind, lambda: words.text_hint(most))()
    empty = (
        words.empty_follows_workspace()
        if shown.scope == "channel"
        else words.empty_follows_default()
    )
    element: Block = {
        "type": "plain_text_input",
        "action_id": EDIT_ACTION,
        "max_length": most,
    }
    if current:
        element["initial_value"] = current
    return {
        "type": "modal",
        "callback_id": EDIT_CALLBACK,
        "title": plain_text(words.settings_page.short_title, TITLE_ROOM),
        "submit": plain_text(words.settings_page.save, TITLE_ROOM),
        "private_metadata": metadata(team, channel, key=key, scope=shown.scope, origin=origin),
        "blocks": [
            {
                "type": "input",
                "block_id": EDIT_BLOCK,
                "optional": True,
                "label": plain_text(words.setting_label(key), 2000),
                "hint": plain_text(f"{hint} {empty}", 2000),
                "element": element,
            }
        ],
    }


# -- one place's settings ---------------------------------------------------------------------
def _settings(shown: Shown, words: Wording) -> list[Block]:
    return [_setting(key, shown, words) for key in SLACK_KEYS]


def _setting(key: str, shown: Shown, words: Wording) -> Block:
    labels = words.settings_page
    value = getattr(shown.settings, key)
    own = shown.settings.set_in[key]
    where = (
        labels.set_here
        if _set_in_the_place_shown(own, shown)
        else labels.from_workspace
        if own is not None
        else words.settings_labels.default
    )
    text = f"*{mrkdwn(words.setting_label(key))}*\n{_value(key, value, words)} · _{mrkdwn(where)}_"
    block = section(text)
    block["block_id"] = f"{shown.scope}:{key}"
    if KEYS[key].kind in ("switch", "language"):
        block["accessory"] = _select(key, shown, words)
    else:
        block["accessory"] = {
            "type": "button",
            "action_id": SETTING_ACTION,
            "text": plain_text(labels.change, OPTION_ROOM),
            "value": key,
        }
    return block


def _set_in_the_place_shown(own: Place | None, shown: Shown) -> bool:
    """Whether a value was set in the place shown itself (a channel's, or the workspace's)."""
    return own is not None and (own.channel is not None) == (shown.scope == "channel")


def _select(key: str, shown: Shown, words: Wording) -> Block:
    fallback = _value(key, getattr(shown.fallback, key), words, plain=True)
    follow = (
        words.follow_workspace(fallback)
        if shown.scope == "channel"
        else words.follow_default(fallback)
    )
    values: list[tuple[str, str]] = (
        [("on", words.settings_page.on), ("off", words.settings_page.off)]
        if KEYS[key].kind == "switch"
        else [(language, language_name(language)) for language in LANGUAGES]
    )
    options = [_option(value, label) for value, label in [(FOLLOW, follow), *values]]
    own = shown.settings.set_in[key]
    chosen = (
        written(getattr(shown.settings, key)) if _set_in_the_place_shown(own, shown) else FOLLOW
    )
    return {
        "type": "static_select",
        "action_id": SETTING_ACTION,
        "options": options,
        "initial_option": next(o for o in options if o["value"] == chosen),
    }


def _option(value: str, label: str) -> Block:
    return {"text": plain_text(label, OPTION_ROOM), "value": value}


def value_text(key: str, value: Value, words: Wording) -> str:
    """A setting's value as a person reads it, in plain text (``On``, ``Deutsch``, ``30``)."""
    return _value(key, value, words, plain=True)


def _value(key: str, value: Value, words: Wording, *, plain: bool = False) -> str:
    """A setting's value as the page shows it (mrkdwn, or ``plain`` for an option's text)."""
    said = value_as_said(key, value, words)
    return clip(said, 60) if plain else fit(said, 400)


def _change(change: SettingChange, words: Wording) -> str:
    labels = words.settings_page
    when = format_datetime(
        datetime.fromtimestamp(change.at, tz=UTC), format="short", tzinfo=UTC, locale=words.locale
    )
    who = f"<@{change.by}>" if change.by[:1] in ("U", "W") else mrkdwn(labels.operator)
    channel = change.place.partition("/")[2]
    where = f"<#{channel}>" if channel else mrkdwn(labels.workspace)
    before, after = (_written(change.key, text, words) for text in (change.old, change.new))
    label = mrkdwn(words.setting_label(change.key))
    return f"{when} UTC · {who} · {where} · {label}: {before} → {after}"


def _written(key: str, text: str | None, words: Wording) -> str:
    if text is None:
        return f"_{mrkdwn(words.settings_labels.not_set)}_"
    try:
        return fit(value_text(key, read_value(KEYS[key], text), words), CHANGED_VALUE)
    except (SettingRefused, KeyError):
        return fit(as_changed(key, text) or text, CHANGED_VALUE)
