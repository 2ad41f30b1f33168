"""The worker under test for ``bench.bench_capacity``: ``citebot run`` exactly as deployed (the
settings come from the environment), with the answer client's transport named on the command
line, so the benchmark can compare transports without a user-facing setting.

Run: ``python -m bench.capacity_worker httpx|aiohttp`` (the benchmark starts it).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import httpx

import bot.upstream.client

TRANSPORTS: dict[str, Callable[[], httpx.AsyncBaseTransport]] = {
    "httpx": lambda: httpx.AsyncHTTPTransport(limits=bot.upstream.client.POOL),
    "aiohttp": lambda: _aiohttp(),
}


def _aiohttp() -> httpx.AsyncBaseTransport:
    from httpx_aiohttp import AiohttpTransport

    return AiohttpTransport(limits=bot.upstream.client.POOL)


def main(argv: list[str]) -> int:
    (name,) = argv
    # read when the worker builds its client
    bot.upstream.client.default_transport = TRANSPORTS[name]
    from bot.__main__ import main as citebot

    return citebot(["run"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
