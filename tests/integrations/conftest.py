"""Fixtures the platforms' end-to-end tests share."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.sim.pages import Site, sources


@pytest.fixture
async def site() -> AsyncIterator[Site]:
    """A loopback site with a page of each kind a quote check meets."""
    async with sources() as running:
        yield running
