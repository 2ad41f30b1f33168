"""What a reader sees of a Teams answer: its messages as Teams shows them with their addendum
on (:func:`integrations.teams.presenter.with_addenda`), read as Markdown; each ``[n]`` a
footnote linked to its citation's URL, each citation a card (its popup's title, quote,
what it supports, author, year and reference), the closing lines' sources past 20 as cards
too and the sources consulted as such."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from bot.i18n.wording import Labels
from bot.render.ports import Payload
from integrations.teams.cards import ADDENDUM
from integrations.teams.presenter import with_addenda
from tests.integrations.formatter.reading import Card, Reading, markdown_reading, quoted

__all__ = ["claims_of", "read_answer", "read_teams"]

_NOTES = re.compile(r"\[[0-9]+\]|[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_ITEM = re.compile(r"(?:([⁰¹²³⁴⁵⁶⁷⁸⁹]+) )?(?:\[(.*)\]\((\S+)\)|(.*))")


def claims_of(thread: Sequence[Payload]) -> dict[int, dict[str, Any]]:
    """Position -> appearance, of every citation the thread's addenda carry."""
    return {
        int(claim["position"]): claim["appearance"]
        for payload in thread
        for claim in payload.get(ADDENDUM, {}).get("citation", [])
    }


def read_answer(answer: Sequence[Payload]) -> Reading:
    """The answer's messages as the formatter wrote them, before their addendum: each
    ``[n]`` a plain footnote (its link is its citation's), each superscript past 20 linked."""
    texts = "\n\n".join(str(m.get("text", "")) for m in answer)
    return markdown_reading(texts, _NOTES, in_code=False)


def read_teams(answer: Sequence[Payload], thread: Sequence[Payload], labels: Labels) -> Reading:
    lines = [line for p in thread for line in p.get(ADDENDUM, {}).get("lines", [])]
    shown, _ = with_addenda(answer, thread)
    texts = [str(message.get("text", "")) for message in shown]
    if lines and texts:
        texts[-1] = texts[-1].removesuffix("\n\n".join(lines)).rstrip()
    reading = markdown_reading("\n\n".join(texts), _NOTES, in_code=False)
    claims = claims_of(thread)
    reading.footnotes = [
        (number, url if url is not None else claims.get(number, {}).get("url"))
        for number, url in reading.footnotes
    ]
    reading.cards = [_card(number, appearance, labels) for number, appearance in claims.items()]
    for line in lines:
        for number, title, url in _items(_after_lead(line)):
            if number is None:
                reading.also_consulted.append((title, url))
            else:
                reading.cards.append(Card(number, title, url))
    reading.cards.sort(key=lambda card: card.number)
    return reading


def _after_lead(line: str) -> str:
    """A closing line's items, after its bold lead (and a space or a line break)."""
    return line[line.index("**", 2) + 2 :].lstrip(" \n")


def _items(items: str) -> Iterator[tuple[int | None, str, str | None]]:
    for item in items.split(" · "):
        match = _ITEM.fullmatch(item.strip())
        assert match, item
        number, linked, url, bare = match.groups()
        title = (linked if linked is not None else bare).replace("\\", "")
        yield (int(number.translate(_DIGITS)) if number else None), title, url


def _card(number: int, appearance: dict[str, Any], labels: Labels) -> Card:
    popup = json.loads(appearance.get("text") or "{}")
    blocks = {block.get("id"): block for block in _walk(popup.get("body", []))}
    title = _runs(blocks.get("title")) or appearance["name"]
    card = Card(number, title, appearance.get("url"))
    card.quote = "\n".join(
        _runs(block) for name, block in blocks.items() if str(name).startswith("quote-")
    )
    supports = blocks.get("supports")
    if supports is not None:
        card.supports = quoted(_runs(supports, skip=1), labels)
    card.text = " ".join(
        _runs(block)
        for name, block in blocks.items()
        if name == "about" or str(name).startswith("head-")
    )
    return card


def _walk(elements: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for element in elements:
        yield element
        yield from _walk(element.get("items", []))


def _runs(block: dict[str, Any] | None, *, skip: int = 0) -> str:
    if block is None:
        return ""
    return "".join(run.get("text", "") for run in block.get("inlines", [])[skip:])
