"""Telegram's threaded replies: rich messages (Bot API 10.1, ``sendRichMessage``) holding each
source document's card, the sources consulted but never cited, and the related questions as
buttons under them; the feedback buttons go under the answer.

A card is its title linked to the source, then each cited passage: the quote in a block
quotation with its credit line (author, year, reference), what its check found on the page,
and the answer's sentences it supports folded in a collapsible block. Parts are separated by a
rule (:data:`SEPARATOR`), so that a sink can send a refused message again part by part, and
each part has a classic HTML form (:func:`classic_html`) within one ``sendMessage``'s 4,096
characters, for a Bot API server without rich messages. Automatic entity detection is off in
rich messages, and every ``@`` of a name is broken besides (the classic form parses mentions).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.i18n.wording import Labels
from bot.render.layout import Button, Passage, Source, SourceCard
from bot.render.ports import Payload
from bot.render.text import clip, superscript
from bot.render.thread import listed
from integrations.telegram.limits import RICH_BLOCKS, RICH_TEXT
from integrations.telegram.markdown import TelegramHTML, visible

__all__ = [
    "ACTION",
    "FEEDBACK",
    "RELATED",
    "SEPARATOR",
    "Part",
    "TelegramCards",
    "classic_html",
    "feedback_keyboard",
    "parts_of",
]

RELATED = "rq:"
"""The ``callback_data`` prefix of a related-question button (its index follows)."""
FEEDBACK = "fb:"
"""The ``callback_data`` prefix of a feedback button (``up`` or ``down`` follows)."""
ACTION = "ac:"
"""The ``callback_data`` prefix of a button under an answer that asks something of the kit
(``ask_person``, ``ask_sources``: :data:`bot.render.layout.Action`); the answer it is under is
the message it is on."""
SEPARATOR = "<hr/>"
"""Between the parts of a thread message: one of them refused can be left out."""
PASSAGES = 4
"""Passages one card holds; a document cited more often gets more cards (each card's classic
form then still fits one message)."""
CARD_TEXT = 3600
"""Characters of a card: within one classic message's 4,096 with room to spare."""
QUOTE, QUOTE_FLOOR = 1200, 200
"""A passage's quote is clipped to its share of what the card's other lines leave."""
SUPPORTS = 300
"""Characters of the sentences one number supports, on its card."""
LIST_ROOM = 3000
"""Characters of the also-consulted list."""
RELATED_BUTTONS, BUTTON_TEXT = 5, 120
"""A button shows its question and sends it back when pressed: Telegram documents no limit
on a button's text, and clients cut a long one; 120 characters hold every related question
the recorded providers sent."""

_HTML = TelegramHTML()
_BLOCK = re.compile(r"<(?:p|blockquote|details|li|ul|hr)\b")


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a thread message: its rich HTML and the buttons that go under it."""

    html: str
    buttons: tuple[dict[str, str], ...] = ()
    title: str | None = None
    """The card's title, for the log when Telegram refuses it."""
    blocks: int = field(init=False)
    """The blocks Telegram counts in it (an upper bound)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "blocks", len(_BLOCK.findall(self.html)))


class TelegramCards:
    """The parts of a Telegram thread: rich HTML, up to :data:`ROOM` characters and
    :data:`MOST` blocks a message (:mod:`bot.render.ports`' ``ThreadParts``)."""

    most = RICH_BLOCKS - 100
    room = RICH_TEXT // 2
    """Half of what a rich message may hold: twenty cards read as two or three messages."""
    passages: int | None = PASSAGES

    def link(self, url: str) -> str | None:
        return _HTML.link_url(url)

    def card(self, card: SourceCard, labels: Labels) -> list[Part]:
        return [document(card, labels)]

    def also_consulted(self, sources: Sequence[Source], labels: Labels) -> Part:
        return also_consulted(sources, labels)

    def related(self, questions: Sequence[str], labels: Labels) -> Part | None:
        return related(questions, labels)

    def feedback(self, labels: Labels, buttons: Sequence[Button] = ()) -> None:
        return None  # under the answer

    def size(self, part: Part) -> tuple[int, int]:
        return part.blocks + 1, len(visible(part.html))  # +1: the separator's rule

    def message(self, parts: Sequence[Part], labels: Labels) -> Payload:
        payload: Payload = {
            "method": "sendRichMessage",
            "rich_message": {
                "html": SEPARATOR.join(part.html for part in parts),
                "skip_entity_detection": True,
            },
        }
        buttons = [[button] for part in parts for button in part.buttons]
        if buttons:
            payload["reply_markup"] = {"inline_keyboard": buttons}
        return payload


def document(card: SourceCard, labels: Labels) -> Part:
    """One source document's cited passages (at most :data:`PASSAGES`) under its title,
    linked once; the footnote numbers lead the title, as they stand in the answer. The quotes
    share what room the rest leaves in :data:`CARD_TEXT`."""
    numbers = " ".join(superscript(n) for n in card.numbers)
    title = _text(clip(card.title, 250))
    target = _HTML.link_url(card.url) if card.url else None
    shown = f'<a href="{html.escape(target)}">{title}</a>' if target else title
    head = [f"<p><b>{numbers} {shown}</b></p>"]
    if card.trust_line:
        head.append(f"<p><i>{_text(card.trust_line)}</i></p>")
    if not any(passage.quote for passage in card.passages) and (about := _about(card, None)):
        head.append(f"<p><i>{about}</i></p>")
    pieces = _passages(card, labels)
    fixed = len(visible("".join(head + [piece.format(quote="") for piece in pieces])))
    quotes = sum(1 for passage in card.passages if passage.quote) or 1
    room = min(QUOTE, max(QUOTE_FLOOR, (CARD_TEXT - fixed) // quotes))
    said = iter(_text(clip(p.quote, room)) for p in card.passages if p.quote)
    body = [piece.format(quote=next(said)) if "{quote}" in piece else piece for piece in pieces]
    return Part("".join(head + body), title=card.title)


def _passages(card: SourceCard, labels: Labels) -> list[str]:
    """Each passage's lines, its quote left as ``{quote}``: its name, the quote and its credit
    line (one credit for a run of quotes that share it, under the last), the verdict; after a
    number's last passage, what it supports. Braces in the text are doubled, as
    ``str.format`` reads them."""
    supporting = card.supporting
    last = {passage.number: passage for passage in card.passages}
    credits = [_about(card, passage) if passage.quote else None for passage in card.passages]
    following = [*credits[1:], None]
    lines: list[str] = []
    named = ""
    for passage, credit, next_credit in zip(card.passages, credits, following, strict=True):
        name, named = named, _name(passage, numbered=card.numbered)
        if named and named != name:  # a passage named as the one before it goes unnamed
            lines.append(_braced(f"<p>{named}</p>"))
        if passage.quote:
            cite = f"<cite>{credit}</cite>" if credit and credit != next_credit else ""
            lines.append("<blockquote>{quote}" + _braced(cite) + "</blockquote>")
            if passage.verdict_line:
                lines.append(_braced(f"<p><i>{_text(passage.verdict_line)}</i></p>"))
        if last[passage.number] is passage and passage.number in supporting:
            said = supporting[passage.number]
            lines.append(_braced(_supports(said, labels, numbered=card.numbered)))
    return lines


def _braced(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _name(passage: Passage, *, numbered: bool) -> str:
    """What heads a passage: its number among several, its heading."""
    name = [f"<b>{superscript(passage.number)}</b>"] if numbered else []
    if passage.heading:
        name.append(f"<b>{_text(clip(passage.heading, 100))}</b>")
    return " · ".join(name)


def _about(card: SourceCard, passage: Passage | None) -> str:
    """Who wrote it, when, and where in it: a quote's credit line (its own reference where
    the document's passages differ in it)."""
    reference = (passage.reference if passage else None) or card.reference
    parts = (card.author, card.year, reference)
    return " · ".join(_text(clip(part, 100)) for part in parts if part)


def _supports(passage: Passage, labels: Labels, *, numbered: bool) -> str:
    """The answer's sentences this number stands behind, folded away under "Supports"."""
    summary = f"{labels.supports} [{passage.number}]" if numbered else labels.supports
    said = _text(clip(" … ".join(passage.supports), SUPPORTS))
    quoted = labels.quoted.format(quote=said)
    return f"<details><summary>{_text(summary)}</summary><p>{quoted}</p></details>"


def also_consulted(sources: Sequence[Source], labels: Labels) -> Part:
    def line(source: Source) -> str:
        title = _text(clip(source.title, 150))
        target = _HTML.link_url(source.url) if source.url else None
        shown = f'<a href="{html.escape(target)}">{title}</a>' if target else title
        extra = ", ".join(part for part in (source.author, source.year) if part)
        return f"<li>{shown}{' — ' + _text(clip(extra, 150)) if extra else ''}</li>"

    items = listed(sources, line=line, room=LIST_ROOM, rest=lambda n: f"<li>… +{n}</li>")
    return Part(f"<p><b>{_text(labels.also_consulted)}</b></p><ul>{''.join(items)}</ul>")


def related(questions: Sequence[str], labels: Labels) -> Part | None:
    """A heading, and a button per question (the question is its text, and is asked again
    when it is pressed: a button is not parsed for mentions)."""
    buttons = tuple(
        {"text": clip(question, BUTTON_TEXT), "callback_data": f"{RELATED}{index}"}
        for index, question in enumerate(q.strip() for q in questions[:RELATED_BUTTONS])
        if question
    )
    if not buttons:
        return None
    return Part(f"<p><b>{_text(labels.related)}</b></p>", buttons=buttons)


def feedback_keyboard(buttons: Sequence[Button] = ()) -> dict[str, Any]:
    """👍 and 👎 under a finished answer, and a row for each of ``buttons`` ("Ask a person")."""
    rows: list[list[dict[str, str]]] = [
        [
            {"text": "👍", "callback_data": f"{FEEDBACK}up"},
            {"text": "👎", "callback_data": f"{FEEDBACK}down"},
        ]
    ]
    rows += [
        [{"text": clip(button.label, BUTTON_TEXT), "callback_data": f"{ACTION}{button.action}"}]
        for button in buttons
    ]
    return {"inline_keyboard": rows}


def parts_of(payload: Payload) -> list[str]:
    """A thread message's parts, as :class:`TelegramCards` joined them (rich HTML each)."""
    rich = payload.get("rich_message") or {}
    return str(rich.get("html", "")).split(SEPARATOR)


_CLASSIC = (
    (re.compile(r"<p>"), ""),
    (re.compile(r"</p>"), "\n"),
    (re.compile(r"</?ul>"), ""),
    (re.compile(r"<li>"), "• "),
    (re.compile(r"</li>"), "\n"),
    (re.compile(r"<cite>"), "\n— <i>"),
    (re.compile(r"</cite>"), "</i>"),
    (re.compile(r"<details><summary>"), "<blockquote expandable><b>"),
    (re.compile(r"</summary>"), "</b>\n"),
    (re.compile(r"</details>"), "</blockquote>"),
    (re.compile(r"\n+(?=</blockquote>)"), ""),
    (re.compile(r"(?<=</blockquote>)(?!\n)"), "\n"),
    (re.compile(r"\n{3,}"), "\n\n"),
)


def classic_html(rich: str) -> str:
    """A part written for ``sendMessage`` (``parse_mode=HTML``), which has no paragraphs,
    lists, credit lines or collapsible blocks: lines, bullets, an italic credit line, an
    expandable quotation."""
    text = rich
    for pattern, replacement in _CLASSIC:
        text = pattern.sub(replacement, text)
    return text.strip()


def _text(text: str) -> str:
    return _HTML.escape(text, line_start=False)
