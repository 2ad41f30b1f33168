"""Teams' entry in the registry of platforms (``citebot.platforms`` in pyproject.toml).

No runner yet: the adapter (activities in through the kit, the sink, settings, reports) comes
with the core's one HTTP way in (issue 33), so the worker does not start Teams and its places
are not yet places; ``citebot ask --platform teams`` and ``citebot manifest teams`` work."""

from __future__ import annotations

from bot.adapter import Pacer
from bot.platforms import PlaceIds, Platform
from bot.render.ports import Presenter
from integrations.teams.settings import TeamsSettings

__all__ = ["TEAMS"]

_THREAD_ID = r"19:[0-9A-Za-z_.-]{1,200}@thread\.(?:tacv2|skype|v2)"
"""A team's, a channel's or a group chat's id (a team's General channel has the team's)."""


def _presenter() -> Presenter:
    from integrations.teams.presenter import TeamsPresenter

    return TeamsPresenter()


def _manifest(environment: TeamsSettings) -> str:
    from integrations.teams.manifest import teams_manifest

    return teams_manifest(environment)


TEAMS = Platform(
    name="teams",
    presenter=_presenter,
    environment=TeamsSettings,
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
        # "Ask a person" would name the team's owners (no adapter asks yet: no runner)
        handoff="admins",
        handoff_names=("admins",),
    ),
    manifest=_manifest,
)
