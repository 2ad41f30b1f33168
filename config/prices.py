"""Prices as ``UPSTREAM_PRICES`` writes them: three decimals, each bounded, so that a typo's extra
zeros are refused at start-up instead of billed in every report."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

__all__ = ["MOST_PRICE", "parse_prices"]

MOST_PRICE = Decimal(10_000)
"""The dearest price ``UPSTREAM_PRICES`` takes, in US dollars a million tokens (the dearest
models cost a few hundred)."""


def parse_prices(text: str) -> tuple[Decimal, Decimal, Decimal]:
    """``INPUT,SYSTEM,OUTPUT`` (``0.50,0.70,2.00``), US dollars a million tokens; a ValueError
    that shows how to write them."""
    try:
        parsed = tuple(Decimal(part.strip()) for part in text.split(","))
    except InvalidOperation:
        parsed = ()
    if len(parsed) != 3 or not all(p.is_finite() and 0 <= p <= MOST_PRICE for p in parsed):
        raise ValueError(
            "write INPUT,SYSTEM,OUTPUT US dollars a million tokens, each from 0 to"
            f" {MOST_PRICE}, e.g. 0.50,0.70,2.00; got {text.strip()[:40]!r}"
        )
    return parsed[0], parsed[1], parsed[2]
