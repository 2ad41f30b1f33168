"""Telegram's own variables: the bot token, where the Bot API is, the chat allowlist, and the
webhook when updates come that way."""

from __future__ import annotations

import hashlib
import re
from typing import Any, ClassVar, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator

from config.environment import (
    SHOWN_DEFAULT,
    CommaList,
    PlatformSettings,
    allowlist,
    blank_is_unset,
    comma_list,
    http_url,
)

__all__ = ["TelegramSettings"]

_TOKEN = re.compile(r"[0-9]{1,20}:[A-Za-z0-9_-]{20,}")
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
_CHAT_ID = re.compile(r"-?[0-9]{1,20}")


class TelegramSettings(PlatformSettings):
    url_fields: ClassVar[frozenset[str]] = frozenset({"api_base_url", "webhook_url"})
    start_with: ClassVar[str] = "TELEGRAM_BOT_TOKEN"

    bot_token: SecretStr | None = Field(
        default=None,
        validation_alias="TELEGRAM_BOT_TOKEN",
        description="The bot's token from BotFather; Telegram runs when it is set.",
    )
    api_base_url: str = Field(
        default="https://api.telegram.org",
        validation_alias="TELEGRAM_API_BASE_URL",
        description=(
            "The Bot API server's root, without `/bot` (a local Bot API server, a proxy, a test "
            "double); calls go to `{base}/bot{TOKEN}/{method}`."
        ),
    )
    chat_allowlist: CommaList = allowlist(
        "TELEGRAM_CHAT_ALLOWLIST",
        description=(
            "Comma-separated chat ids where the bot answers (questions and buttons alike): "
            "groups (`-100…`) and private chats (the person's id); with it set, a private chat "
            "it does not list is refused."
        ),
    )
    webhook_url: str | None = Field(
        default=None,
        validation_alias="TELEGRAM_WEBHOOK_URL",
        json_schema_extra={SHOWN_DEFAULT: "none: long polling"},
        description="Receive updates by webhook at this public URL instead of long polling.",
    )
    webhook_secret: SecretStr | None = Field(
        default=None,
        validation_alias="TELEGRAM_WEBHOOK_SECRET",
        json_schema_extra={SHOWN_DEFAULT: "derived from the bot token"},
        description=(
            "The secret token Telegram sends with every webhook delivery: 1-256 of "
            "`A-Z a-z 0-9 _ -`."
        ),
    )
    webhook_port: int = Field(
        default=8443,
        ge=1,
        le=65535,
        validation_alias="TELEGRAM_WEBHOOK_PORT",
        description="Where each worker listens for the webhook, at the URL's path.",
    )

    @field_validator("bot_token", "webhook_secret", "webhook_url", mode="before")
    @classmethod
    def _blank(cls, value: Any) -> Any:
        return blank_is_unset(value)

    @field_validator("bot_token")
    @classmethod
    def _token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _TOKEN.fullmatch(value.get_secret_value().strip()):
            raise ValueError(
                "must be the token BotFather gave: the bot's number, ':', then its key"
            )
        return SecretStr(value.get_secret_value().strip()) if value is not None else None

    @field_validator("api_base_url")
    @classmethod
    def _base(cls, value: str) -> str:
        base = http_url(value.strip()).rstrip("/")
        if urlsplit(base).path.lower().endswith("/bot"):
            raise ValueError("must be the Bot API server's root, without /bot")
        return base

    @field_validator("webhook_url")
    @classmethod
    def _webhook(cls, value: str | None) -> str | None:
        return None if value is None else http_url(value.strip())

    @field_validator("webhook_secret")
    @classmethod
    def _secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _SECRET.fullmatch(value.get_secret_value()):
            raise ValueError("must be 1-256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @field_validator("chat_allowlist", mode="before")
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        return comma_list(value)

    @field_validator("chat_allowlist")
    @classmethod
    def _chat_ids(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for part in value:
            if not _CHAT_ID.fullmatch(part):
                raise ValueError(f"must be comma-separated chat ids (-1001234567890), got {part!r}")
        return value

    @property
    def mode(self) -> Literal["polling", "webhook"]:
        """Long polling (one reader across the workers), or a webhook each worker serves."""
        return "webhook" if self.webhook_url else "polling"

    @property
    def secret(self) -> str:
        """The token Telegram sends with every webhook delivery: ``TELEGRAM_WEBHOOK_SECRET``,
        else one derived from the bot token, so that every worker behind a load balancer
        expects the same one without another setting (a digest: the token never leaves)."""
        if self.webhook_secret is not None:
            return self.webhook_secret.get_secret_value()
        assert self.bot_token is not None
        seed = b"citebot telegram webhook:" + self.bot_token.get_secret_value().encode()
        return hashlib.sha256(seed).hexdigest()

    @property
    def webhook_path(self) -> str:
        """Where the webhook listens: the path of ``TELEGRAM_WEBHOOK_URL`` (a proxy or a load
        balancer in front passes it on unchanged)."""
        return urlsplit(self.webhook_url or "").path or "/"

    @property
    def configured(self) -> bool:
        return self.bot_token is not None

    def missing(self) -> str | None:
        if self.bot_token is None and (self.webhook_url or self.webhook_secret):
            return "TELEGRAM_BOT_TOKEN is missing (TELEGRAM_WEBHOOK_URL or its secret is set)"
        return None

    @property
    def allowed_servers(self) -> tuple[str, ...]:
        """A group's id, or a private chat's (the person's own id)."""
        return self.chat_allowlist
