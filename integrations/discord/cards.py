"""Discord's threaded replies: each source document an embed holding its cited passages (each
quote followed by what its check found on the page, once known), the sources consulted but
never cited one embed more, batched ten embeds a message; related questions as buttons in a
message of their own. The feedback buttons go under the answer (:func:`feedback_row`).

Title, author and footer are plain text on Discord (no Markdown, no masked links), so only
mentions are broken there; the description and fields are Markdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.i18n.wording import Labels, Wording
from bot.render.layout import Button as Action
from bot.render.layout import Passage, Source, SourceCard
from bot.render.ports import Payload, Standalone
from bot.render.text import clip
from bot.render.thread import listed
from integrations.discord import limits
from integrations.discord.markdown import DiscordMarkdown
from integrations.discord.types import (
    NO_MENTIONS,
    SUPPRESS_EMBEDS,
    ActionRow,
    Button,
    Embed,
    EmbedField,
)

__all__ = [
    "ACTION",
    "FEEDBACK",
    "RELATED",
    "DiscordCards",
    "also_consulted",
    "document",
    "embed_size",
    "feedback_row",
    "left_over",
    "related_message",
]

RELATED = "citebot:related:"
"""The ``custom_id`` prefix of a related-question button (its index follows)."""
FEEDBACK = "citebot:feedback:"
"""The ``custom_id`` prefix of a feedback button (``up`` or ``down`` follows)."""
ACTION = "citebot:action:"
"""The ``custom_id`` prefix of a button under an answer that asks something of the kit
(``ask_person``, ``ask_sources``: :data:`bot.render.layout.Action`); the answer it is under is
the message it is on."""
ALSO_CONSULTED_ROOM = 3800
"""Characters of the also-consulted list, below the description's 4,096."""
PASSAGES_ROOM = 3800
"""Characters of a document card's passages, below the description's 4,096."""
FIELDS_ROOM = 1200
"""Characters of a card's "Supports" fields, names included: with the title, author, footer
and passages, an embed stays below the 6,000 a message holds."""
QUOTE, QUOTE_FLOOR = 900, 200
"""A passage's quote is clipped to its share of the room, between these."""
SUPPORTS, SUPPORTS_FLOOR = 450, 100

_MARKDOWN = DiscordMarkdown()


class DiscordCards:
    """The parts of a Discord thread: embeds, ten to a message and 6,000 characters across
    them (:mod:`bot.render.ports`' ``ThreadParts``)."""

    most = limits.EMBEDS
    room = limits.EMBED_TOTAL
    passages: int | None = None
    """A document's passages share a card: Discord shows one embed per URL in a message."""

    def link(self, url: str) -> str | None:
        return _MARKDOWN.link_url(url)

    def card(self, card: SourceCard, labels: Labels) -> list[Embed]:
        return document(card, labels)

    def also_consulted(self, sources: Sequence[Source], labels: Labels) -> Embed:
        return also_consulted(sources, labels)

    def related(self, questions: Sequence[str], labels: Labels) -> Standalone | None:
        message = related_message(questions, labels)
        return Standalone(message) if message is not None else None

    def feedback(self, labels: Labels, buttons: Sequence[Action] = ()) -> None:
        return None  # under the answer

    def size(self, part: Embed) -> tuple[int, int]:
        return 1, embed_size(part)

    def message(self, parts: Sequence[Embed], labels: Labels) -> Payload:
        return {"embeds": list(parts), "allowed_mentions": NO_MENTIONS}


def document(card: SourceCard, labels: Labels) -> list[Embed]:
    """One source document's cited passages as embeds: one, unless they outgrow an embed's
    room, and only the first carries the link, since Discord shows one embed per URL in a
    message. The footnote numbers lead the author line, just above the title, so ``¹`` in the
    answer finds ``[1]`` here while the title stays the document's own; with several numbers
    each passage is headed by its own.

    Which embed a passage goes in is decided with room for the longest verdict under its
    quote (:attr:`SourceCard.widest`), so the embeds stay the same when the verdicts are
    edited in."""
    numbered = card.numbered
    quote_room = min(QUOTE, max(QUOTE_FLOOR, PASSAGES_ROOM // len(card.passages) - 60))
    said_room = min(SUPPORTS, max(SUPPORTS_FLOOR, FIELDS_ROOM // len(card.numbers) - 40))
    chunks: list[_Chunk] = []
    named = ""
    for passage, roomy in zip(card.passages, card.widest, strict=True):
        name, named = named, _name(passage, numbered=numbered)
        shown = named if named != name else ""
        text = _passage(passage, name=shown, room=quote_room)
        widest = _passage(roomy, name=shown, room=quote_room)

        def said(chunk: _Chunk, passage: Passage = passage) -> EmbedField | None:
            if not passage.supports or passage.number in chunk.numbers:
                return None  # a number's sentences are shown once an embed
            return _supports(passage, labels, numbered=numbered, room=said_room)

        if not chunks or not chunks[-1].fits(widest, said(chunks[-1])):
            chunks.append(_Chunk())
        chunks[-1].add(passage.number, text, widest, said(chunks[-1]))
    url = _MARKDOWN.link_url(card.url) if card.url else None
    return [_embed(card, chunk, url=None if index else url) for index, chunk in enumerate(chunks)]


@dataclass
class _Chunk:
    """The passages one embed holds; ``widest`` as they read with the longest verdicts."""

    numbers: list[int] = field(default_factory=list)
    description: list[str] = field(default_factory=list)
    widest: list[str] = field(default_factory=list)
    fields: list[EmbedField] = field(default_factory=list)

    def fits(self, widest: str, supports: EmbedField | None) -> bool:
        if len("\n\n".join([*self.widest, widest])) > PASSAGES_ROOM:
            return False
        if supports is None:
            return True
        used = sum(len(f["name"]) + len(f["value"]) for f in [*self.fields, supports])
        return len(self.fields) < limits.EMBED_FIELDS and used <= FIELDS_ROOM

    def add(self, number: int, text: str, widest: str, supports: EmbedField | None) -> None:
        if number not in self.numbers:
            self.numbers.append(number)
        if text:
            self.description.append(text)
            self.widest.append(widest)
        if supports is not None:
            self.fields.append(supports)


def _name(passage: Passage, *, numbered: bool) -> str:
    """What heads a passage: its number among several, its heading, its own reference (a
    passage named as the one before it goes unnamed)."""
    name = [f"**[{passage.number}]**"] if numbered else []
    if passage.heading:
        name.append("**" + _MARKDOWN.escape(clip(passage.heading, 150), line_start=False) + "**")
    if passage.reference:
        name.append(_MARKDOWN.escape(clip(passage.reference, 150), line_start=False))
    return " · ".join(name)


def _passage(passage: Passage, *, name: str, room: int) -> str:
    """A passage as the description shows it: its name, then its quote, then in italics what
    its check found. Each line of the quote starts a line, where "# " or "- " would become
    markup; the verdict's line, not quoted, ends the quote."""
    lines = [name] if name else []
    if passage.quote:
        quote = clip(passage.quote, room).split("\n")
        lines.append("\n".join("> " + _quote_line(line) for line in quote))
        if passage.verdict_line:
            lines.append("*" + _MARKDOWN.escape(passage.verdict_line, line_start=True) + "*")
    return "\n".join(lines)


def _supports(passage: Passage, labels: Labels, *, numbered: bool, room: int) -> EmbedField:
    said = _MARKDOWN.escape(clip(" … ".join(passage.supports), room), line_start=False)
    name = f"{labels.supports} [{passage.number}]" if numbered else labels.supports
    return {"name": name, "value": labels.quoted.format(quote=said), "inline": False}


def _embed(card: SourceCard, chunk: _Chunk, *, url: str | None) -> Embed:
    label = "[" + ", ".join(str(n) for n in chunk.numbers) + "]"
    author = " · ".join(part for part in (label, card.author) if part)
    embed: Embed = {
        "title": clip(_MARKDOWN.kill_mentions(card.title), limits.EMBED_TITLE),
        "author": {"name": clip(_MARKDOWN.kill_mentions(author), limits.EMBED_AUTHOR)},
    }
    if url:
        embed["url"] = url
    if chunk.description:
        embed["description"] = "\n\n".join(chunk.description)
    if chunk.fields:
        embed["fields"] = chunk.fields
    footer = " · ".join(part for part in (card.trust_line, card.reference, card.year) if part)
    if footer:
        embed["footer"] = {"text": clip(_MARKDOWN.kill_mentions(footer), 300)}
    return embed


def _quote_line(line: str) -> str:
    text = line.lstrip(" ")
    return line[: len(line) - len(text)] + _MARKDOWN.escape(text, line_start=True)


def also_consulted(sources: Sequence[Source], labels: Labels) -> Embed:
    def line(c: Source) -> str:
        label = _MARKDOWN.escape(clip(c.title, 150), line_start=False)
        if c.url:
            label = _MARKDOWN.link(label, c.url)
        extra = ", ".join(part for part in (c.author, c.year) if part)
        return (
            "- "
            + label
            + (" — " + _MARKDOWN.escape(clip(extra, 150), line_start=False) if extra else "")
        )

    lines = listed(sources, line=line, room=ALSO_CONSULTED_ROOM, rest=lambda n: f"- … +{n}")
    return {"title": labels.also_consulted, "description": "\n".join(lines)}


def related_message(questions: Sequence[str], labels: Labels) -> Payload | None:
    """The related questions as buttons under a bold label; None when there are none."""
    buttons: list[Button] = [
        {
            "type": 2,
            "style": 2,
            "label": clip(_MARKDOWN.kill_mentions(question.strip()), limits.BUTTON_LABEL),
            "custom_id": f"{RELATED}{index}",
        }
        for index, question in enumerate(questions[: limits.ROWS])
        if question.strip()
    ]
    if not buttons:
        return None
    return {
        "content": f"**{_MARKDOWN.escape(labels.related, line_start=False)}**",
        "components": [_row(button) for button in buttons],
        "allowed_mentions": NO_MENTIONS,
        "flags": SUPPRESS_EMBEDS,
    }


def left_over(payloads: Sequence[Payload], wording: Wording) -> Payload | None:
    """The sources of cards messages that cannot be sent (an interaction's followups spent),
    said in one message: how many, then each linked, with its footnote numbers, while they fit.
    None when those messages hold no source (related questions alone)."""
    lines: list[str] = []
    titles: set[str] = set()
    for payload in payloads:
        for embed in payload.get("embeds") or ():
            if "author" in embed:  # a card (a long document's first): numbers lead its author
                if embed["title"] in titles:
                    continue
                titles.add(embed["title"])
                title = _MARKDOWN.escape(clip(embed["title"], 150), line_start=False)
                linked = _MARKDOWN.link(title, embed["url"]) if embed.get("url") else title
                numbers = embed["author"]["name"].split(" · ")[0]
                lines.append(f"- {numbers} {linked}")
            else:  # the also-consulted list, its lines already linked
                lines += str(embed.get("description", "")).split("\n")
    if not lines:
        return None
    lead = f"**{_MARKDOWN.escape(wording.more_sources(len(lines)), line_start=True)}**"
    room = limits.CONTENT - len(lead) - 20  # the "- … +n" line too
    shown = listed(lines, line=lambda line: line, room=room, rest=lambda n: f"- … +{n}")
    return {
        "content": "\n".join([lead, *shown]),
        "allowed_mentions": NO_MENTIONS,
        "flags": SUPPRESS_EMBEDS,
    }


def feedback_row(buttons: Sequence[Action] = ()) -> ActionRow:
    """👍 and 👎 under a finished answer, and ``buttons`` after them ("Ask a person")."""
    actions: list[Button] = [
        {
            "type": 2,
            "style": 1,
            "label": clip(_MARKDOWN.kill_mentions(button.label), limits.BUTTON_LABEL),
            "custom_id": f"{ACTION}{button.action}",
        }
        for button in buttons
    ]
    return _row(_feedback_button("up", "👍"), _feedback_button("down", "👎"), *actions)


def embed_size(embed: Embed) -> int:
    """The characters Discord counts towards the 6000 a message may carry in embeds."""
    size = len(embed.get("title", "")) + len(embed.get("description", ""))
    size += len(embed.get("author", {"name": ""})["name"])
    size += len(embed.get("footer", {"text": ""})["text"])
    return size + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))


def _row(*buttons: Button) -> ActionRow:
    return {"type": 1, "components": list(buttons)}


def _feedback_button(value: str, emoji: str) -> Button:
    return {"type": 2, "style": 2, "emoji": {"name": emoji}, "custom_id": f"{FEEDBACK}{value}"}
