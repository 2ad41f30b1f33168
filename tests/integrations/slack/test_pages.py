"""Every page and message of Slack's new surfaces, in every language, at its widest (every
setting set here, the longest disclaimer full of mention words, ten changes), is one the
simulated Slack takes: the settings page as a Home tab and as a modal, each one-line form, the
👎's modal, forget-me's two modals, the claim's header and the disclaimer's block; and none of
them pings anyone."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n.wording import LANGUAGES, Wording
from bot.places import DISCLAIMER_LIMIT, KEYS, MOST_A_DAY, MOST_DOLLARS, Place, PlaceSettings
from bot.places.own import ANSWER_LIMIT, MOST_OWN_ANSWERS, QUESTION_LIMIT, new_own_answer
from bot.places.settings import layered
from bot.state import SettingChange
from config import load_settings
from integrations.slack.admin_view import (
    SLACK_KEYS,
    Page,
    Shown,
    edit_form,
    home_view,
    members_page,
    settings_modal,
    settings_page,
)
from integrations.slack.cards import disclaimer
from integrations.slack.check import claim_header
from integrations.slack.feedback import reason_modal
from integrations.slack.forgetting import forget_button, forget_modal, forgotten_modal
from tests.sim.slack.limits import check_message
from tests.sim.slack.model import Message
from tests.sim.slack.views import check_view

TEAM, CHANNEL = "T0SIM", "C0GENERAL"
LOUD = ("<!channel> @here " * 20)[: DISCLAIMER_LIMIT - 1] + "…"


def _settings(place: Place, language: str) -> PlaceSettings:
    """Every setting set at ``place``, at its widest."""
    values = {
        "enabled": "off",
        "language": language,
        "private_by_default": "on",
        "follow_ups_without_mention": "off",
        "auto_answer": "on",
        "daily_questions": str(MOST_A_DAY),
        "daily_questions_per_person": str(MOST_A_DAY),
        "daily_tokens": str(MOST_A_DAY),
        "daily_cost": f"{MOST_DOLLARS}.00",
        "quote_check": "off",
        "disclaimer": LOUD,
        "handoff": "S" + "X" * 30,
        "trusted_sources": ", ".join(f"{n}{'h' * 20}.example.org" for n in range(30)),
        "provider": "p" * 32,
    }
    assert set(values) == set(KEYS)
    return layered(place, {str(place): values}, load_settings({}, env_file=None))


def widest_page(language: str) -> Page:
    workspace, channel = Place("slack", TEAM), Place("slack", TEAM, CHANNEL)
    changes = [
        SettingChange(
            at=1_790_000_000 + n, by="U0ADMIN", place=str(channel), key=key, old=LOUD, new=LOUD
        )
        for n, key in enumerate(["disclaimer"] * 10)
    ]
    return Page(
        team=TEAM,
        workspace=Shown(
            scope="workspace",
            settings=_settings(workspace, language),
            fallback=_settings(workspace, language),
        ),
        channel_id=CHANNEL,
        channel=Shown(
            scope="channel",
            settings=_settings(channel, language),
            fallback=_settings(workspace, language),
        ),
        changes=changes,
        notice=LOUD,
        own_answers=[
            new_own_answer(
                f"{n} {LOUD}"[:QUESTION_LIMIT],
                ("<!here> " + "x" * ANSWER_LIMIT)[:ANSWER_LIMIT],
                by="U0ADMIN",
                name="<!channel>" * 20,
                language=language,
            )
            for n in range(MOST_OWN_ANSWERS)
        ],
    )


def pings_in(view: dict[str, Any]) -> set[str]:
    """The mentions in a view that would ping in a message, but the page's own link to who
    made a change (a view notifies nobody; the link shows their name)."""
    return set(Message(channel="", ts="", user="", blocks=view["blocks"]).pings()) - {"<@U0ADMIN>"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_in_every_language_is_one_slack_takes(language: str) -> None:
    words = Wording(language, "slack")
    page = widest_page(language)
    blocks = settings_page(page, words)
    views = {
        "home": home_view(blocks + forget_button(words), team=TEAM, channel=CHANNEL),
        "members": home_view(members_page(words) + forget_button(words), team=TEAM, channel=None),
        "forget": forget_modal(words, team=TEAM, said=words.could_not_forget()),
        "forgotten": forgotten_modal(words),
        "modal": settings_modal(blocks, words, team=TEAM, channel=CHANNEL),
        "why": reason_modal(words, "{}"),
    }
    assert page.channel is not None
    for key in SLACK_KEYS:
        if KEYS[key].kind in ("count", "text"):
            for shown in (page.workspace, page.channel):
                views[f"{key} {shown.scope}"] = edit_form(
                    words, key=key, shown=shown, team=TEAM, channel=CHANNEL, origin="home"
                )
    for name, view in views.items():
        surface = "home" if name in ("home", "members") else "modal"
        assert check_view(view, surface=surface) is None, (language, name)
        assert pings_in(view) == set(), (language, name)
    for name in ("forget", "forgotten"):  # the button's words whole, in every language
        assert views[name]["title"]["text"] == words.forget_me_button()
    assert views["forget"]["submit"]["text"] == words.forget_me_button()
    header = claim_header(words.check_with_sources(), LOUD * 30, LOUD)
    assert check_message(header) is None
    under = [disclaimer(LOUD)]
    assert check_message({"text": "x", "blocks": under}) is None
    assert Message(channel="", ts="", user="", blocks=under).pings() == []
