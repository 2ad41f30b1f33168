"""The settings every platform shares, from the environment or a ``.env`` file.

The names are what operators write in their deployments, so they do not change; a bad value is
reported as one line naming the variable (:class:`SettingsError`), and secrets are ``SecretStr``
so they never print. Each platform's own variables live in its package
(:class:`config.environment.PlatformSettings`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from decimal import Decimal
from typing import Annotated, Any, ClassVar, Literal, Self
from urllib.parse import urlsplit

import platformdirs
from dotenv import dotenv_values
from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import NoDecode

from config.environment import (
    SHOWN_DEFAULT,
    EnvironmentSettings,
    SettingsError,
    blank_is_unset,
    http_url,
    shown_url,
    switch,
)
from config.hosts import HostPort, parse_host_port
from config.prices import parse_prices
from config.profiles import UpstreamProfile, parse_profiles, with_keys

__all__ = [
    "DEMO",
    "Settings",
    "SettingsError",
    "embedded_state_url",
    "load_settings",
    "shown_url",
]

DEMO = "demo"
MAGISTERIUM_API = "https://www.magisterium.com/api/v1"
STATE_FILE = "state.sqlite3"


def embedded_state_url() -> str:
    """``STATE_URL`` when none is set: a SQLite file in the user's data directory, as the
    platform keeps it (platformdirs: ``$XDG_DATA_HOME/citebot``, else
    ``~/.local/share/citebot`` on Linux; ``~/Library/Application Support/citebot`` on macOS;
    ``%LOCALAPPDATA%\\citebot`` on Windows). The folder is made when the store is opened."""
    folder = platformdirs.user_data_path("citebot", appauthor=False)
    return f"sqlite:///{folder / STATE_FILE}"


class Settings(EnvironmentSettings):
    """What every platform shares: the upstream, the state store, the caps on an answer, the
    worker's knobs. Each platform's own variables are its :class:`~config.environment.
    PlatformSettings`. Each field's ``description`` is its row in the documentation's
    configuration table (docs/configuration.md), which is drawn from this model."""

    url_fields: ClassVar[frozenset[str]] = frozenset({"upstream_base_url", "state_url"})

    upstream_base_url: str = Field(
        default=MAGISTERIUM_API,
        validation_alias="UPSTREAM_BASE_URL",
        description="The answer API; `demo` selects the embedded demo upstream.",
    )
    upstream_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("UPSTREAM_API_KEY", "MAGISTERIUM_API_KEY"),
        description="The bearer key sent to the answer API.",
    )
    upstream_model: str = Field(
        default="magisterium-1",
        min_length=1,
        validation_alias="UPSTREAM_MODEL",
        description="The model name sent upstream.",
    )
    upstream_connect_timeout: float = Field(
        default=10.0,
        gt=0,
        validation_alias="UPSTREAM_CONNECT_TIMEOUT",
        description="Seconds to connect to the answer API.",
    )
    upstream_idle_timeout: float = Field(
        default=30.0,
        gt=0,
        validation_alias="UPSTREAM_IDLE_TIMEOUT",
        description="Seconds of silence allowed between two of the upstream's events.",
    )
    upstream_total_timeout: float = Field(
        default=120.0,
        gt=0,
        validation_alias="UPSTREAM_TOTAL_TIMEOUT",
        description=(
            "Seconds for a whole answer, whatever the upstream sends (keep-alive comments "
            "included); the answer keeps its text and says it stopped."
        ),
    )
    upstream_max_retries: int = Field(
        default=3,
        ge=0,
        le=10,
        validation_alias="UPSTREAM_MAX_RETRIES",
        description=(
            "Retries before the first token: a 429 (honouring `Retry-After`), a 5xx, a "
            "connection error."
        ),
    )
    upstream_system_tokens: int | None = Field(
        default=None,
        ge=0,
        le=10_000_000,
        validation_alias="UPSTREAM_SYSTEM_TOKENS",
        description=(
            "Tokens the provider bills an answer beyond its prompt and its text (Magisterium's "
            'retrieval "system" tokens), counted where its `usage` does not report them; '
            "unset, the provider's documented default (Magisterium 16500, others 0: see "
            "Tokens, cost and budgets)."
        ),
    )
    """Tokens the upstream bills an answer beyond its prompt and its text, where its ``usage``
    does not say them (Magisterium's retrieval); None: the provider's documented default
    (bot/billing.py)."""
    upstream_prices: Annotated[tuple[Decimal, Decimal, Decimal] | None, NoDecode] = Field(
        default=None,
        validation_alias="UPSTREAM_PRICES",
        description=(
            "`INPUT,SYSTEM,OUTPUT` US dollars a million tokens, for the cost in reports and "
            "the `daily_cost` budgets; unset, the provider's documented default (Magisterium "
            "`0.50,0.70,2.00`, others none: see Tokens, cost and budgets)."
        ),
    )
    """``INPUT,SYSTEM,OUTPUT`` US dollars a million tokens; None: the provider's documented
    default, if citebot knows one (bot/billing.py)."""
    upstream_max_event_bytes: int = Field(
        default=1024 * 1024,
        ge=1024,
        validation_alias="UPSTREAM_MAX_EVENT_BYTES",
        description=(
            "The longest server-sent event (or whole JSON reply) read; a longer one ends the "
            "answer with a note, keeping its text."
        ),
    )
    """One server-sent event's size; a longer one ends the answer (a runaway or hostile
    upstream would otherwise fill the worker's memory with one endless line)."""
    upstream_profiles: Annotated[Mapping[str, UpstreamProfile], NoDecode] = Field(
        default_factory=dict,
        validation_alias="UPSTREAM_PROFILES",
        json_schema_extra={SHOWN_DEFAULT: "none"},
        description=(
            'JSON: named upstreams a place\'s `provider` may pick, e.g. `{"library": '
            '{"base_url": "https://…/v1", "model": "…", "api_key_env": "LIBRARY_API_KEY"}}`; '
            "each key stays in the variable it names (see Providers)."
        ),
    )

    demo_corpus: str | None = Field(
        default=None,
        validation_alias="DEMO_CORPUS",
        json_schema_extra={SHOWN_DEFAULT: "the bundled documents"},
        description="A folder of Markdown or text files for the demo upstream to answer from.",
    )
    demo_tokens_per_second: float = Field(
        default=60.0,
        gt=0,
        validation_alias="DEMO_TOKENS_PER_SECOND",
        description='How fast the demo upstream "types".',
    )

    port: int = Field(
        default=3000,
        ge=1,
        le=65535,
        validation_alias="PORT",
        description="Where Slack's HTTP mode listens.",
    )
    """Where a platform that receives HTTP requests listens (Slack's HTTP mode)."""

    state_url: str = Field(
        default_factory=embedded_state_url,
        validation_alias="STATE_URL",
        description=(
            "Where shared state lives: unset, a SQLite file in the user's data directory "
            "(see State store); `sqlite:///PATH`, `redis://HOST:PORT/DB` (Valkey too; the "
            "same Redis on every worker: see Deployment; `?socket_timeout=` in a Redis URL "
            "overrides `STATE_TIMEOUT_SECONDS`) or `memory://` (kept by nothing: tests)."
        ),
    )
    state_timeout_seconds: float = Field(
        default=2.0,
        gt=0,
        le=60,
        validation_alias="STATE_TIMEOUT_SECONDS",
        description=(
            "Seconds to connect to the state store, and for each call to it; past them, or "
            "when the store fails, answers go on without it."
        ),
    )
    """Connecting to the state store, and each call to it; past it the answer goes on without
    the store (see bot/state/failopen.py)."""
    history_turns: int = Field(
        default=6,
        ge=0,
        le=50,
        validation_alias="HISTORY_TURNS",
        description="Earlier question-and-answer pairs sent with a follow-up.",
    )
    memory_ttl_seconds: int = Field(
        default=7 * 24 * 3600,
        gt=0,
        validation_alias="MEMORY_TTL_SECONDS",
        description="Seconds a thread's conversation is remembered (a week).",
    )
    rate_limit_per_minute: int = Field(
        default=10,
        ge=1,
        validation_alias="RATE_LIMIT_PER_MINUTE",
        description="Questions one person may ask a minute.",
    )
    max_in_flight: int = Field(
        default=20,
        ge=1,
        validation_alias="MAX_IN_FLIGHT",
        description="Answers one worker streams at once; more wait in a visible queue.",
    )
    max_question_length: int = Field(
        default=2000,
        ge=1,
        validation_alias="MAX_QUESTION_LENGTH",
        description="The longest question, in characters.",
    )
    max_answer_messages: int = Field(
        default=10,
        ge=1,
        validation_alias="MAX_ANSWER_MESSAGES",
        description=(
            "Messages one answer may take; a longer answer stops there, saying so (only the "
            "footnotes a person can see get cards)."
        ),
    )
    max_cards: int = Field(
        default=20,
        ge=1,
        validation_alias="MAX_CARDS",
        description=(
            'Citation cards one answer posts; the sources beyond get one message, "…and 12 '
            'more sources", linked while they fit.'
        ),
    )
    shutdown_grace_seconds: float = Field(
        default=20.0,
        ge=0,
        validation_alias="SHUTDOWN_GRACE_SECONDS",
        description=(
            "Seconds the answers in flight may finish after SIGTERM; the worker has exited 3 s "
            "after them (Deployment says what Docker, Kubernetes and Heroku allow)."
        ),
    )
    metrics_port: int | None = Field(
        default=None,
        ge=1,
        le=65535,
        validation_alias="METRICS_PORT",
        json_schema_extra={SHOWN_DEFAULT: "off"},
        description=(
            "Serve `/metrics`, `/healthz` and `/readyz` on this port (it may be `PORT` or "
            "`TELEGRAM_WEBHOOK_PORT` too: the worker serves every route on one HTTP way in)."
        ),
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        default="INFO",
        validation_alias="LOG_LEVEL",
        description=(
            "`DEBUG`, `INFO`, `WARNING` or `ERROR`: the worker logs JSON lines, one per answer "
            "among them."
        ),
    )
    language: str = Field(
        default="en",
        min_length=1,
        validation_alias="CITEBOT_LANGUAGE",
        description=(
            "The language of citebot's own words (notices, labels) in `citebot ask`, and on "
            "every platform for users whose language has no catalogue: `de`, `en`, `es`, `fr`, "
            "`it`, `nl`, `pl`, `pt_BR`, `zh_Hans`, `zh_Hant` (tags such as `pt-BR`, `zh-CN` or "
            "`zh-TW` are read too)."
        ),
    )
    """A language tag; which catalogue it names is the composition root's to check, so the
    settings stay a leaf that imports nothing of ``bot``."""
    answer_log: Literal["full", "questions", "metadata", "off"] = Field(
        default="metadata",
        validation_alias="ANSWER_LOG",
        description=(
            "What the answer log keeps of each question: `full` (its words and the answer's), "
            "`questions` (its words), `metadata` (neither: who, where, when, what became of it, "
            "tokens, sources, votes) or `off` (nothing)."
        ),
    )
    """What the answer log keeps of each answer (docs/answer-log.md)."""
    answer_log_days: int = Field(
        default=30,
        ge=1,
        le=3660,
        validation_alias="ANSWER_LOG_DAYS",
        description="Days a record of the answer log is kept (1 to 3660).",
    )
    quote_check: bool = Field(
        default=True,
        validation_alias="QUOTE_CHECK",
        description=(
            "Check each cited quote against its source page (`on`/`off`, `true`/`false`, `1`/`0`)."
        ),
    )
    quote_check_allow_hosts: Annotated[tuple[HostPort, ...], NoDecode] = Field(
        default=(),
        validation_alias="QUOTE_CHECK_ALLOW_HOSTS",
        description=(
            "Comma-separated `host` or `host:port` (IPv6 as `[::1]:8080`) that quote checking "
            "may fetch despite a private address: an intranet, a local test server."
        ),
    )

    @field_validator("upstream_profiles", mode="before")
    @classmethod
    def _profiles(cls, value: Any) -> Any:
        return parse_profiles(value)

    @classmethod
    def load(cls, env: Mapping[str, str] | None = None, *, env_file: str | None = ".env") -> Self:
        """The variables, and each of ``UPSTREAM_PROFILES``' keys from the variable it names,
        read where the others are (``env``, else the process environment over ``.env``)."""
        settings = super().load(env, env_file=env_file)
        if not settings.upstream_profiles:
            return settings
        if env is None:
            read = dotenv_values(env_file) if env_file else {}
            env = {**{k: v for k, v in read.items() if v is not None}, **os.environ}
        keyed = with_keys(settings.upstream_profiles, env)
        return settings.model_copy(update={"upstream_profiles": keyed})

    @field_validator("upstream_base_url")
    @classmethod
    def _upstream(cls, value: str) -> str:
        value = value.strip()
        if value.lower() == DEMO:
            return DEMO
        return http_url(value).rstrip("/")

    @field_validator("state_url")
    @classmethod
    def _state(cls, value: str) -> str:
        scheme = urlsplit(value).scheme
        if scheme not in ("memory", "sqlite", "redis", "rediss"):
            raise ValueError(
                f"must start with memory://, sqlite:/// or redis://, got {shown_url(value)}"
            )
        return value

    @field_validator("upstream_prices", mode="before")
    @classmethod
    def _prices(cls, value: Any) -> Any:
        return parse_prices(value) if isinstance(value, str) else value

    @field_validator("answer_log", mode="before")
    @classmethod
    def _answer_log(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("quote_check", mode="before")
    @classmethod
    def _switch(cls, value: Any) -> Any:
        return switch(value)

    @field_validator("quote_check_allow_hosts", mode="before")
    @classmethod
    def _allow_hosts(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(parse_host_port(part) for part in value.split(",") if part.strip())
        return value

    @field_validator("upstream_api_key", mode="before")
    @classmethod
    def _blank_secret_is_unset(cls, value: Any) -> Any:
        return blank_is_unset(value)

    @property
    def uses_demo(self) -> bool:
        """The embedded demo answers: asked for, or (for ``ask``) no key to reach the real API."""
        return self.upstream_base_url == DEMO


def load_settings(
    env: Mapping[str, str] | None = None, *, env_file: str | None = ".env"
) -> Settings:
    """Read the settings, turning any validation failure into one line naming the variable.

    ``env`` replaces the process environment (tests, the CLI's overrides).
    """
    return Settings.load(env, env_file=env_file)
