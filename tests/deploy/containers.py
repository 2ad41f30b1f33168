"""citebot's image run with podman as these machines allow (../shared/PLATFORM-NOTES.md,
"Containers here"): runc, explicit ulimits, and the host's network, so a container reaches the
simulators on loopback and they reach it."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import uuid4

__all__ = ["PODMAN_RUN", "Container", "container", "run_once"]

PODMAN_RUN = (
    *("podman", "run", "--rm", "--runtime", "runc", "--network", "host"),
    *("--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"),
)


def _env(env: Mapping[str, str]) -> list[str]:
    return [f"--env={name}={value}" for name, value in env.items()]


def run_once(
    image: str, *command: str, env: Mapping[str, str] | None = None, workdir: str | None = None
) -> subprocess.CompletedProcess[str]:
    """One command in a fresh container, to its end (no health checks: nothing stays up)."""
    where = [f"--workdir={workdir}"] if workdir else []
    return subprocess.run(
        [*PODMAN_RUN, "--no-healthcheck", *where, *_env(env or {}), image, *command],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@dataclass
class Container:
    """A container running the image's own command, its output (podman's too) in ``log``."""

    name: str
    process: asyncio.subprocess.Process
    log: Path

    def records(self) -> list[dict[str, Any]]:
        """The worker's JSON log lines, in order."""
        lines = self.log.read_text(errors="replace").splitlines()
        return [json.loads(line) for line in lines if line.startswith("{")]

    def messages(self) -> list[str]:
        return [record["message"] for record in self.records()]

    async def stop(self, *, kill_after: float) -> tuple[int, float]:
        """``podman stop``, as ``docker stop`` and Compose stop a container: the image's
        STOPSIGNAL, then SIGKILL ``kill_after`` seconds later. Its exit code and how long the
        container took to end."""
        started = time.monotonic()
        stopping = await asyncio.create_subprocess_exec(
            "podman", "stop", f"--time={kill_after:g}", self.name, stdout=asyncio.subprocess.DEVNULL
        )
        code = await asyncio.wait_for(self.process.wait(), kill_after + 30)
        ended = time.monotonic() - started
        await stopping.wait()
        return code, ended

    async def healthcheck(self) -> int:
        """The image's HEALTHCHECK, run now (podman runs it on a systemd timer otherwise)."""
        check = await asyncio.create_subprocess_exec(
            "podman", "healthcheck", "run", self.name, stdout=asyncio.subprocess.DEVNULL
        )
        return await check.wait()


@asynccontextmanager
async def container(
    image: str, *, env: Mapping[str, str], log: Path, command: Sequence[str] = ()
) -> AsyncIterator[Container]:
    """The image's default command (the worker) in a container, killed on the way out if the
    test has not stopped it."""
    name = f"citebot-test-{uuid4().hex[:12]}"
    with log.open("wb") as out:
        process = await asyncio.create_subprocess_exec(
            *PODMAN_RUN,
            f"--name={name}",
            *_env(env),
            image,
            *command,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=out,
            stderr=asyncio.subprocess.STDOUT,
        )
    running = Container(name, process, log)
    try:
        yield running
    finally:
        if process.returncode is None:
            killing = await asyncio.create_subprocess_exec(
                "podman", "kill", name, stdout=asyncio.subprocess.DEVNULL
            )
            await killing.wait()
            await process.wait()
