"""Every state test runs against each backend; Redis is a real redis-server on a free port."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from uuid import uuid4

import pytest

from bot.state import State, open_state
from tests.bot.state.scan import everything_stored


@pytest.fixture(params=["memory", "sqlite", "redis"])
def state_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "memory":
        return "memory://"
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'state.db'}"
    return str(request.getfixturevalue("redis_url"))


@pytest.fixture
def namespace() -> str:
    """This test's own Redis namespace."""
    return f"test-{uuid4().hex}"


@pytest.fixture
async def open_states(state_url: str, namespace: str) -> AsyncIterator[Callable[[], State]]:
    """Opens States on one backend, as separate workers would (one namespace per test)."""
    opened: list[State] = []

    def open_one() -> State:
        opened.append(open_state(state_url, namespace=namespace))
        return opened[-1]

    yield open_one
    for state in opened:
        await state.aclose()


@pytest.fixture
def state(open_states: Callable[[], State]) -> State:
    return open_states()


shared_backends = pytest.mark.parametrize("state_url", ["sqlite", "redis"], indirect=True)
"""For tests of what two workers share: memory:// belongs to one process."""


@pytest.fixture
def stored(state: State, state_url: str, namespace: str) -> Callable[[], Awaitable[str]]:
    """Everything the test's store holds, as text: every Redis key of its namespace with its
    value, every row of every SQLite table, everything a memory state refers to."""
    return lambda: everything_stored(state, state_url, namespace)
