"""compose.yaml, read as Compose reads it (no Compose runs here, and no registry holds its Redis
image): a worker that scales, on the Redis it starts, given long enough to drain when stopped."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from bot.worker import EXIT_MARGIN
from config import Settings, load_settings
from tests.deploy.artifacts import ROOT

DEFAULT = re.compile(r"^\$\{([A-Z_]+):-(.*)\}$")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return loaded


def interpolated(value: str) -> str:
    """``${NAME:-default}`` with NAME unset or blank, as in .env.example, is its default."""
    match = DEFAULT.match(value)
    return match[2] if match else value


def seconds(duration: str) -> float:
    """A Compose duration such as ``25s``, ``1m30s``."""
    units = {"h": 3600, "m": 60, "s": 1, "ms": 0.001}
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|h|m|s)", duration)
    assert "".join(n + u for n, u in parts) == duration, duration
    return sum(float(number) * units[unit] for number, unit in parts)


def test_the_worker_is_built_here_scales_and_reads_dotenv(compose: dict[str, Any]) -> None:
    worker = compose["services"]["citebot"]
    assert (ROOT / worker["build"]["context"] / worker["build"]["dockerfile"]).is_file()
    assert worker["env_file"] == ".env"
    # `--scale citebot=3` fails on a fixed name or a published host port
    assert "container_name" not in worker
    assert "ports" not in worker


def test_every_worker_uses_the_redis_compose_starts_and_keeps(compose: dict[str, Any]) -> None:
    services = compose["services"]
    state_url = interpolated(services["citebot"]["environment"]["STATE_URL"])
    assert load_settings({"STATE_URL": state_url}).state_url.startswith("redis://redis:")
    assert "redis" in services["citebot"]["depends_on"]
    redis = services["redis"]
    (volume,) = redis["volumes"]
    name, path = volume.split(":")
    assert path == "/data"  # where the official image keeps its append-only file
    assert name in compose["volumes"]
    assert "--appendonly" in redis["command"]


def test_the_stop_grace_outlasts_the_worker_draining(compose: dict[str, Any]) -> None:
    grace = Settings.model_fields["shutdown_grace_seconds"].default
    stop = seconds(compose["services"]["citebot"]["stop_grace_period"])
    assert stop >= grace + EXIT_MARGIN


def test_the_health_port_is_the_images(compose: dict[str, Any]) -> None:
    """A blank METRICS_PORT in .env would turn /healthz off; Compose gives the image's port."""
    port = interpolated(compose["services"]["citebot"]["environment"]["METRICS_PORT"])
    image_default = re.search(r"METRICS_PORT=(\d+)", (ROOT / "Containerfile").read_text())
    assert image_default is not None
    assert port == image_default[1]
