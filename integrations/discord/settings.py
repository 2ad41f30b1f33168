"""Discord's own variables: the bot token, where its API is, its shards and allowlists, and
whether the bot has the privileged Message Content intent."""

from __future__ import annotations

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

__all__ = ["DiscordSettings"]


class DiscordSettings(PlatformSettings):
    url_fields: ClassVar[frozenset[str]] = frozenset({"api_base_url"})
    start_with: ClassVar[str] = "DISCORD_TOKEN"

    token: SecretStr | None = Field(
        default=None,
        validation_alias="DISCORD_TOKEN",
        description="The bot's token; Discord runs when it is set.",
    )
    api_base_url: str = Field(
        default="https://discord.com/api/v10",
        validation_alias="DISCORD_API_BASE_URL",
        description=(
            "The REST API's base (a proxy or a test double); the gateway's URL is asked of it "
            "(`GET /gateway/bot`)."
        ),
    )
    shard_count: int | None = Field(
        default=None,
        ge=1,
        validation_alias="DISCORD_SHARD_COUNT",
        json_schema_extra={SHOWN_DEFAULT: "Discord's recommendation"},
        description=(
            "How many shards the bot runs; workers on one Redis go by the first worker's count."
        ),
    )
    shard_ids: CommaList = Field(
        default=(),
        validation_alias="DISCORD_SHARD_IDS",
        json_schema_extra={SHOWN_DEFAULT: "shared out"},
        description=(
            "An override: run exactly these shards in this worker, e.g. `0,1` (workers on one "
            "Redis share the shards out themselves, and leave pinned ones alone)."
        ),
    )
    guild_allowlist: CommaList = allowlist(
        "DISCORD_GUILD_ALLOWLIST",
        description=(
            'Comma-separated server ids where the bot answers: `/ask`, "Check with sources", '
            "mentions, replies, forum posts and buttons alike (`/citebot settings` heeds it "
            "too); with it set, `/ask` in a DM is refused."
        ),
    )
    channel_allowlist: CommaList = allowlist(
        "DISCORD_CHANNEL_ALLOWLIST",
        description=(
            "Comma-separated channel ids where the bot answers, as the guild allowlist; a "
            "thread (a forum post) counts as its parent channel, and `/ask` in a DM is refused "
            "unless the DM's channel is listed."
        ),
    )
    application_id: str | None = Field(
        default=None,
        validation_alias="DISCORD_APPLICATION_ID",
        description=(
            "Your application's id, for the install links `citebot manifest discord` prints "
            "(the worker asks Discord)."
        ),
    )
    """Only ``citebot manifest discord`` reads it (its install links); the worker asks Discord."""
    message_content: bool = Field(
        default=False,
        validation_alias="DISCORD_MESSAGE_CONTENT",
        description=(
            "`on` when the bot has the privileged Message Content intent (switched on in the "
            "Developer Portal too): replies in citebot's threads need no mention, and forums can "
            "have their new posts answered (`auto_answer`)."
        ),
    )
    """The privileged intent, on in the Developer Portal too: thread replies and forum posts
    carry their text, so follow-ups need no mention and forum posts can be answered."""

    @field_validator("message_content", mode="before")
    @classmethod
    def _switch(cls, value: Any) -> Any:
        return switch(value)

    @field_validator("api_base_url")
    @classmethod
    def _base(cls, value: str) -> str:
        return http_url(value.strip()).rstrip("/")

    @field_validator("shard_ids", "guild_allowlist", "channel_allowlist", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        return comma_list(value)

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for part in value:
            if not part.isdigit():
                raise ValueError(f"must be comma-separated shard numbers, got {part!r}")
        return value

    @field_validator("application_id", mode="before")
    @classmethod
    def _application_id(cls, value: Any) -> Any:
        value = blank_is_unset(value)
        if isinstance(value, str) and not value.strip().isdigit():
            raise ValueError(f"must be the application's id (digits), got {value.strip()!r}")
        return value.strip() if isinstance(value, str) else value

    @field_validator("token", mode="before")
    @classmethod
    def _blank_token(cls, value: Any) -> Any:
        return blank_is_unset(value)

    @property
    def configured(self) -> bool:
        return self.token is not None

    @property
    def allowed_servers(self) -> tuple[str, ...]:
        return self.guild_allowlist

    @property
    def allowed_channels(self) -> tuple[str, ...]:
        return self.channel_allowlist
