"""Slack's entry in the registry of platforms (``citebot.platforms`` in pyproject.toml)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.adapter import Pacer, Runner
from bot.platforms import PlaceIds, Platform
from bot.render.ports import Payload, Presenter
from integrations.slack.settings import SlackSettings

__all__ = ["SLACK"]


def _presenter() -> Presenter:
    from integrations.slack.presenter import SlackPresenter

    return SlackPresenter()


def _builder_url(thread: Sequence[Payload]) -> str:
    from integrations.slack.builder import block_kit_builder_url

    return block_kit_builder_url(
        [block for payload in thread for block in payload.get("blocks", [])]
    )


def _manifest(environment: SlackSettings) -> str:
    from integrations.slack.manifest import slack_manifest

    return slack_manifest(environment)


def _runner() -> Runner[SlackSettings]:
    from integrations.slack.run import run_slack

    return run_slack


SLACK = Platform(
    name="slack",
    presenter=_presenter,
    environment=SlackSettings,
    runner=_runner,
    # Appends and edits at most once a second per answer; Slack's own limits are per method per
    # workspace, kept by the web client's write budget, not per channel.
    pacer=Pacer(min_interval=1.0),
    noisy_loggers=("slack_bolt", "slack_sdk"),
    own_words=True,
    place_ids=PlaceIds(
        server=r"[TE][A-Z0-9]{2,}",
        server_name="TEAM_ID",
        channel=r"[CGD][A-Z0-9]{2,}",
        channel_name="CHANNEL_ID",
        upper=True,
        # "Ask a person" mentions a user group (<!subteam^S…>) or a person (<@U…>, W… in an
        # Enterprise Grid organisation)
        handoff=r"S[A-Z0-9]{2,}|[UW][A-Z0-9]{2,}",
        handoff_names=("S…", "U…"),
    ),
    # A workspace is already a fence: its members' DMs with the app pass the channel allowlist.
    direct_messages_fenced=False,
    # Slack's AI guidelines put the disclaimer in a context block: the sink shows it there.
    disclaimer_apart=True,
    manifest=_manifest,
    preview_url=_builder_url,
)
