"""What answers cost, through the real service, a platform's kit and a SQLite store: a
Magisterium-like answer (no ``usage``, retrieval billed as system tokens) counted at the
documented prices, a provider that reports its tokens, one whose prices nobody knows, the
metrics, and the daily budgets of tokens and of money refusing at the right answer."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from bot.admission import Admission
from bot.answer import Outcome, Question
from bot.billing import Tariff, bill, estimate_tokens, tariff
from bot.kit import PlatformKit
from bot.ops.metrics import Metrics
from bot.places import Places
from bot.platforms import load_platform
from bot.service import AnswerService
from bot.state import open_state
from bot.upstream.client import AnswerClient, RetryPolicy, Timeouts
from bot.upstream.events import Usage
from config import PlatformSettings, Settings, load_settings
from config.settings import MAGISTERIUM_API
from tests.bot.presenter import PlainPresenter
from tests.bot.test_answer_log import GROUP, Sink, logged
from tests.bot.test_service import NOW
from tests.sim.upstream import Stream, UpstreamSim, answer, chunk

ANSWER = "Hello world."
MAGISTERIUM_LIKE = Stream((chunk("Hello"), chunk(" world."), chunk(finish_reason="stop")))
"""An answer as Magisterium streams it: no ``usage`` anywhere."""
EACH = estimate_tokens("Question 1?") + 16_500 + estimate_tokens(ANSWER)
"""A Magisterium-like answer's tokens: its question and its text estimated (3 + 3), and the
documented 16,500 system tokens."""
EACH_COST = Decimal("0.011558")
"""3 x $0.50 + 16,500 x $0.70 + 3 x $2.00 a million tokens = $0.0115575, rounded half-even to
the millionth."""

Kit = Callable[[Settings], PlatformKit]


@pytest.fixture
async def magisterium() -> AsyncIterator[UpstreamSim]:
    async with UpstreamSim(default=MAGISTERIUM_LIKE).running() as sim:
        yield sim


@pytest.fixture
async def kits(
    magisterium: UpstreamSim, register_platform: Callable[[str], None], tmp_path: Path
) -> AsyncIterator[Kit]:
    """A kit whose service bills as ``settings`` say (the worker's way: bot.billing.tariff),
    answered by the Magisterium-like upstream, on a SQLite store."""
    register_platform("signal")
    async with (
        AnswerClient(
            base_url=magisterium.base_url,
            api_key=None,
            model="magisterium-1",
            timeouts=Timeouts(connect=2, idle=2, total=20),
            retry=RetryPolicy(max_retries=0),
        ) as client,
        open_state(f"sqlite:///{tmp_path / 'state.db'}") as state,
    ):

        def make(settings: Settings) -> PlatformKit:
            service = AnswerService(
                client=client,
                state=state,
                admission=Admission(max_in_flight=4),
                places=Places(state, defaults=settings),
                metrics=Metrics(),
                tariff=tariff(settings),
            )
            return PlatformKit(
                service,
                load_platform("signal"),
                environment=PlatformSettings(),
                settings=settings,
                presenter=PlainPresenter(),
                pacer=NOW,
            )

        yield make


async def ask(kit: PlatformKit, text: str, *, language: str | None = None) -> Sink:
    """A question in the group itself, outside any thread: no earlier turn is sent with it, so
    every answer's input is its own question's."""
    sink = Sink()
    question = Question(
        text=text,
        platform="signal",
        user_id="4401",
        channel_id="-100200",
        server_id=GROUP.server,
        language=language,
    )
    await kit.ask(question, sink)
    return sink


def magisterium_settings(**more: str) -> Settings:
    return load_settings({"UPSTREAM_BASE_URL": MAGISTERIUM_API, **more}, env_file=None)


def sample(kit: PlatformKit, name: str, **labels: str) -> float:
    value = kit._service.metrics.registry.get_sample_value(name, labels)
    return 0.0 if value is None else value


async def test_a_magisterium_answer_counts_its_system_tokens_at_the_documented_prices(
    kits: Kit,
) -> None:
    kit = kits(magisterium_settings())
    await ask(kit, "Question 1?")
    [record] = await logged(kit)
    assert record.provider == "magisterium"
    assert record.reported == {}  # Magisterium says nothing of its tokens
    assert record.estimated == {"input": 3, "system": 16_500, "output": 3}
    assert (record.tokens, record.cost, record.cost_reported) == (EACH, EACH_COST, False)
    report = await kit.report(GROUP, timedelta(hours=1))
    assert report.tokens == {
        "input": {"estimated": 3},
        "system": {"estimated": 16_500},
        "output": {"estimated": 3},
    }
    assert (report.cost, report.unpriced) == (EACH_COST, 0)
    labels = {"platform": "signal", "provider": "magisterium", "counted": "estimated"}
    assert sample(kit, "citebot_tokens_total", kind="system", **labels) == 16_500
    assert sample(kit, "citebot_tokens_total", kind="input", **labels) == 3
    assert sample(
        kit, "citebot_cost_usd_total", platform="signal", provider="magisterium"
    ) == pytest.approx(0.011558)


async def test_the_operator_s_overhead_and_prices_replace_the_documented_ones(
    kits: Kit,
) -> None:
    kit = kits(magisterium_settings(UPSTREAM_SYSTEM_TOKENS="20000", UPSTREAM_PRICES="1,1,1"))
    await ask(kit, "Question 1?")
    [record] = await logged(kit)
    assert record.estimated["system"] == 20_000
    assert record.cost == Decimal("0.020006")  # 20,006 tokens at $1 a million


async def test_an_answer_of_a_provider_nobody_priced_has_no_cost_and_the_report_says_so(
    kits: Kit, magisterium: UpstreamSim
) -> None:
    kit = kits(load_settings({"UPSTREAM_BASE_URL": "https://llm.example.org/v1"}, env_file=None))
    magisterium.queue(answer(["Hello", " world."]))  # usage: 12 + 2 tokens
    await ask(kit, "Question 1?")
    [record] = await logged(kit)
    assert (record.provider, record.tokens, record.estimated) == ("llm.example.org", 14, {})
    assert record.cost is None
    report = await kit.report(GROUP, timedelta(hours=1))
    assert (report.cost, report.unpriced) == (Decimal(0), 1)
    assert sample(kit, "citebot_cost_usd_total", platform="signal", provider="llm.example.org") == 0


def test_a_cost_the_upstream_reports_is_the_answer_s_cost() -> None:
    """OpenRouter's ``usage.cost`` (its recording: tests/fixtures/providers/openrouter), to the
    millionth; the prices are not asked."""
    question = Question(text="Why?", platform="signal", user_id="1", channel_id="2")
    usage = Usage(prompt_tokens=2317, completion_tokens=53, cost=Decimal("0.0076509169000000005"))
    priced = Tariff(provider="openrouter", prices=tariff(magisterium_settings()).prices)
    billed = bill(question, Outcome(status="answered", text="Because.", usage=usage), priced)
    assert (billed.cost, billed.cost_reported) == (Decimal("0.007651"), True)
    assert (billed.total, billed.estimated) == (2370, {})


async def test_daily_tokens_refuse_the_fifth_magisterium_answer_and_say_when_they_reset(
    kits: Kit, magisterium: UpstreamSim
) -> None:
    """Four answers use 4 x 16,506 = 66,024 tokens; after three (49,518) the budget of 50,000
    still has room, so the fourth is answered and the fifth refused: the system tokens count."""
    kit = kits(magisterium_settings())
    await kit.change_setting(GROUP, "daily_tokens", "50000", by="admin")
    shown = [await ask(kit, f"Question {n}?") for n in range(1, 6)]
    assert [sink.shown[-1] for sink in shown[:4]] == [ANSWER] * 4
    assert len(magisterium.requests) == 4
    assert (
        shown[4]
        .shown[-1]
        .startswith(
            "Today's budget of 50,000 tokens here has been used. citebot will answer here again at "
            "12:00\u202fAM (UTC), in "
        )
    )
    report = await kit.report(GROUP, timedelta(hours=1))
    assert report.refusals == {"daily_tokens": 1}


async def test_daily_cost_refuses_the_sixth_magisterium_answer_in_the_askers_language(
    kits: Kit, magisterium: UpstreamSim
) -> None:
    """At $0.011558 an answer, five cost $0.05779: after four ($0.046232) the $0.05 a day still
    has room, so the fifth is answered and the sixth refused."""
    kit = kits(magisterium_settings())
    made = await kit.change_setting(GROUP, "daily_cost", "$0.05", by="admin")
    assert made is not None
    assert made.new == "0.05"
    shown = [await ask(kit, f"Question {n}?") for n in range(1, 6)]
    refused = await ask(kit, "Question 6?", language="fr")
    assert [sink.shown[-1] for sink in shown] == [ANSWER] * 5
    assert len(magisterium.requests) == 5
    assert refused.shown[-1].startswith(
        "Le plafond de dépenses du jour (0,05\u00a0$US) est atteint ici. citebot répondra de "
        "nouveau ici à 00:00 (UTC), dans "
    )
    report = await kit.report(GROUP, timedelta(hours=1))
    assert report.refusals == {"daily_cost": 1}
    assert report.cost == 5 * EACH_COST
