"""Every setting citebot reads, from the environment or a ``.env`` file.

The names are the outside contract (CONTRACT.md); a bad value is reported as one line naming
the variable (:class:`SettingsError`), and secrets are ``SecretStr`` so they never print.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal, NamedTuple
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

__all__ = [
    "DEMO",
    "HostPort",
    "Settings",
    "SettingsError",
    "load_settings",
    "parse_host_port",
    "shown_url",
]

DEMO = "demo"
MAGISTERIUM_API = "https://www.magisterium.com/api/v1"

CommaList = Annotated[tuple[str, ...], NoDecode]


class SettingsError(ValueError):
    """A setting is missing or malformed; ``str()`` is one line that names the variable."""


class HostPort(NamedTuple):
    """A host as a URL names it (lower case, IPv6 without brackets); ``port`` None is any port."""

    host: str
    port: int | None = None


_SWITCH = {"on": True, "true": True, "1": True, "off": False, "false": False, "0": False}
_HOST_NAME = re.compile(
    r"(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?"
)
_HOST_PORT = re.compile(r"^(?:\[(?P<v6>[^\]]+)\]|(?P<host>[^:\[\]]+))(?::(?P<port>[^:]*))?$")


def parse_host_port(entry: str) -> HostPort:
    """``host``, ``host:port``, ``[v6]`` or ``[v6]:port``; ValueError says what is wrong."""
    text = entry.strip().lower()
    if ":" in text and "[" not in text and "." not in text.rpartition(":")[0]:
        try:  # a bare IPv6 address: any port
            return HostPort(str(ipaddress.IPv6Address(text)))
        except ValueError:
            pass
    match = None if "/" in text else _HOST_PORT.match(text)
    if match is None:
        raise ValueError(f"write host or host:port (IPv6 as [::1]:8080), got {entry.strip()!r}")
    host = match.group("v6") or match.group("host")
    try:
        host = str(ipaddress.ip_address(host))
    except ValueError:
        if match.group("v6") or not _HOST_NAME.fullmatch(host):
            raise ValueError(f"not a host name or IP address: {host!r}") from None
    port_text = match.group("port")
    if port_text is None:
        return HostPort(host.rstrip("."))
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"the port of {entry.strip()!r} must be a number from 1 to 65535")
    return HostPort(host.rstrip("."), int(port_text))


def shown_url(value: str) -> str:
    """A URL as an error may show it: scheme, host, port and path, never the user, password,
    query or fragment that may carry a key (``redis://:PASSWORD@host``, ``?key=...``)."""
    try:
        parts = urlsplit(value.strip())
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port is not None else ""
    except ValueError:
        return repr(value.strip().split(":", 1)[0] + ":…")
    userinfo = "…@" if "@" in parts.netloc else ""
    rest = "?…" if parts.query or parts.fragment else ""
    netloc = f"//{userinfo}{host}{port}" if parts.netloc else ""
    return repr(f"{parts.scheme}:{netloc}{parts.path}{rest}" if parts.scheme else "…")


def _http_url(value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"must be an http(s) URL, got {shown_url(value)}")
    return value


class Settings(BaseSettings):
    """The worker's and the CLI's configuration; see the README's table for each variable."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        # A blank value is an unset one, whatever its kind: ``.env.example`` copied unchanged
        # (``DISCORD_TOKEN=``), or Compose passing a blank line through, keeps every default.
        env_ignore_empty=True,
        extra="ignore",
        frozen=True,
    )

    upstream_base_url: str = Field(default=MAGISTERIUM_API, validation_alias="UPSTREAM_BASE_URL")
    upstream_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("UPSTREAM_API_KEY", "MAGISTERIUM_API_KEY")
    )
    upstream_model: str = Field(
        default="magisterium-1", min_length=1, validation_alias="UPSTREAM_MODEL"
    )
    upstream_connect_timeout: float = Field(
        default=10.0, gt=0, validation_alias="UPSTREAM_CONNECT_TIMEOUT"
    )
    upstream_idle_timeout: float = Field(
        default=30.0, gt=0, validation_alias="UPSTREAM_IDLE_TIMEOUT"
    )
    upstream_total_timeout: float = Field(
        default=120.0, gt=0, validation_alias="UPSTREAM_TOTAL_TIMEOUT"
    )
    upstream_max_retries: int = Field(
        default=3, ge=0, le=10, validation_alias="UPSTREAM_MAX_RETRIES"
    )
    upstream_max_event_bytes: int = Field(
        default=1024 * 1024, ge=1024, validation_alias="UPSTREAM_MAX_EVENT_BYTES"
    )
    """One server-sent event's size; a longer one ends the answer (a runaway or hostile
    upstream would otherwise fill the worker's memory with one endless line)."""

    demo_corpus: str | None = Field(default=None, validation_alias="DEMO_CORPUS")
    demo_tokens_per_second: float = Field(
        default=60.0, gt=0, validation_alias="DEMO_TOKENS_PER_SECOND"
    )

    discord_token: SecretStr | None = Field(default=None, validation_alias="DISCORD_TOKEN")
    discord_api_base_url: str = Field(
        default="https://discord.com/api/v10", validation_alias="DISCORD_API_BASE_URL"
    )
    discord_shard_count: int | None = Field(
        default=None, ge=1, validation_alias="DISCORD_SHARD_COUNT"
    )
    discord_shard_ids: CommaList = Field(default=(), validation_alias="DISCORD_SHARD_IDS")
    discord_guild_allowlist: CommaList = Field(
        default=(), validation_alias="DISCORD_GUILD_ALLOWLIST"
    )
    discord_channel_allowlist: CommaList = Field(
        default=(), validation_alias="DISCORD_CHANNEL_ALLOWLIST"
    )

    slack_bot_token: SecretStr | None = Field(default=None, validation_alias="SLACK_BOT_TOKEN")
    slack_app_token: SecretStr | None = Field(default=None, validation_alias="SLACK_APP_TOKEN")
    slack_signing_secret: SecretStr | None = Field(
        default=None, validation_alias="SLACK_SIGNING_SECRET"
    )
    slack_api_base_url: str = Field(
        default="https://slack.com/api/", validation_alias="SLACK_API_BASE_URL"
    )
    slack_channel_allowlist: CommaList = Field(
        default=(), validation_alias="SLACK_CHANNEL_ALLOWLIST"
    )
    port: int = Field(default=3000, ge=1, le=65535, validation_alias="PORT")

    state_url: str = Field(default="memory://", validation_alias="STATE_URL")
    state_timeout_seconds: float = Field(
        default=2.0, gt=0, le=60, validation_alias="STATE_TIMEOUT_SECONDS"
    )
    """Connecting to the state store, and each call to it; past it the answer goes on without
    the store (see bot/state/failopen.py)."""
    history_turns: int = Field(default=6, ge=0, le=50, validation_alias="HISTORY_TURNS")
    memory_ttl_seconds: int = Field(
        default=7 * 24 * 3600, gt=0, validation_alias="MEMORY_TTL_SECONDS"
    )
    rate_limit_per_minute: int = Field(default=10, ge=1, validation_alias="RATE_LIMIT_PER_MINUTE")
    max_in_flight: int = Field(default=20, ge=1, validation_alias="MAX_IN_FLIGHT")
    max_question_length: int = Field(default=2000, ge=1, validation_alias="MAX_QUESTION_LENGTH")
    max_answer_messages: int = Field(default=10, ge=1, validation_alias="MAX_ANSWER_MESSAGES")
    max_cards: int = Field(default=20, ge=1, validation_alias="MAX_CARDS")
    shutdown_grace_seconds: float = Field(
        default=20.0, ge=0, validation_alias="SHUTDOWN_GRACE_SECONDS"
    )
    metrics_port: int | None = Field(default=None, ge=1, le=65535, validation_alias="METRICS_PORT")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        default="INFO", validation_alias="LOG_LEVEL"
    )
    language: str = Field(default="en", min_length=1, validation_alias="CITEBOT_LANGUAGE")
    """A language tag; which catalogue it names is the composition root's to check, so the
    settings stay a leaf that imports nothing of ``bot``."""
    quote_check: bool = Field(default=True, validation_alias="QUOTE_CHECK")
    quote_check_allow_hosts: Annotated[tuple[HostPort, ...], NoDecode] = Field(
        default=(), validation_alias="QUOTE_CHECK_ALLOW_HOSTS"
    )

    @field_validator("upstream_base_url")
    @classmethod
    def _upstream(cls, value: str) -> str:
        value = value.strip()
        if value.lower() == DEMO:
            return DEMO
        return _http_url(value).rstrip("/")

    @field_validator("discord_api_base_url")
    @classmethod
    def _discord_base(cls, value: str) -> str:
        return _http_url(value.strip()).rstrip("/")

    @field_validator("slack_api_base_url")
    @classmethod
    def _slack_base(cls, value: str) -> str:
        value = _http_url(value.strip())
        return value if value.endswith("/") else value + "/"

    @field_validator("state_url")
    @classmethod
    def _state(cls, value: str) -> str:
        scheme = urlsplit(value).scheme
        if scheme not in ("memory", "sqlite", "redis", "rediss"):
            raise ValueError(
                f"must start with memory://, sqlite:/// or redis://, got {shown_url(value)}"
            )
        return value

    @field_validator(
        "discord_shard_ids",
        "discord_guild_allowlist",
        "discord_channel_allowlist",
        "slack_channel_allowlist",
        mode="before",
    )
    @classmethod
    def _comma_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("quote_check", mode="before")
    @classmethod
    def _switch(cls, value: Any) -> Any:
        if isinstance(value, str):
            if value.strip().lower() not in _SWITCH:
                raise ValueError(f"must be on or off (or true/false, 1/0), got {value.strip()!r}")
            return _SWITCH[value.strip().lower()]
        return value

    @field_validator("quote_check_allow_hosts", mode="before")
    @classmethod
    def _allow_hosts(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(parse_host_port(part) for part in value.split(",") if part.strip())
        return value

    @field_validator("discord_shard_ids")
    @classmethod
    def _shard_ids(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for part in value:
            if not part.isdigit():
                raise ValueError(f"must be comma-separated shard numbers, got {part!r}")
        return value

    @field_validator(
        "upstream_api_key",
        "discord_token",
        "slack_bot_token",
        "slack_app_token",
        "slack_signing_secret",
        mode="before",
    )
    @classmethod
    def _blank_secret_is_unset(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @property
    def uses_demo(self) -> bool:
        """The embedded demo answers: asked for, or (for ``ask``) no key to reach the real API."""
        return self.upstream_base_url == DEMO

    @property
    def slack_mode(self) -> Literal["socket", "http"] | None:
        if self.slack_bot_token and self.slack_app_token:
            return "socket"
        if self.slack_bot_token and self.slack_signing_secret:
            return "http"
        return None


_SECRET_FIELDS = {
    name for name, info in Settings.model_fields.items() if "SecretStr" in repr(info.annotation)
}
_URL_FIELDS = {"upstream_base_url", "discord_api_base_url", "slack_api_base_url", "state_url"}
"""Settings whose value may carry a key or password: an error never echoes them whole."""


def _variable(field_name: str) -> str:
    alias = Settings.model_fields[field_name].validation_alias
    if isinstance(alias, AliasChoices):
        return str(alias.choices[0])
    return str(alias or field_name.upper())


def _one_line(error: ValidationError) -> str:
    first = error.errors()[0]
    loc = first["loc"][0] if first["loc"] else ""
    field_name = next(
        (name for name in Settings.model_fields if name == loc or _variable(name) == loc), str(loc)
    )
    variable = _variable(field_name) if field_name in Settings.model_fields else str(loc)
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] not in ("value_error",):
        if field_name in _URL_FIELDS and isinstance(first.get("input"), str):
            message = f"{message} (got {shown_url(first['input'])})"
        elif field_name not in _SECRET_FIELDS | _URL_FIELDS:
            message = f"{message} (got {first.get('input')!r})"
    more = len(error.errors()) - 1
    suffix = f" (and {more} more setting{'s' if more > 1 else ''})" if more else ""
    return f"{variable}: {message}{suffix}"


def load_settings(
    env: Mapping[str, str] | None = None, *, env_file: str | None = ".env"
) -> Settings:
    """Read the settings, turning any validation failure into one line naming the variable.

    ``env`` replaces the process environment (tests, the CLI's overrides).
    """
    try:
        if env is None:
            return Settings(_env_file=env_file)  # type: ignore[call-arg]
        given = {name: value for name, value in env.items() if value != ""}  # as env_ignore_empty
        return Settings.model_validate(given, by_alias=True)
    except ValidationError as error:
        raise SettingsError(_one_line(error)) from None
