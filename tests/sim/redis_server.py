"""A real, throwaway ``redis-server`` on a free loopback port, for any test that needs Redis.

Plain context manager so the state tests, the multi-worker tests and a bench can all share it:

    with start_redis_server() as url:   # "redis://127.0.0.1:PORT/0"
        ...

Nothing is persisted (``--save "" --appendonly no``, a temporary working directory).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

__all__ = [
    "RedisProcess",
    "RedisServerMissing",
    "free_port",
    "redis_server_path",
    "start_redis_server",
]

_START_TIMEOUT = 10.0


class RedisServerMissing(RuntimeError):
    """``redis-server`` is not on PATH."""


def redis_server_path() -> str:
    path = shutil.which("redis-server")
    if path is None:
        raise RedisServerMissing(
            "redis-server is not on PATH (apt-get install -y redis-server; .ci/run does this)"
        )
    return path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@contextlib.contextmanager
def start_redis_server() -> Iterator[str]:
    """Start redis-server, wait until it answers PING, yield its URL, stop it."""
    binary = redis_server_path()
    with tempfile.TemporaryDirectory(prefix="citebot-redis-") as workdir:
        for _attempt in range(3):  # another process may grab the free port before redis does
            port = free_port()
            process = subprocess.Popen(
                [
                    binary,
                    "--port",
                    str(port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    workdir,
                    "--logfile",
                    os.path.join(workdir, "log"),
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                if _await_ping(process, port):
                    yield f"redis://127.0.0.1:{port}/0"
                    return
            finally:
                _stop(process)
        raise RuntimeError(f"redis-server did not start; its log: {_tail(workdir)}")


def _await_ping(process: subprocess.Popen[bytes], port: int) -> bool:
    deadline = time.monotonic() + _START_TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        if _answers_ping(port):
            return True
        time.sleep(0.02)
    return False


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _tail(workdir: str) -> str:
    with contextlib.suppress(OSError), open(os.path.join(workdir, "log")) as log:
        return log.read()[-500:]
    return "(no log)"


class RedisProcess:
    """A redis-server that a test can kill and start again on the same port, as an outage
    and a restart would look to every client (``with RedisProcess() as redis: redis.kill()``)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._workdir = tempfile.TemporaryDirectory(prefix="citebot-redis-")
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self._process = subprocess.Popen(
            [
                redis_server_path(),
                *("--port", str(self.port), "--bind", "127.0.0.1", "--save", ""),
                *("--appendonly", "no", "--dir", self._workdir.name),
                *("--logfile", os.path.join(self._workdir.name, "log")),
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if not _await_ping(self._process, self.port):
            raise RuntimeError(f"redis-server did not start; its log: {_tail(self._workdir.name)}")

    def kill(self) -> None:
        """SIGKILL: connections drop at once, nothing is saved (the data is gone too)."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()

    def __enter__(self) -> RedisProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._process is not None:
            _stop(self._process)
        self._workdir.cleanup()
