"""Slack's own variables: its tokens (Socket Mode or HTTP mode), where its API is, its
allowlist, who may change citebot's settings besides the workspace's admins and owners, and the
public URL Slack posts to in HTTP mode (for the app manifest)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field, SecretStr, field_validator

from config.environment import (
    CommaList,
    PlatformSettings,
    allowlist,
    blank_is_unset,
    comma_list,
    http_url,
)

__all__ = ["SlackSettings"]


class SlackSettings(PlatformSettings):
    url_fields: ClassVar[frozenset[str]] = frozenset({"api_base_url", "request_url"})
    start_with: ClassVar[str] = (
        "SLACK_BOT_TOKEN with SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode)"
    )

    bot_token: SecretStr | None = Field(
        default=None,
        validation_alias="SLACK_BOT_TOKEN",
        description=(
            "The bot token (`xoxb-…`); Slack runs in Socket Mode with `SLACK_APP_TOKEN`, in "
            "HTTP mode with `SLACK_SIGNING_SECRET`."
        ),
    )
    app_token: SecretStr | None = Field(
        default=None,
        validation_alias="SLACK_APP_TOKEN",
        description="The app-level token (`xapp-…`, `connections:write`) for Socket Mode.",
    )
    signing_secret: SecretStr | None = Field(
        default=None,
        validation_alias="SLACK_SIGNING_SECRET",
        description=(
            "Slack's HTTP (Events API) mode, when set without an app token; it listens on `PORT`."
        ),
    )
    api_base_url: str = Field(
        default="https://slack.com/api/",
        validation_alias="SLACK_API_BASE_URL",
        description=(
            "The Web API's base (GovSlack, a proxy or a test double); Socket Mode's URL is asked "
            "of it (`apps.connections.open`)."
        ),
    )
    channel_allowlist: CommaList = allowlist(
        "SLACK_CHANNEL_ALLOWLIST",
        description=(
            "Comma-separated channel ids where the app answers mentions and buttons (a thread "
            "is in its channel); direct messages are always answered."
        ),
    )
    admin_users: CommaList = Field(
        default=(),
        validation_alias="SLACK_ADMIN_USERS",
        description=(
            "Comma-separated user ids (`U…`) who may change citebot's settings in Slack besides "
            "the workspace's admins and owners."
        ),
    )
    """User ids who may change citebot's settings besides the workspace's admins and owners."""
    request_url: str | None = Field(
        default=None,
        validation_alias="SLACK_REQUEST_URL",
        description=(
            "HTTP mode only: this worker's `/slack/events` as Slack reaches it "
            "(`https://citebot.example.org/slack/events`); `citebot manifest slack` writes it "
            "as every request URL, and prints a Socket Mode manifest without it."
        ),
    )
    """Where Slack posts events, interactions and the slash command in HTTP mode (this
    worker's ``/slack/events``, as the internet reaches it): the app manifest's request URLs."""

    @field_validator("api_base_url")
    @classmethod
    def _base(cls, value: str) -> str:
        value = http_url(value.strip())
        return value if value.endswith("/") else value + "/"

    @field_validator("request_url")
    @classmethod
    def _request_url(cls, value: str | None) -> str | None:
        return None if value is None else http_url(value.strip())

    @field_validator("channel_allowlist", "admin_users", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        return comma_list(value)

    @field_validator("bot_token", "app_token", "signing_secret", mode="before")
    @classmethod
    def _blank_secret(cls, value: Any) -> Any:
        return blank_is_unset(value)

    @property
    def mode(self) -> Literal["socket", "http"] | None:
        """Socket Mode with an app token, else the HTTP Events API with a signing secret."""
        if self.bot_token and self.app_token:
            return "socket"
        if self.bot_token and self.signing_secret:
            return "http"
        return None

    @property
    def configured(self) -> bool:
        return self.mode is not None

    def missing(self) -> str | None:
        if self.bot_token and not self.mode:
            return (
                "SLACK_BOT_TOKEN is set but neither SLACK_APP_TOKEN (Socket Mode) nor "
                "SLACK_SIGNING_SECRET (HTTP mode) is"
            )
        if (self.app_token or self.signing_secret) and not self.bot_token:
            return "SLACK_BOT_TOKEN is missing (SLACK_APP_TOKEN or SLACK_SIGNING_SECRET is set)"
        return None

    @property
    def allowed_channels(self) -> tuple[str, ...]:
        return self.channel_allowlist
