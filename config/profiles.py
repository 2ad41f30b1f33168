"""Named upstreams a place may answer from (``UPSTREAM_PROFILES``), each with its key in an
environment variable of its own.

A community's own library is an OpenAI-compatible answer API like the default one, with its
own URL, model and key. The operator names each in ``UPSTREAM_PROFILES`` (JSON: ``{"library":
{"base_url": "https://…/v1", "model": "…", "api_key_env": "LIBRARY_API_KEY"}}``) and a
place's admins pick one by name (the ``provider`` setting): they never see or set a key. The
key is read from the variable the profile names when the settings are loaded, kept as a
:class:`~pydantic.SecretStr`, and never printed: an error names the variable, not its value.
A profile may carry its own prices later (``UPSTREAM_PRICES``' shape, as a ``prices`` field)
beside the default upstream's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from config.environment import SettingsError, http_url

__all__ = [
    "DEFAULT_PROVIDER",
    "PROFILE_NAME",
    "UpstreamProfile",
    "parse_profiles",
    "with_keys",
]

VARIABLE = "UPSTREAM_PROFILES"
DEFAULT_PROVIDER = "default"
"""The ``provider`` that names the operator's own upstream (``UPSTREAM_BASE_URL``): no profile
may take the name."""
PROFILE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
"""A profile's name: what an admin types and a button may carry."""
_VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


class UpstreamProfile(BaseModel):
    """One named upstream; ``api_key`` is filled from ``api_key_env`` when the settings load."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str
    model: str = Field(min_length=1)
    api_key_env: str
    api_key: SecretStr | None = Field(default=None, exclude=True)
    """Read from ``api_key_env``, never from the JSON (where it would sit in plain sight)."""

    @field_validator("base_url")
    @classmethod
    def _url(cls, value: str) -> str:
        return http_url(value.strip()).rstrip("/")

    @field_validator("api_key_env")
    @classmethod
    def _variable(cls, value: str) -> str:
        if not _VARIABLE_NAME.fullmatch(value):
            raise ValueError(f"api_key_env must name an environment variable, got {value!r}")
        return value


def parse_profiles(value: Any) -> Any:
    """``UPSTREAM_PROFILES``' JSON as profiles by name (a ``mode="before"`` validator); a
    ValueError that names the profile and what is wrong with it, never a key."""
    if not isinstance(value, str):
        return value
    if not value.strip():
        return {}
    try:
        document = json.loads(value)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg} at character {error.pos})") from None
    if not isinstance(document, dict):
        raise ValueError('write a JSON object of named profiles: {"NAME": {"base_url": …}}')
    profiles: dict[str, UpstreamProfile] = {}
    for name, body in document.items():
        if not PROFILE_NAME.fullmatch(name) or name == DEFAULT_PROVIDER:
            raise ValueError(
                f"{name!r} is not a profile's name (lower-case letters, digits, - and _,"
                f" at most 32; not {DEFAULT_PROVIDER!r})"
            )
        if not isinstance(body, dict) or "api_key" in body:
            raise ValueError(
                f"{name}: write an object of base_url, model and api_key_env (the variable"
                " that holds its key: a key is never written here)"
            )
        try:
            profiles[name] = UpstreamProfile.model_validate(body)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "profile"
            message = first["msg"].removeprefix("Value error, ")
            raise ValueError(f"{name}: {where}: {message}") from None
    return profiles


def with_keys(
    profiles: Mapping[str, UpstreamProfile], environment: Mapping[str, str]
) -> dict[str, UpstreamProfile]:
    """``profiles`` with each key read from the variable it names in ``environment``;
    :class:`SettingsError` naming the profile and the variable when one is unset."""
    keyed: dict[str, UpstreamProfile] = {}
    for name, profile in profiles.items():
        key = environment.get(profile.api_key_env, "").strip()
        if not key:
            raise SettingsError(
                f"{VARIABLE}: {name}: its key variable {profile.api_key_env} is not set"
            )
        keyed[name] = profile.model_copy(update={"api_key": SecretStr(key)})
    return keyed
