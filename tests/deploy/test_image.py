"""The image as its user meets it: ``citebot`` on PATH, the checkout's version, the demo answering
inside it, an unprivileged user, and nothing of the build context's secrets in any layer."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from uuid import uuid4

import pytest

from tests.deploy.artifacts import ROOT, version
from tests.deploy.containers import run_once
from tests.sim.pages import FOUND

# One at a time across xdist's workers (tests/deploy/conftest.py); the time waiting for the turn
# counts against the timeout, so it is the whole group's, not one test's.
pytestmark = [pytest.mark.usefixtures("taking_turns"), pytest.mark.timeout(900)]


def test_citebot_in_the_image_is_the_checkouts_version(image: str) -> None:
    shown = run_once(image, "citebot", "--version")
    assert (shown.returncode, shown.stdout) == (0, f"citebot {version()}\n")


def test_citebot_ask_answers_from_the_demo_inside_the_container(image: str) -> None:
    """No key, no network beyond the container's own loopback: the embedded demo answers, its
    quotes checked on its own pages, citebot's words in German from the compiled catalogues."""
    asked = run_once(
        image, "citebot", "ask", "How do I deploy citebot?", "--locale", "de", workdir="/tmp"
    )
    assert asked.returncode == 0, asked.stderr
    assert "embedded demo upstream" in asked.stderr
    assert "To deploy citebot, run `citebot run`" in asked.stdout
    assert "Quellen" in asked.stdout  # "Sources"
    assert asked.stdout.count("Zitat auf der Seite gefunden") == 3  # FOUND, in German
    assert FOUND not in asked.stdout


def test_the_worker_runs_as_an_unprivileged_user_and_stops_on_sigterm(image: str) -> None:
    who = run_once(image, "python3", "-c", "import os; print(os.getuid(), os.getcwd())")
    assert who.stdout.split() == ["10001", "/home/citebot"]
    (config,) = json.loads(_podman("image", "inspect", image))
    assert config["Config"]["Cmd"] == ["citebot", "run"]
    assert config["Config"]["StopSignal"] == "SIGTERM"
    # kept by `--format docker` (the OCI format has no HEALTHCHECK); the port is read when the
    # check runs (tests/deploy/test_worker.py runs it)
    assert "os.environ['METRICS_PORT']" in " ".join(config["Healthcheck"]["Test"])


def test_a_dotenv_in_the_build_context_reaches_no_layer(
    image: str, base: str, tmp_path: Path
) -> None:
    """The image built again (from the layer cache) out of a copy of this checkout that also
    holds a .env, a .venv and a .git carrying a secret: no layer holds the secret, neither the
    image's nor those of the stage that builds the wheel (``--target wheel``)."""
    secret = f"sk-leak-{uuid4().hex}"
    context = tmp_path / "context"
    for name in _context_files():
        (context / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, context / name)
    for planted in (".env", ".venv/pyvenv.cfg", ".git/config", "bot/.env"):
        (context / planted).parent.mkdir(parents=True, exist_ok=True)
        (context / planted).write_text(f"UPSTREAM_API_KEY={secret}\n")
    for stage in ("wheel", "runtime"):
        tag = f"localhost/citebot-leak-check-{stage}:{secret[-8:]}"
        target = ["--target=wheel"] if stage == "wheel" else []
        build = subprocess.run(
            [str(ROOT / ".ci/build-image"), tag, base, str(context), *target],
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        assert build.returncode == 0, build.stderr[-2000:]
        try:
            size, holds = _saved_holds(tag, secret.encode())
            assert size > 50_000_000  # the whole image was read, every layer
            assert not holds, f"the {stage} stage holds the secret"
        finally:
            _podman("rmi", "--no-prune", tag)  # its cached layers stay for the next build


def _context_files() -> list[str]:
    """This checkout's files as a clone has them (tracked, or new and not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    return [name for name in listed.stdout.decode().split("\0") if (ROOT / name).is_file()]


def _saved_holds(image: str, needle: bytes) -> tuple[int, bool]:
    """Streams ``podman save`` (every layer, as docker-archive) looking for ``needle``; how many
    bytes it read, and whether it was there."""
    saving = subprocess.Popen(
        ["podman", "save", "--format=docker-archive", image], stdout=subprocess.PIPE
    )
    assert saving.stdout is not None
    size, tail, found = 0, b"", False
    with saving:
        while block := saving.stdout.read(1 << 20):
            size += len(block)
            found = found or needle in tail + block
            tail = block[-len(needle) :]
    assert saving.returncode == 0
    return size, found


def _podman(*args: str) -> str:
    done = subprocess.run(["podman", *args], capture_output=True, text=True, check=True)
    return done.stdout
