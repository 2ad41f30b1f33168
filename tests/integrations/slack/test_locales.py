"""UserLocales against the simulated Web API: one users.info call per user per TTL, bounded."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from uuid import uuid4

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from bot.lookups import KeptInStore
from bot.state import open_state
from integrations.slack.locales import UserLocales
from integrations.slack.wire import make_web_client
from tests.patience import PATIENCE
from tests.sim.slack import SlackSim

TEAM = "T0TEAM"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def sim() -> AsyncIterator[SlackSim]:
    async with SlackSim() as simulated:
        for user, locale in (
            ("U0ANA", "pt-BR"),
            ("U0LI", "zh-CN"),
            ("U0JAN", "nl-NL"),
            ("U0AKI", "ja-JP"),
        ):
            simulated.workspace.add_user(user, locale=locale)
        yield simulated


def asked(sim: SlackSim) -> list[str]:
    return [call.args["user"] for call in sim.calls_to("users.info")]


async def test_each_user_is_asked_once_per_ttl_and_the_oldest_is_forgotten(sim: SlackSim) -> None:
    clock = Clock()
    locales = UserLocales(
        AsyncWebClient(token=sim.bot_token, base_url=sim.base_url), size=2, ttl=3600, clock=clock
    )
    at_once = [locales.locale("U0ANA", team=TEAM) for _ in range(3)]
    assert await asyncio.gather(*at_once) == ["pt-BR"] * 3
    assert await locales.locale("U0LI", team=TEAM) == "zh-CN"
    assert await locales.locale("U0ANA", team=TEAM) == "pt-BR"
    assert asked(sim) == ["U0ANA", "U0LI"]

    assert await locales.locale("U0JAN", team=TEAM) == "nl-NL"  # the cache holds two: U0LI goes
    assert await locales.locale("U0ANA", team=TEAM) == "pt-BR"
    assert await locales.locale("U0LI", team=TEAM) == "zh-CN"
    assert asked(sim) == ["U0ANA", "U0LI", "U0JAN", "U0LI"]

    clock.now = 3601
    assert await locales.locale("U0LI", team=TEAM) == "zh-CN"
    assert asked(sim)[-1] == "U0LI"


async def test_any_locale_is_kept_and_unknown_users_are_remembered(sim: SlackSim) -> None:
    clock = Clock()
    locales = UserLocales(
        AsyncWebClient(token=sim.bot_token, base_url=sim.base_url), clock=clock, failure_ttl=60
    )
    # no catalogue, but the upstream is told
    assert await locales.locale("U0AKI", team=TEAM) == "ja-JP"
    assert await locales.locale("U0NOBODY", team=TEAM) is None
    sim.fail_next("users.info", "ratelimited", retry_after=30)
    assert await locales.locale("U0ANA", team=TEAM) is None
    assert await locales.locale("U0AKI", team=TEAM) == "ja-JP"
    for user in ("U0NOBODY", "U0ANA"):
        assert await locales.locale(user, team=TEAM) is None
    assert asked(sim) == ["U0AKI", "U0NOBODY", "U0ANA"]

    clock.now = 61  # a failure is remembered briefly, an answer for the whole TTL
    assert await locales.locale("U0ANA", team=TEAM) == "pt-BR"
    assert await locales.locale("U0AKI", team=TEAM) == "ja-JP"
    assert await locales.locale("U0NOBODY", team=TEAM) is None
    assert asked(sim)[3:] == ["U0ANA", "U0NOBODY"]


async def test_a_slow_answer_is_not_waited_for(sim: SlackSim) -> None:
    """The worker's client waits out a 429's Retry-After; a question does not wait with it."""
    locales = UserLocales(make_web_client(token=sim.bot_token, base_url=sim.base_url), timeout=0.2)
    sim.fail_next("users.info", "ratelimited", retry_after=30)
    assert await asyncio.wait_for(locales.locale("U0ANA", team=TEAM), PATIENCE) is None
    assert asked(sim) == ["U0ANA"]


async def test_workers_on_one_store_ask_once_per_user_and_forgetting_deletes_it(
    sim: SlackSim, redis_url: str
) -> None:
    """A burst's questions land on several workers (Slack spreads events over their
    connections): the first to ask keeps the answer in the store, the others read it. The
    person's forget-me and their workspace's removal each delete it."""
    web = AsyncWebClient(token=sim.bot_token, base_url=sim.base_url)
    async with open_state(redis_url, namespace=f"test-{uuid4().hex}") as state:
        kept = KeptInStore(state, platform="slack", what="locale")
        workers = [UserLocales(web, kept=kept) for _ in range(3)]
        for worker in workers:
            assert await worker.locale("U0ANA", team=TEAM) == "pt-BR"
            assert await worker.locale("U0LI", team=TEAM) == "zh-CN"
        assert asked(sim) == ["U0ANA", "U0LI"]

        assert await state.forget_person("slack", "U0ANA") > 0
        assert await state.forget_place("slack", TEAM) > 0
        for user, locale in (("U0ANA", "pt-BR"), ("U0LI", "zh-CN")):
            assert await UserLocales(web, kept=kept).locale(user, team=TEAM) == locale
        assert asked(sim) == ["U0ANA", "U0LI", "U0ANA", "U0LI"]  # both gone: asked again
