"""Teams' own variables: the bot's Microsoft app id and secret (and its tenant, for a
single-tenant bot), where each worker listens for activities, whether their tokens are checked,
where the Bot Framework's keys, the bot's own tokens and Microsoft Graph are (a sovereign cloud
or a test double), the allowlists, and the page the app manifest links."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pydantic import Field, SecretStr, field_validator

from config.environment import (
    SHOWN_DEFAULT,
    CommaList,
    PlatformSettings,
    allowlist,
    blank_is_unset,
    comma_list,
    http_url,
    switch,
)

__all__ = ["BOT_FRAMEWORK_OPENID", "GRAPH", "LOGIN", "TeamsSettings"]

BOT_FRAMEWORK_OPENID = "https://login.botframework.com/v1/.well-known/openidconfiguration"
"""The Bot Framework's OpenID metadata: the keys that sign Teams' activities (learn.microsoft.com
azure/bot-service/rest-api/bot-framework-rest-connector-authentication, "Step 2")."""
LOGIN = "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token"
"""Where the bot asks for its own tokens (client credentials); ``{tenant}`` is the bot's tenant,
``botframework.com`` for a multi-tenant bot, or the team's tenant for Microsoft Graph."""
GRAPH = "https://graph.microsoft.com/v1.0"
_GUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_TENANT = re.compile(r"[0-9A-Za-z][0-9A-Za-z.-]{0,254}")


class TeamsSettings(PlatformSettings):
    url_fields: ClassVar[frozenset[str]] = frozenset(
        {"openid_url", "token_url", "graph_url", "developer_url"}
    )
    start_with: ClassVar[str] = "TEAMS_APP_ID (with TEAMS_APP_PASSWORD)"

    app_id: str | None = Field(
        default=None,
        validation_alias="TEAMS_APP_ID",
        description=(
            "The bot's Microsoft app id (a GUID): every activity's token is for it, and it asks "
            "for its own; Teams runs when it is set."
        ),
    )
    app_password: SecretStr | None = Field(
        default=None,
        validation_alias="TEAMS_APP_PASSWORD",
        description="The app's client secret, for the bot's own tokens.",
    )
    tenant_id: str | None = Field(
        default=None,
        validation_alias="TEAMS_TENANT_ID",
        json_schema_extra={SHOWN_DEFAULT: "none: a multi-tenant bot"},
        description="A single-tenant bot's tenant (id or domain): its tokens come from there.",
    )
    port: int = Field(
        default=3978,
        ge=1,
        le=65535,
        validation_alias="TEAMS_PORT",
        description="Where each worker takes Teams' activities, at `/api/messages`.",
    )
    auth: bool = Field(
        default=True,
        validation_alias="TEAMS_AUTH",
        description=(
            "`off` only for a local emulator or test double: activities are taken unsigned and "
            "replies carry no token (said at start-up); `on` refuses (401) any activity "
            "without a valid Bot Framework token."
        ),
    )
    openid_url: str = Field(
        default=BOT_FRAMEWORK_OPENID,
        validation_alias="TEAMS_OPENID_URL",
        json_schema_extra={SHOWN_DEFAULT: "the Bot Framework's"},
        description=(
            "The OpenID metadata whose keys sign Teams' activities (a sovereign cloud or a "
            "test double)."
        ),
    )
    token_url: str = Field(
        default=LOGIN,
        validation_alias="TEAMS_TOKEN_URL",
        json_schema_extra={SHOWN_DEFAULT: "Microsoft Entra's"},
        description=(
            "Where the bot asks for its own tokens; `{tenant}` in it stands for the tenant "
            "asked (`botframework.com` for a multi-tenant bot)."
        ),
    )
    graph_url: str = Field(
        default=GRAPH,
        validation_alias="TEAMS_GRAPH_URL",
        description=(
            "Microsoft Graph, where a team's owners are read (the Bot Framework's roster does "
            "not say who owns a team)."
        ),
    )
    team_allowlist: CommaList = allowlist(
        "TEAMS_TEAM_ALLOWLIST",
        description=(
            "Comma-separated team and group chat ids (`19:…@thread.tacv2`, `19:…@thread.v2`) "
            "where the bot answers; with it set, a personal chat is refused."
        ),
    )
    channel_allowlist: CommaList = allowlist(
        "TEAMS_CHANNEL_ALLOWLIST",
        description="Comma-separated channel ids where the bot answers (a thread by its channel).",
    )
    developer_url: str | None = Field(
        default=None,
        validation_alias="TEAMS_DEVELOPER_URL",
        description=(
            "The page about this deployment (support, privacy, terms of use) that "
            "`citebot manifest teams` links; only the manifest needs it."
        ),
    )

    @field_validator("app_id", "tenant_id", "app_password", "developer_url", mode="before")
    @classmethod
    def _blank(cls, value: Any) -> Any:
        return blank_is_unset(value)

    @field_validator("app_id")
    @classmethod
    def _app_id(cls, value: str | None) -> str | None:
        if value is not None and not _GUID.fullmatch(value.strip()):
            raise ValueError("must be the bot's Microsoft app id, a GUID")
        return value.strip().lower() if value is not None else None

    @field_validator("tenant_id")
    @classmethod
    def _tenant(cls, value: str | None) -> str | None:
        if value is not None and not _TENANT.fullmatch(value.strip()):
            raise ValueError("must be a tenant id (a GUID) or its domain name")
        return value.strip() if value is not None else None

    @field_validator("auth", mode="before")
    @classmethod
    def _switch(cls, value: Any) -> Any:
        return switch(value)

    @field_validator("openid_url", "token_url", "graph_url")
    @classmethod
    def _url(cls, value: str) -> str:
        return http_url(value.strip())

    @field_validator("developer_url")
    @classmethod
    def _page(cls, value: str | None) -> str | None:
        return None if value is None else http_url(value.strip())

    @field_validator("team_allowlist", "channel_allowlist", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        return comma_list(value)

    @property
    def configured(self) -> bool:
        return self.app_id is not None

    def missing(self) -> str | None:
        if self.app_id is None and (self.app_password is not None or self.tenant_id):
            return "TEAMS_APP_ID is missing (TEAMS_APP_PASSWORD or TEAMS_TENANT_ID is set)"
        if self.app_id is not None and self.auth and self.app_password is None:
            return "TEAMS_APP_PASSWORD is missing (TEAMS_APP_ID is set and TEAMS_AUTH is on)"
        return None

    @property
    def bot_tenant(self) -> str:
        """The tenant the bot's own Bot Framework tokens come from."""
        return self.tenant_id or "botframework.com"

    @property
    def allowed_servers(self) -> tuple[str, ...]:
        """A team's id, or a group chat's."""
        return self.team_allowlist

    @property
    def allowed_channels(self) -> tuple[str, ...]:
        return self.channel_allowlist
