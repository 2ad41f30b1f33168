"""What every part of citebot reads from the environment shares: loading, one-line errors that
name the variable, and the parsers of its value kinds.

The shared settings (:class:`config.settings.Settings`) and each platform's own
(:class:`PlatformSettings`, defined in its package) are :class:`EnvironmentSettings`: read from
the environment or a ``.env`` file, frozen, and reported as one line naming the variable when a
value is bad, never echoing a secret or the credentials a URL carries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Self
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

__all__ = [
    "SHOWN_DEFAULT",
    "CommaList",
    "EnvironmentSettings",
    "PlatformSettings",
    "SettingsError",
    "allowlist",
    "blank_is_unset",
    "comma_list",
    "http_url",
    "shown_url",
    "switch",
]

CommaList = Annotated[tuple[str, ...], NoDecode]
"""A comma-separated variable (``a, b,c``); parse it with :func:`comma_list`."""

SHOWN_DEFAULT = "shown_default"
"""A field's ``json_schema_extra`` key for its default as a person reads it, where its value
alone would mislead (an empty allowlist is ``everyone``); the documentation's configuration
table shows it."""

_SWITCH = {"on": True, "true": True, "1": True, "off": False, "false": False, "0": False}


class SettingsError(ValueError):
    """A setting is missing or malformed; ``str()`` is one line that names the variable."""


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
    slashes = parts.netloc or value.strip().startswith(f"{parts.scheme}://")  # sqlite:////path
    netloc = f"//{userinfo}{host}{port}" if slashes else ""
    return repr(f"{parts.scheme}:{netloc}{parts.path}{rest}" if parts.scheme else "…")


def http_url(value: str) -> str:
    """``value`` if it is an http(s) URL; a ValueError that shows it safely otherwise."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"must be an http(s) URL, got {shown_url(value)}")
    return value


def comma_list(value: Any) -> Any:
    """A comma-separated string as a tuple of its non-blank parts (a ``mode="before"``
    validator); anything else as it is."""
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    return value


def allowlist(variable: str, *, description: str) -> Any:
    """A comma-separated allowlist's field: empty (the default) lets everyone in, and the
    documentation says so. Parse it with :func:`comma_list`."""
    return Field(
        default=(),
        validation_alias=variable,
        json_schema_extra={SHOWN_DEFAULT: "everyone"},
        description=description,
    )


def switch(value: Any) -> Any:
    """``on``/``off`` (or true/false, 1/0) as a bool (a ``mode="before"`` validator)."""
    if isinstance(value, str):
        if value.strip().lower() not in _SWITCH:
            raise ValueError(f"must be on or off (or true/false, 1/0), got {value.strip()!r}")
        return _SWITCH[value.strip().lower()]
    return value


def blank_is_unset(value: Any) -> Any:
    """A blank secret is no secret (a ``mode="before"`` validator): ``TOKEN=`` in ``.env``."""
    return None if isinstance(value, str) and not value.strip() else value


class EnvironmentSettings(BaseSettings):
    """Variables read from the environment or a ``.env`` file; :meth:`load` turns a bad value
    into a :class:`SettingsError` of one line naming the variable."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        # A blank value is an unset one, whatever its kind: ``.env.example`` copied unchanged
        # (``DISCORD_TOKEN=``), or Compose passing a blank line through, keeps every default.
        env_ignore_empty=True,
        extra="ignore",
        frozen=True,
    )

    url_fields: ClassVar[frozenset[str]] = frozenset()
    """Fields whose value may carry a key or password: an error never echoes them whole."""

    @classmethod
    def load(cls, env: Mapping[str, str] | None = None, *, env_file: str | None = ".env") -> Self:
        """Read the variables; ``env`` replaces the process environment (tests, overrides)."""
        try:
            if env is None:
                return cls(_env_file=env_file)  # type: ignore[call-arg]
            given = {name: value for name, value in env.items() if value != ""}  # as above
            return cls.model_validate(given, by_alias=True)
        except ValidationError as error:
            raise SettingsError(cls._one_line(error)) from None

    @classmethod
    def names(cls, field_name: str) -> tuple[str, ...]:
        """The environment variables a field is read from, its own name first, then aliases."""
        alias = cls.model_fields[field_name].validation_alias
        if isinstance(alias, AliasChoices):
            return tuple(str(choice) for choice in alias.choices)
        return (str(alias or field_name.upper()),)

    @classmethod
    def variable(cls, field_name: str) -> str:
        """The environment variable a field is read from."""
        return cls.names(field_name)[0]

    @classmethod
    def variables(cls) -> tuple[str, ...]:
        """Every variable the model reads, by its own name (aliases left out)."""
        return tuple(cls.variable(name) for name in cls.model_fields)

    @classmethod
    def _one_line(cls, error: ValidationError) -> str:
        first = error.errors()[0]
        loc = first["loc"][0] if first["loc"] else ""
        field_name = next(
            (name for name in cls.model_fields if name == loc or cls.variable(name) == loc),
            str(loc),
        )
        known = field_name in cls.model_fields
        variable = cls.variable(field_name) if known else str(loc)
        secret = known and _is_secret(cls.model_fields[field_name].annotation)
        message = first["msg"].removeprefix("Value error, ")
        if first["type"] not in ("value_error",):
            if field_name in cls.url_fields and isinstance(first.get("input"), str):
                message = f"{message} (got {shown_url(first['input'])})"
            elif not secret and field_name not in cls.url_fields:
                message = f"{message} (got {first.get('input')!r})"
        more = len(error.errors()) - 1
        suffix = f" (and {more} more setting{'s' if more > 1 else ''})" if more else ""
        return f"{variable}: {message}{suffix}"


def _is_secret(annotation: object) -> bool:
    return "SecretStr" in repr(annotation) or annotation is SecretStr


class PlatformSettings(EnvironmentSettings):
    """One platform's own variables (its tokens, its API base, its allowlists), defined in its
    package and named by its registry entry (:class:`bot.platforms.Platform`).

    The worker starts the platform when :attr:`configured`; :meth:`missing` names what a
    half-made configuration lacks. The allowlists are the outer fence of every place: no
    setting made inside a platform can open a place they close."""

    start_with: ClassVar[str] = ""
    """The variables that start the platform, as ``citebot run`` names them when none is set
    (``DISCORD_TOKEN``)."""

    @property
    def configured(self) -> bool:
        """Whether the worker runs this platform."""
        return False

    def missing(self) -> str | None:
        """One line naming what a half-made configuration lacks; None when nothing does."""
        return None

    @property
    def allowed_servers(self) -> tuple[str, ...]:
        """The servers, workspaces or groups citebot may answer in (empty: all)."""
        return ()

    @property
    def allowed_channels(self) -> tuple[str, ...]:
        """The channels citebot may answer in, a thread judged by its parent (empty: all)."""
        return ()
