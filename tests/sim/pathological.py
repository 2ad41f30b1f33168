"""Pages no well-behaved site serves, for what quote checking must survive: megabytes of
``<div><p>`` blocks (trafilatura's extraction is quadratic in them: 0.25 MB took 18 s),
megabytes of links, nesting as deep as markup goes, and millions of characters of plain text a
long quote is matched against. Shared by the adversarial tests and ``bench/bench_hostile.py``.
"""

from __future__ import annotations

import random

__all__ = ["MB", "blocks", "links", "made_up_words", "nested"]

MB = 1024 * 1024


def blocks(size: int, *, first: str = "") -> bytes:
    """About ``size`` bytes of ``<div><p>word word</p></div>``, ``first`` in the first one."""
    block = "<div><p>word word</p></div>"
    opening = f"<html><body><div><p>{first}</p></div>"
    return (opening + block * ((size - len(opening)) // len(block)) + "</body></html>").encode()


def nested(size: int) -> bytes:
    """About ``size`` bytes of ``<div><p>word`` opened inside each other and never closed."""
    level = "<div><p>word "
    return ("<html><body>" + level * (size // len(level)) + "</body></html>").encode()


def links(size: int, *, first: str = "") -> bytes:
    """About ``size`` bytes of links (``link 0``, ``link 1``, …) after ``first``."""
    parts = [f"<html><body><p>{first}</p>"]
    total, n = len(parts[0]), 0
    while total < size:
        parts.append(f'<a href="/p/{n}">link {n}</a> ')
        total, n = total + len(parts[-1]), n + 1
    return ("".join(parts) + "</body></html>").encode()


def made_up_words(chars: int, seed: int) -> str:
    """``chars`` characters of made-up words: a plain-text page, or a quote it does not hold."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnop"
    vocabulary = ["".join(rng.choices(letters, k=rng.randint(2, 9))) for _ in range(5000)]
    out: list[str] = []
    size = 0
    while size < chars:
        out.append(rng.choice(vocabulary))
        size += len(out[-1]) + 1
    return " ".join(out)[:chars]
