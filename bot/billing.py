"""What an answer cost: its tokens as the provider bills them, and their price in US dollars.

A provider bills three kinds of tokens (:data:`KINDS`): ``input`` (the prompt: instructions,
earlier turns, the question), ``system`` (what it spends beyond the prompt and the answer:
Magisterium's retrieval, Perplexity's citation tokens) and ``output`` (the answer, its
reasoning included). Each kind is counted as the upstream's ``usage`` reports it; where it
reports nothing of a kind, citebot estimates it: ``system`` from the provider's per-answer
overhead (``UPSTREAM_SYSTEM_TOKENS``), ``input`` and ``output`` from the characters sent and
received, the estimate of last resort. A :class:`Bill` keeps the two apart.

The cost is what the upstream says it billed, where it says (OpenRouter's and Perplexity's
``usage.cost``), else each kind's tokens at the provider's prices (``UPSTREAM_PRICES``, US
dollars a million tokens), in :class:`~decimal.Decimal` and rounded half-even to the
millionth of a dollar (:data:`MICRO`), so that sums of answers are exact. A provider with no
known price has no cost (None), never a made-up one.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from config import Settings
from config.profiles import UpstreamProfile

if TYPE_CHECKING:
    from bot.answer import Outcome, Question

__all__ = [
    "KINDS",
    "KNOWN",
    "MICRO",
    "Bill",
    "Kind",
    "Prices",
    "Tariff",
    "bill",
    "estimate_tokens",
    "micro_dollars",
    "profile_tariff",
    "reported_kinds",
    "tariff",
]

Kind = Literal["input", "system", "output"]
KINDS: tuple[Kind, ...] = ("input", "system", "output")
MICRO = Decimal("0.000001")
"""A cost is kept to the millionth of a dollar."""
_MILLION = Decimal(1_000_000)


@dataclass(frozen=True, slots=True)
class Prices:
    """US dollars a million tokens of each kind."""

    input: Decimal
    system: Decimal
    output: Decimal

    def of(self, kind: Kind) -> Decimal:
        return {"input": self.input, "system": self.system, "output": self.output}[kind]


@dataclass(frozen=True, slots=True, kw_only=True)
class Tariff:
    """How a provider bills: its name (from the configuration, never from upstream data: it
    labels metrics and records), the tokens it bills an answer beyond the prompt and the answer
    where its ``usage`` says none, and its prices (None: unknown, so no cost is computed)."""

    provider: str
    system_tokens: int = 0
    prices: Prices | None = None


KNOWN: Mapping[str, Tariff] = {
    # Magisterium's developer pricing page (https://www.magisterium.com/developers/pricing,
    # read 2026-12): input $0.50, system $0.70, output $2.00 a million tokens. Its system
    # tokens (retrieval) were observed at 13,000-20,000 an answer; no usage reports them, so
    # each answer counts the middle of that range (docs/billing.md).
    "magisterium.com": Tariff(
        provider="magisterium",
        system_tokens=16_500,
        prices=Prices(Decimal("0.50"), Decimal("0.70"), Decimal("2.00")),
    ),
    # The embedded demo answers from citebot's own documentation, for nothing.
    "demo": Tariff(provider="demo", prices=Prices(Decimal(0), Decimal(0), Decimal(0))),
}
"""The providers whose bills citebot knows, by host (a host covers its subdomains)."""


def tariff(settings: Settings) -> Tariff:
    """The upstream's tariff: a known provider's (:data:`KNOWN`), else one named by the
    upstream's host with no overhead and no prices; ``UPSTREAM_SYSTEM_TOKENS`` and
    ``UPSTREAM_PRICES`` override either."""
    url = settings.upstream_base_url
    host = "demo" if settings.uses_demo else (urlsplit(url).hostname or "upstream")
    known = _known(host)
    prices = known.prices if settings.upstream_prices is None else Prices(*settings.upstream_prices)
    system = settings.upstream_system_tokens
    return Tariff(
        provider=known.provider,
        system_tokens=known.system_tokens if system is None else system,
        prices=prices,
    )


def profile_tariff(name: str, profile: UpstreamProfile) -> Tariff:
    """How one of ``UPSTREAM_PROFILES`` bills: as the provider its host is known to be (its
    overhead and prices), labelled by the profile's name; no prices where its host is none
    citebot knows (a profile may carry its own later, as ``UPSTREAM_PRICES`` does)."""
    known = _known(urlsplit(profile.base_url).hostname or "upstream")
    return Tariff(provider=name, system_tokens=known.system_tokens, prices=known.prices)


def _known(host: str) -> Tariff:
    """The known provider at ``host`` or one of its parents, else one named by the host."""
    return next(
        (t for suffix, t in KNOWN.items() if host == suffix or host.endswith(f".{suffix}")),
        Tariff(provider=host),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Bill:
    """One answer's tokens and cost."""

    provider: str
    reported: Mapping[str, int] = field(default_factory=dict)
    """The upstream's own counts (:meth:`bot.upstream.events.Usage.counts`): ``prompt``,
    ``completion``, ``total``, ``cached``, ``reasoning``, ``extra_reasoning``, ``system``,
    ``search_queries``, as far as it sent them."""
    estimated: Mapping[str, int] = field(default_factory=dict)
    """Kind -> tokens citebot estimated, for the kinds the upstream reported nothing of."""
    tokens: Mapping[str, int] = field(default_factory=dict)
    """Kind -> tokens counted: reported where the upstream said, else estimated."""
    cost: Decimal | None = None
    """US dollars, to the millionth; None when the provider's prices are unknown."""
    cost_reported: bool = False
    """The upstream said the cost itself (else it is the tokens at the provider's prices)."""

    @property
    def total(self) -> int:
        """Every token counted, the system's included: what ``daily_tokens`` counts."""
        return sum(self.tokens.values())


def reported_kinds(reported: Mapping[str, int]) -> dict[str, int]:
    """Each kind's tokens as the upstream's counts say them: the prompt is input, the
    completion output (its reasoning inside it, as OpenAI and DeepSeek count it; Perplexity's
    reasoning, billed beyond it, added), its citation or retrieval tokens system. A count of
    the total alone is output (the dearer kind, so a budget errs towards refusing)."""
    kinds: dict[str, int] = {}
    if "prompt" in reported:
        kinds["input"] = reported["prompt"]
    if "completion" in reported or "extra_reasoning" in reported:
        kinds["output"] = reported.get("completion", 0) + reported.get("extra_reasoning", 0)
    if not kinds and "total" in reported:
        kinds["output"] = reported["total"]
    if "system" in reported:
        kinds["system"] = reported["system"]
    return kinds


def bill(question: Question, outcome: Outcome, tariff: Tariff) -> Bill:
    """What ``outcome`` cost: nothing for a place's own answer, nor when no text came and the
    upstream failed (it refused before answering, or never answered); else each kind reported
    or estimated, and priced."""
    usage = outcome.usage
    reported = usage.counts() if usage is not None else {}
    if outcome.own_answer is not None or (
        usage is None and outcome.status == "failed" and not outcome.text
    ):  # a place's own answer went nowhere upstream
        return Bill(provider=tariff.provider, cost=Decimal(0) if tariff.prices else None)
    counted = reported_kinds(reported)
    estimated: dict[str, int] = {}
    if "input" not in counted:
        sent = question.text + "".join(turn.content for turn in question.history)
        estimated["input"] = estimate_tokens(sent)
    if "output" not in counted:
        estimated["output"] = estimate_tokens(outcome.text)
    if "system" not in counted and tariff.system_tokens:
        estimated["system"] = tariff.system_tokens
    tokens: dict[str, int] = {
        kind: n for kind in KINDS if (n := counted.get(kind, estimated.get(kind, 0)))
    }
    cost: Decimal | None = None
    if usage is not None and usage.cost is not None:
        cost = usage.cost.quantize(MICRO, rounding=ROUND_HALF_EVEN)
    elif tariff.prices is not None:
        prices = tariff.prices
        exact = sum((tokens.get(kind, 0) * prices.of(kind) for kind in KINDS), Decimal(0))
        cost = (exact / _MILLION).quantize(MICRO, rounding=ROUND_HALF_EVEN)
    return Bill(
        provider=tariff.provider,
        reported=reported,
        estimated=estimated,
        tokens=tokens,
        cost=cost,
        cost_reported=usage is not None and usage.cost is not None,
    )


def micro_dollars(cost: Decimal) -> int:
    """A cost in millionths of a dollar: how the daily ``daily_cost`` counters add it."""
    return int((cost / MICRO).to_integral_value(rounding=ROUND_HALF_EVEN))


def estimate_tokens(text: str) -> int:
    """The estimate of last resort, for an upstream that reports no ``usage``: a token for
    every four characters (OpenAI's rule of thumb for English, close for the other
    Latin-script languages), and one for each wide character (Chinese, Japanese, Korean),
    which tokenisers cut finer."""
    wide = sum(unicodedata.east_asian_width(character) in "WF" for character in text)
    return wide + math.ceil((len(text) - wide) / 4)
