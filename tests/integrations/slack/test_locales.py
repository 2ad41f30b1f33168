"""UserLocales against the simulated Web API: one users.info call per user per TTL, bounded."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from integrations.slack.locales import UserLocales
from integrations.slack.web import make_web_client
from tests.sim.slack import SlackSim


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def sim() -> AsyncIterator[SlackSim]:
    async with SlackSim() as simulated:
        for user, locale in (("U0ANA", "pt-BR"), ("U0LI", "zh-CN"), ("U0JAN", "nl-NL"),
                             ("U0AKI", "ja-JP")):
            simulated.workspace.add_user(user, locale=locale)
        yield simulated


def asked(sim: SlackSim) -> list[str]:
    return [call.args["user"] for call in sim.calls_to("users.info")]


async def test_each_user_is_asked_once_per_ttl_and_the_oldest_is_forgotten(
        sim: SlackSim) -> None:
    clock = Clock()
    locales = UserLocales(AsyncWebClient(token=sim.bot_token, base_url=sim.base_url),
                          size=2, ttl=3600, clock=clock)
    assert await asyncio.gather(*(locales.language("U0ANA") for _ in range(3))) == [
        "pt_BR"] * 3
    assert await locales.language("U0LI") == "zh_Hans"
    assert await locales.language("U0ANA") == "pt_BR"
    assert asked(sim) == ["U0ANA", "U0LI"]

    assert await locales.language("U0JAN") == "nl"  # the cache holds two: U0LI goes
    assert await locales.language("U0ANA") == "pt_BR"
    assert await locales.language("U0LI") == "zh_Hans"
    assert asked(sim) == ["U0ANA", "U0LI", "U0JAN", "U0LI"]

    clock.now = 3601
    assert await locales.language("U0LI") == "zh_Hans"
    assert asked(sim)[-1] == "U0LI"


async def test_unknown_languages_and_users_get_the_default_and_are_remembered(
        sim: SlackSim) -> None:
    clock = Clock()
    locales = UserLocales(AsyncWebClient(token=sim.bot_token, base_url=sim.base_url),
                          clock=clock, failure_ttl=60)
    assert await locales.language("U0AKI") is None
    assert await locales.language("U0NOBODY") is None
    sim.fail_next("users.info", "ratelimited", retry_after=30)
    assert await locales.language("U0ANA") is None
    for user in ("U0AKI", "U0NOBODY", "U0ANA"):
        assert await locales.language(user) is None
    assert asked(sim) == ["U0AKI", "U0NOBODY", "U0ANA"]

    clock.now = 61  # a failure is remembered briefly, an answer for the whole TTL
    assert await locales.language("U0ANA") == "pt_BR"
    assert await locales.language("U0AKI") is None
    assert await locales.language("U0NOBODY") is None
    assert asked(sim)[3:] == ["U0ANA", "U0NOBODY"]


async def test_a_slow_answer_is_not_waited_for(sim: SlackSim) -> None:
    """The worker's client waits out a 429's Retry-After; a question does not wait with it."""
    locales = UserLocales(make_web_client(token=sim.bot_token, base_url=sim.base_url),
                          timeout=0.2)
    sim.fail_next("users.info", "ratelimited", retry_after=30)
    assert await asyncio.wait_for(locales.language("U0ANA"), 10) is None
    assert asked(sim) == ["U0ANA"]
