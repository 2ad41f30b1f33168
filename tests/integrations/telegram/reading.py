"""What a reader sees of an answer on Telegram, read back from the payloads: the answer's HTML
parsed as Telegram parses it (the simulator's TDLib parser: its text and entities), each rich
card by its parts (the numbers and linked title leading it, its quotes, their credit lines, what
it supports), the also-consulted list. The formatter's corpus tests read Telegram with it
(``tests/integrations/formatter/reading.py``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html.parser import HTMLParser
from typing import Any

from bot.i18n.wording import Labels
from bot.render.ports import Payload
from integrations.telegram.cards import parts_of
from tests.integrations.formatter.reading import Card, Reading, quoted, words
from tests.sim.telegram.html_mode import parse_html

__all__ = ["card_heads", "read_telegram", "shown_text"]

_SUPERSCRIPT = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_NUMBERS = re.compile(r"(?:[⁰¹²³⁴⁵⁶⁷⁸⁹]+ )+")
_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def shown_text(payload: Payload) -> tuple[str, list[dict[str, Any]]]:
    """A text message's words and entities, as Telegram parses its HTML."""
    return parse_html(str(payload["text"]))


def read_telegram(answer: Sequence[Payload], thread: Sequence[Payload], labels: Labels) -> Reading:
    reading = Reading("", [], [])
    texts: list[str] = []
    for payload in answer:
        text, entities = shown_text(payload)
        _read_answer(text, entities, reading, before="".join(texts))
        texts.append(_SUPERSCRIPT.sub("", text) + "\n\n")
    reading.text = "".join(texts)
    for payload in thread:
        if payload.get("method") == "sendRichMessage":
            for part in parts_of(payload):
                _read_part(part, reading, labels)
    return reading


def _read_answer(
    text: str, entities: list[dict[str, Any]], reading: Reading, *, before: str
) -> None:
    """Footnotes where they stand (linked when a link covers them), and the other links."""
    links = [
        (_at(text, e["offset"]), _at(text, e["offset"] + e["length"]), e["url"])
        for e in entities
        if e["type"] == "text_link"
    ]
    for match in _SUPERSCRIPT.finditer(text):
        url = next((u for s, e, u in links if s <= match.start() and match.end() <= e), None)
        reading.footnotes.append((int(match.group().translate(_DIGITS)), url))
        reading.places.append(len(words(before + _SUPERSCRIPT.sub("", text[: match.start()]))))
    reading.links += [url for s, e, url in links if not _SUPERSCRIPT.fullmatch(text[s:e])]


def _at(text: str, units: int) -> int:
    """The index in ``text`` of an offset in UTF-16 units."""
    count = 0
    for index, char in enumerate(text):
        if count >= units:
            return index
        count += 2 if ord(char) > 0xFFFF else 1
    return len(text)


class _Part(HTMLParser):
    """One part of a rich card message, read element by element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.lead: list[str] = []
        self.href: str | None = None
        self.quotes: list[str] = []
        self.credits: list[str] = []
        self.supports: list[str] = []
        self.items: list[tuple[list[str], str | None]] = []
        self.paragraphs = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack.append(tag)
        if tag == "p":
            self.paragraphs += 1
        elif tag == "blockquote":
            self.quotes.append("")
        elif tag == "cite":
            self.credits.append("")
        elif tag == "li":
            self.items.append(([], None))
        elif tag == "a":
            href = dict(attrs).get("href")
            if self.items and "li" in self.stack:
                self.items[-1] = (self.items[-1][0], href)
            elif self.paragraphs == 1 and not self.quotes:
                self.href = href

    def handle_endtag(self, tag: str) -> None:
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data: str) -> None:
        if "summary" in self.stack:
            return
        if "cite" in self.stack:
            self.credits[-1] += data
        elif "blockquote" in self.stack:
            self.quotes[-1] += data
        elif "details" in self.stack and "p" in self.stack:
            self.supports.append(data)
        elif "li" in self.stack:
            self.items[-1][0].append(data)
        elif self.paragraphs == 1 and not self.quotes:
            self.lead.append(data)
        elif "i" in self.stack:  # the credit line of a card without quotes, or a verdict
            self.credits.append(data)


def card_heads(thread: Sequence[Payload]) -> list[tuple[tuple[int, ...], str | None]]:
    """Each card's numbers and the URL its title links to, in order."""
    heads = []
    for payload in thread:
        for part in parts_of(payload) if payload.get("method") == "sendRichMessage" else []:
            parsed = _Part()
            parsed.feed(part)
            numbers = _NUMBERS.match("".join(parsed.lead))
            if numbers is not None:
                digits = numbers.group().translate(_DIGITS).split()
                heads.append((tuple(int(n) for n in digits), parsed.href))
    return heads


def _read_part(part: str, reading: Reading, labels: Labels) -> None:
    parsed = _Part()
    parsed.feed(part)
    lead = "".join(parsed.lead)
    if lead == labels.related:
        return
    if lead == labels.also_consulted:
        for item, url in parsed.items:
            reading.also_consulted.append(("".join(item).split(" — ")[0], url))
        return
    numbers = _NUMBERS.match(lead)
    assert numbers, part
    card = Card(
        int(numbers.group().split()[0].translate(_DIGITS)),
        lead[numbers.end() :].strip(),
        parsed.href,
        "\n".join(parsed.quotes),
    )
    for said in parsed.supports:
        card.supports += quoted(said, labels)
    card.text = " ".join(parsed.credits)
    reading.cards.append(card)
