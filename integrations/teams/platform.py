"""Teams' entry in the registry of platforms (``citebot.platforms`` in pyproject.toml)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.adapter import Pacer, Runner
from bot.platforms import PlaceIds, Platform, Shown
from bot.render.ports import Payload, Presenter
from integrations.teams.settings import TeamsSettings

__all__ = ["TEAMS"]

_THREAD_ID = r"19:[0-9A-Za-z_.-]{1,200}@thread\.(?:tacv2|skype|v2)"
"""A team's, a channel's or a group chat's id (a team's General channel has the team's)."""


def _presenter() -> Presenter:
    from integrations.teams.presenter import TeamsPresenter

    return TeamsPresenter()


def _runner() -> Runner[TeamsSettings]:
    from integrations.teams.run import run_teams

    return run_teams


def _shown(answer: Sequence[Payload], thread: Sequence[Payload]) -> Shown:
    from integrations.teams.presenter import with_addenda

    return with_addenda(answer, thread)


def _manifest(environment: TeamsSettings) -> str:
    from integrations.teams.manifest import teams_manifest

    return teams_manifest(environment)


TEAMS = Platform(
    name="teams",
    presenter=_presenter,
    environment=TeamsSettings,
    runner=_runner,
    # A personal chat's stream takes one update a second at most (the streaming page asks for
    # 1.5 to 2 s of tokens a chunk); a channel's answer is posted once, when it is done.
    pacer=Pacer(min_interval=1.5),
    noisy_loggers=("microsoft_teams",),
    # Anyone in any tenant can message a multi-tenant bot: a personal chat passes the
    # allowlist only when it names it.
    direct_messages_fenced=True,
    place_ids=PlaceIds(
        server=_THREAD_ID,
        server_name="TEAM_ID",
        channel=_THREAD_ID,
        channel_name="CHANNEL_ID",
        # "Ask a person" names the team's owners, or a group chat's members
        handoff="admins",
        handoff_names=("admins",),
    ),
    manifest=_manifest,
    shown=_shown,
)
