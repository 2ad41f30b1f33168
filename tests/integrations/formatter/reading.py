"""What a reader sees of an answer on each platform, read back from the payloads.

Markdown is parsed by markdown-it (as Discord and Slack show it), terminal markup by rich (as
``citebot ask`` prints it, into a terminal or a pipe), Block Kit and embeds field by field: the
answer's words, its footnotes (number and URL, in order) and its other links; each card's
number, title, URL, quote, what it supports and the rest of its words; the sources listed as
also consulted. A test can then say what a person would see, whatever the platform.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token
from rich.console import Console
from rich.style import Style
from rich.text import Text

from bot.i18n.wording import Labels
from bot.render.ports import Payload

__all__ = [
    "PLATFORMS",
    "Card",
    "Reading",
    "markdown_reading",
    "quoted",
    "read",
    "same_url",
    "words",
]

PLATFORMS = ("discord", "slack", "telegram", "teams", "terminal", "terminal-piped")
"""``terminal-piped``: the terminal's output as printed into a pipe (no OSC 8 links)."""

_SUPERSCRIPT = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_SLACK_TITLE = re.compile(r"\*([0-9]+)\.\* \*(?:<([^|>]+)\|(.*)>|(.*))\*", re.S)
_SLACK_LISTED = re.compile(r"• (?:<([^|>]+)\|(.*?)>|(.*?))(?: — .*)?")
_WORD = re.compile(r"\w+")
_FENCE_LABEL = re.compile(r"^── \S.*$", re.M)
"""The terminal's rule over a code block, naming its language: a label, not the answer's words
(Discord and Slack show none)."""


@dataclass
class Card:
    number: int
    title: str
    url: str | None
    quote: str = ""
    supports: list[str] = field(default_factory=list)
    text: str = ""
    """The card's other words: author, year, reference."""


@dataclass
class Reading:
    text: str
    """The answer's words as shown, without its footnotes."""
    footnotes: list[tuple[int, str | None]]
    """Every footnote where it stands, with the URL it links to (None: a plain number)."""
    links: list[str]
    """The answer's other links."""
    places: list[int] = field(default_factory=list)
    """Where each footnote stands: how many words of the answer come before it."""
    cards: list[Card] = field(default_factory=list)
    also_consulted: list[tuple[str, str | None]] = field(default_factory=list)


def words(text: str) -> list[str]:
    """The words of a text, shown or Markdown: emphasis marks do not part them (``**曹雪芹**``
    after other words is one run of CJK on screen)."""
    return _WORD.findall(text.replace("*", "").replace("_", ""))


def same_url(shown: str | None, url: str | None) -> bool:
    """A platform percent-encodes some characters of a link's URL; the page is the same."""
    return (shown and unquote(shown)) == (url and unquote(url))


def read(
    platform: str, answer: Sequence[Payload], thread: Sequence[Payload], labels: Labels
) -> Reading:
    if platform == "discord":
        reading = markdown_reading("\n\n".join(p["content"] for p in answer), _SUPERSCRIPT)
        _discord_thread(reading, thread, labels)
    elif platform == "slack":
        reading = markdown_reading("\n\n".join(p["markdown_text"] for p in answer), _SUPERSCRIPT)
        _slack_thread(reading, thread, labels)
    elif platform == "telegram":
        from tests.integrations.telegram.reading import read_telegram

        reading = read_telegram(answer, thread, labels)
    elif platform == "teams":
        from tests.integrations.teams.reading import read_teams

        reading = read_teams(answer, thread, labels)
    else:
        piped = platform == "terminal-piped"
        reading = _terminal("\n\n".join(p["markup"] for p in answer), piped=piped)
        _terminal_thread(reading, thread, labels, piped=piped)
    return reading


# Markdown (Discord, Slack)


def _number(shown: str) -> int:
    return int(shown.translate(_DIGITS).strip("[]"))


def markdown_reading(source: str, notes: re.Pattern[str], *, in_code: bool = True) -> Reading:
    """``notes``: how a footnote shows (superscripts on Discord and Slack, ``[n]`` on Teams),
    linked or plain; ``in_code``: whether one can show in inline code (Teams' ``[n]`` there is
    the code's own)."""
    reading = Reading("", [], [])
    out: list[str] = []
    for token in MarkdownIt("commonmark").enable("strikethrough").parse(source):
        if token.type == "inline":
            _inline(token.children or [], reading, out, notes, in_code=in_code)
        elif token.type == "list_item_open" and token.info:  # an ordered list shows its numbers
            out.append(f"{token.info}{token.markup} ")
        elif token.type.endswith("_close") or token.type in ("fence", "code_block", "hr"):
            out.append(token.content + "\n")
    reading.text = "".join(out)
    return reading


def _inline(
    tokens: list[Token], reading: Reading, out: list[str], notes: re.Pattern[str], *, in_code: bool
) -> None:
    href: str | None = None
    label: list[str] = []
    for token in tokens:
        if token.type == "link_open":
            href, label = str(token.attrs["href"]), []
        elif token.type == "link_close":
            if notes.fullmatch("".join(label)):
                reading.footnotes.append((_number("".join(label)), href))
                reading.places.append(len(words("".join(out))))
            else:
                reading.links.append(href or "")
                out.append("".join(label))
            href = None
        elif token.type == "code_inline" and not in_code:
            out.append(token.content)
        elif token.type in ("text", "code_inline"):
            if href is not None:
                label.append(token.content)
            else:
                for match in notes.finditer(token.content):  # plain: no URL to link
                    reading.footnotes.append((_number(match.group()), None))
                    before = "".join(out) + token.content[: match.start()]
                    reading.places.append(len(words(notes.sub("", before))))
                out.append(notes.sub("", token.content))
        elif token.type in ("softbreak", "hardbreak"):
            out.append("\n")


def _markdown_text(source: str) -> str:
    return markdown_reading(source, _SUPERSCRIPT).text.strip()


def quoted(text: str, labels: Labels) -> list[str]:
    """The sentences of a "Supports" line: inside the language's quotation marks, " … "
    between them."""
    opening, closing = labels.quoted.split("{quote}")
    inner = text[text.index(opening) + len(opening) : text.rindex(closing)]
    return inner.split(" … ")


def _discord_thread(reading: Reading, thread: Sequence[Payload], labels: Labels) -> None:
    for embed in (embed for payload in thread for embed in payload.get("embeds", [])):
        if embed["title"] == labels.also_consulted:
            for line in embed["description"].splitlines():
                item = markdown_reading(line.removeprefix("- "), _SUPERSCRIPT)
                title = item.text.strip().split(" — ")[0]
                reading.also_consulted.append((title, item.links[0] if item.links else None))
            continue
        number = re.match(r"\[([0-9]+)\]", embed["author"]["name"])
        assert number, embed
        quote = ""
        if "description" in embed:
            tokens = MarkdownIt("commonmark").parse(embed["description"])
            quote = _blockquote(tokens)
        card = Card(int(number.group(1)), embed["title"], embed.get("url"), quote)
        for item in embed.get("fields", []):
            if item["name"] == labels.supports:
                card.supports = quoted(_markdown_text(item["value"]), labels)
        card.text = " ".join([embed["author"]["name"], embed.get("footer", {}).get("text", "")])
        reading.cards.append(card)


def _blockquote(tokens: list[Token]) -> str:
    lines: list[str] = []
    depth = 0
    for token in tokens:
        depth += {"blockquote_open": 1, "blockquote_close": -1}.get(token.type, 0)
        if depth and token.type == "inline":
            lines.append(
                "".join(
                    "\n" if child.type in ("softbreak", "hardbreak") else child.content
                    for child in token.children or []
                )
            )
    return "\n".join(lines)


# Block Kit (Slack)


def _slack_thread(reading: Reading, thread: Sequence[Payload], labels: Labels) -> None:
    also = f"*{html.escape(labels.also_consulted, quote=False)}*\n"
    for block in (block for payload in thread for block in payload.get("blocks", [])):
        kind = block["type"]
        if kind == "section" and block["text"]["text"].startswith(also):
            for line in block["text"]["text"][len(also) :].splitlines():
                listed = _SLACK_LISTED.fullmatch(line)
                assert listed, line
                url, label, bare = listed.groups()
                reading.also_consulted.append((html.unescape(label or bare), url))
        elif kind == "section":
            title = _SLACK_TITLE.fullmatch(block["text"]["text"])
            assert title, block
            number, url, linked, bare = title.groups()
            reading.cards.append(Card(int(number), html.unescape(linked or bare), url))
        elif kind == "rich_text":
            reading.cards[-1].quote = "".join(
                element["text"]
                for quote in block["elements"]
                for element in quote["elements"]
                if not element.get("style", {}).get("bold")
            )
        elif kind == "context":
            text = html.unescape(block["elements"][0]["text"])
            if text.startswith(f"_{labels.supports_lead}_"):
                reading.cards[-1].supports = quoted(text, labels)
            else:
                reading.cards[-1].text = text


# Terminal (rich markup, printed)


def _printed(markup: str) -> str:
    console = Console(width=10_000, file=io.StringIO(), soft_wrap=True)
    console.print(Text.from_markup(markup))
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue().rstrip("\n")


def _terminal(markup: str, *, piped: bool) -> Reading:
    text = Text.from_markup(markup)
    plain = _printed(markup) if piped else text.plain
    reading = Reading("", [], [])
    links: dict[int, str] = {}
    if not piped:
        for span in text.spans:
            style = span.style if isinstance(span.style, Style) else Style.parse(span.style)
            if style.link:
                links[span.start] = style.link
                if not _SUPERSCRIPT.fullmatch(plain[span.start : span.end]):
                    reading.links.append(style.link)
    else:
        reading.links = re.findall(r"<(https?://[^>\s]+)>", plain)
    for match in _SUPERSCRIPT.finditer(plain):
        reading.footnotes.append((int(match.group().translate(_DIGITS)), links.get(match.start())))
        before = _FENCE_LABEL.sub("──", _SUPERSCRIPT.sub("", plain[: match.start()]))
        reading.places.append(len(words(before)))
    reading.text = _FENCE_LABEL.sub("──", _SUPERSCRIPT.sub("", plain))
    return reading


def _terminal_thread(
    reading: Reading, thread: Sequence[Payload], labels: Labels, *, piped: bool
) -> None:
    for markup in (payload["markup"] for payload in thread):
        lines = _printed(markup).splitlines()
        if lines[0] == labels.also_consulted:
            for item in _listed(lines[1:]):
                reading.also_consulted.append(item)
            continue
        if lines[0] == labels.related:
            continue
        head = Text.from_markup(markup.split("\n")[0])
        bold = next(s for s in head.spans if s.start == 0 and "bold" in str(s.style))
        number, title = head.plain[: bold.end].split(" ", 1)
        card = Card(int(number.translate(_DIGITS)), title, None, text=head.plain[bold.end :])
        for line in lines[1:]:
            if line.startswith("│ "):
                card.quote += ("\n" if card.quote else "") + line[2:]
            elif line.startswith(labels.supports_lead):
                card.supports = quoted(line, labels)
            elif re.fullmatch(r"https?://\S+", line):
                card.url = line
        reading.cards.append(card)


def _listed(lines: list[str]) -> Iterator[tuple[str, str | None]]:
    """``• title — about`` lines, each followed by its URL (indented) when it has one."""
    for index, line in enumerate(lines):
        if line.startswith("• "):
            after = lines[index + 1] if index + 1 < len(lines) else ""
            url = after.strip() if after.startswith("  http") else None
            yield line[2:].split(" — ")[0], url
