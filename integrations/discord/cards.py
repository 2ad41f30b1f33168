"""Discord's threaded replies: each source document an embed holding its cited passages (each
quote followed by what its check found on the page, once known), the sources consulted but
never cited one embed more, related questions as buttons.

Title, author and footer are plain text on Discord (no Markdown, no masked links), so only
mentions are broken there; the description and fields are Markdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.i18n.wording import Labels
from bot.render.numbering import CitationCard
from bot.render.ports import Payload
from bot.render.text import clip
from bot.render.thread import listed, source_title, verdict_line, with_room_for_verdicts
from bot.upstream.citations import Citation
from integrations.discord import limits
from integrations.discord.markdown import DiscordMarkdown, kill_mentions, link_url
from integrations.discord.types import (
    NO_MENTIONS,
    SUPPRESS_EMBEDS,
    ActionRow,
    Button,
    Embed,
    EmbedField,
)

__all__ = [
    "RELATED",
    "also_consulted",
    "document",
    "embed_size",
    "feedback_row",
    "related_message",
]

RELATED = "citebot:related:"
"""The ``custom_id`` prefix of a related-question button (its index follows)."""
FEEDBACK = "citebot:feedback:"
"""The ``custom_id`` prefix of a feedback button (``up`` or ``down`` follows)."""
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


def document(passages: Sequence[CitationCard], labels: Labels) -> list[Embed]:
    """One source document's cited passages (its citation cards, in footnote order) as
    embeds: one, unless they outgrow an embed's room, and only the first carries the link,
    since Discord shows one embed per URL in a message. The footnote numbers lead the author
    line, just above the title, so ``¹`` in the answer finds ``[1]`` here while the title
    stays the document's own; with several numbers each passage is headed by its own.

    Which embed a passage goes in is decided with room for the longest verdict under its
    quote, so the embeds stay the same when the verdicts are edited in."""
    numbers = list(dict.fromkeys(p.number for p in passages))
    numbered = len(numbers) > 1
    shared_reference = len({p.citation.reference for p in passages}) == 1
    quote_room = min(QUOTE, max(QUOTE_FLOOR, PASSAGES_ROOM // len(passages) - 60))
    said_room = min(SUPPORTS, max(SUPPORTS_FLOOR, FIELDS_ROOM // len(numbers) - 40))
    chunks: list[_Chunk] = []
    named = ""
    for passage, roomy in zip(passages, with_room_for_verdicts(passages, labels), strict=True):
        name, named = named, _name(passage, numbered=numbered, reference=not shared_reference)
        shown = named if named != name else ""
        text = _passage(passage, labels, name=shown, room=quote_room)
        widest = _passage(roomy, labels, name=shown, room=quote_room)

        def said(chunk: _Chunk, passage: CitationCard = passage) -> EmbedField | None:
            if not passage.supports or passage.number in chunk.numbers:
                return None  # a number's sentences are shown once an embed
            return _supports(passage, labels, numbered=numbered, room=said_room)

        if not chunks or not chunks[-1].fits(widest, said(chunks[-1])):
            chunks.append(_Chunk())
        chunks[-1].add(passage.number, text, widest, said(chunks[-1]))
    first = passages[0].citation
    url = link_url(first.source_url) if first.source_url else None
    reference = first.reference if shared_reference else None
    return [
        _embed(first, chunk, url=None if index else url, reference=reference, labels=labels)
        for index, chunk in enumerate(chunks)
    ]


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


def _name(card: CitationCard, *, numbered: bool, reference: bool) -> str:
    """What heads a passage: its number among several, its heading, its reference when the
    document's passages differ in it (a passage named as the one before it goes unnamed)."""
    c = card.citation
    name = [f"**[{card.number}]**"] if numbered else []
    if c.heading:
        name.append("**" + _MARKDOWN.escape(clip(c.heading, 150), line_start=False) + "**")
    if reference and c.reference:
        name.append(_MARKDOWN.escape(clip(c.reference, 150), line_start=False))
    return " · ".join(name)


def _passage(card: CitationCard, labels: Labels, *, name: str, room: int) -> str:
    """A passage as the description shows it: its name, then its quote, then in italics what
    its check found. Each line of the quote starts a line, where "# " or "- " would become
    markup; the verdict's line, not quoted, ends the quote."""
    lines = [name] if name else []
    if card.citation.cited_text:
        quote = clip(card.citation.cited_text, room).split("\n")
        lines.append("\n".join("> " + _quote_line(line) for line in quote))
        verdict = verdict_line(card.quote_check, labels)
        if verdict:
            lines.append("*" + _MARKDOWN.escape(verdict, line_start=True) + "*")
    return "\n".join(lines)


def _supports(card: CitationCard, labels: Labels, *, numbered: bool, room: int) -> EmbedField:
    said = _MARKDOWN.escape(clip(" … ".join(card.supports), room), line_start=False)
    name = f"{labels.supports} [{card.number}]" if numbered else labels.supports
    return {"name": name, "value": labels.quoted.format(quote=said), "inline": False}


def _embed(
    first: Citation, chunk: _Chunk, *, url: str | None, reference: str | None, labels: Labels
) -> Embed:
    label = "[" + ", ".join(str(n) for n in chunk.numbers) + "]"
    author = " · ".join(part for part in (label, first.author) if part)
    embed: Embed = {
        "title": clip(kill_mentions(source_title(first, labels)), limits.EMBED_TITLE),
        "author": {"name": clip(kill_mentions(author), limits.EMBED_AUTHOR)},
    }
    if url:
        embed["url"] = url
    if chunk.description:
        embed["description"] = "\n\n".join(chunk.description)
    if chunk.fields:
        embed["fields"] = chunk.fields
    footer = " · ".join(part for part in (reference, first.year) if part)
    if footer:
        embed["footer"] = {"text": clip(kill_mentions(footer), 300)}
    return embed


def _quote_line(line: str) -> str:
    text = line.lstrip(" ")
    return line[: len(line) - len(text)] + _MARKDOWN.escape(text, line_start=True)


def also_consulted(citations: Sequence[Citation], labels: Labels) -> Embed:
    def line(c: Citation) -> str:
        label = _MARKDOWN.escape(clip(source_title(c, labels), 150), line_start=False)
        if c.source_url:
            label = _MARKDOWN.link(label, c.source_url)
        extra = ", ".join(part for part in (c.author, c.year) if part)
        return (
            "- "
            + label
            + (" — " + _MARKDOWN.escape(clip(extra, 150), line_start=False) if extra else "")
        )

    lines = listed(citations, line=line, room=ALSO_CONSULTED_ROOM, rest=lambda n: f"- … +{n}")
    return {"title": labels.also_consulted, "description": "\n".join(lines)}


def related_message(questions: Sequence[str], labels: Labels) -> Payload | None:
    """The related questions as buttons under a bold label; None when there are none."""
    buttons: list[Button] = [
        {
            "type": 2,
            "style": 2,
            "label": clip(kill_mentions(question.strip()), limits.BUTTON_LABEL),
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


def feedback_row() -> ActionRow:
    """👍 and 👎 under a finished answer."""
    return _row(_feedback_button("up", "👍"), _feedback_button("down", "👎"))


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
