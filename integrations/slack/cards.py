"""Slack's threaded replies in Block Kit: each source document a group of blocks holding its
cited passages (each quote followed by what its check found on the page, once known), the
sources consulted but never cited one section more, related questions as buttons, the feedback
buttons last; the groups batched into messages of 50 blocks.

Quotes go in rich text blocks, which Slack does not parse, so a card shows the source's own
words; everything else is mrkdwn, escaped with :func:`~integrations.slack.markdown.mrkdwn`, in
``verbatim`` text objects (Slack parses no mention words there). A link is whole or absent:
when ``<url|title>`` does not fit, the title is cut, and when even a short title leaves no room
the link goes and the title stays.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n.wording import Labels
from bot.render.layout import Button, Passage, Source, SourceCard
from bot.render.ports import Payload
from bot.render.text import clip
from bot.render.thread import listed
from integrations.slack import limits
from integrations.slack.blocks import Block, context, fit, section
from integrations.slack.markdown import UNFURL_OFF, SlackMarkdown, mrkdwn

__all__ = [
    "ACTION",
    "FEEDBACK_ACTION",
    "PASSAGES",
    "RELATED_ACTION",
    "Group",
    "SlackCards",
    "also_consulted",
    "disclaimer",
    "document",
    "feedback",
    "notification",
    "related",
]

RELATED_ACTION = "citebot_related_"
"""The ``action_id`` prefix of a related-question button (its index follows)."""
FEEDBACK_ACTION = "citebot_feedback"
ACTION = "citebot_action_"
"""The ``action_id`` prefix of a button beside the feedback buttons that asks something of the
kit (``ask_person``, ``ask_sources``: :data:`bot.render.layout.Action`); the answer it is under
is the reply that holds them, as for a vote."""
ALSO_CONSULTED_ROOM = 2800
"""Characters of the also-consulted section, below a section's 3,000."""
PASSAGES = 8
"""Passages of one document a card holds; a document cited more often gets more cards."""
QUOTE, QUOTE_FLOOR = 1500, 300
"""A passage's quote is clipped to its share of a card (6,000 characters), between these."""
LINE_ROOM = 1000
"""Characters of one line of the also-consulted list: a longer link goes, its title stays."""
SHORTEST_LABEL = 20
"""A link's title is cut to make room for its URL, but not below this many characters."""
DISCLAIMER_ROOM = 400
"""Characters of the disclaimer's context block (an admin's line is at most 200, escaped)."""

_MARKDOWN = SlackMarkdown()


@dataclass(frozen=True, slots=True)
class Group:
    """Blocks that stay together in one message, and what the message's notification says of
    them: a card's plain title, else what the group is."""

    blocks: list[Block]
    title: str | None = None
    kind: str = "card"
    """``card``, ``also_consulted``, ``related`` or ``feedback``."""


class SlackCards:
    """The parts of a Slack thread: groups of blocks, 50 blocks to a message and about 11,000
    characters of block JSON (:mod:`bot.render.ports`' ``ThreadParts``)."""

    most = limits.BLOCKS
    room = limits.PAYLOAD_BUDGET
    passages: int | None = PASSAGES

    def link(self, url: str) -> str | None:
        return _MARKDOWN.link_url(url)

    def card(self, card: SourceCard, labels: Labels) -> list[Group]:
        return [document(card, labels)]

    def also_consulted(self, sources: Sequence[Source], labels: Labels) -> Group:
        return also_consulted(sources, labels)

    def related(self, questions: Sequence[str], labels: Labels) -> Group | None:
        return related(questions, labels)

    def feedback(self, labels: Labels, buttons: Sequence[Button] = ()) -> Group:
        return feedback(labels, buttons)

    def size(self, part: Group) -> tuple[int, int]:
        """Blocks and characters; the feedback buttons' with room for the disclaimer block the
        sink adds under them."""
        units, characters = len(part.blocks), len(str(part.blocks))
        if part.kind == "feedback":
            return units + 1, characters + len(str(disclaimer("x" * DISCLAIMER_ROOM)))
        return units, characters

    def message(self, parts: Sequence[Group], labels: Labels) -> Payload:
        blocks = [block for group in parts for block in group.blocks]
        return {"text": notification(parts, labels), "blocks": blocks, **UNFURL_OFF}


def document(card: SourceCard, labels: Labels) -> Group:
    """One source document's cited passages (at most :data:`PASSAGES`): the title linked
    once, then each passage's quote, headed by its number when the document stands behind
    several, then who and when, then what it supports."""
    numbered = card.numbered
    title = clip(card.title, 200)
    lead = "*" + ", ".join(str(n) for n in card.numbers) + ".* "
    room = limits.SECTION_TEXT - len(lead) - 2
    blocks: list[Block] = [section(f"{lead}*{_linked(title, card.url, room)}*")]
    if card.trust_line:
        blocks.append(context(fit(card.trust_line, 300)))
    quote_room = min(QUOTE, max(QUOTE_FLOOR, 6000 // len(card.passages)))
    elements: list[Block] = []
    named: list[Block] = []
    for passage in card.passages:
        name, named = named, _name(passage, numbered=numbered)
        if named and named != name:  # a passage named as the one before it goes unnamed
            elements.append({"type": "rich_text_section", "elements": named})
        elements += _quote(passage, room=quote_room)
        elements += _verdict(passage)
    if elements:
        blocks.append({"type": "rich_text", "elements": elements})
    about = (card.author, card.year, card.reference)
    if any(about):
        blocks.append(context(fit(" · ".join(part for part in about if part), 500)))
    supporting = card.supporting
    said_room = 2800 // max(1, len(supporting)) - 40
    said = [_supports(p, labels, numbered=numbered, room=said_room) for p in supporting.values()]
    if said:
        blocks.append(context("\n".join(said)))
    blocks.append({"type": "divider"})
    return Group(blocks, title=f"{', '.join(str(n) for n in card.numbers)}. {title}")


def _name(passage: Passage, *, numbered: bool) -> list[Block]:
    """What heads a passage, as rich text: its number among several (bold), its own
    reference."""
    name: list[Block] = []
    if numbered:
        name.append({"type": "text", "text": f"[{passage.number}]", "style": {"bold": True}})
    if passage.reference:
        lead = " · " if name else ""
        name.append(
            {"type": "text", "text": lead + _MARKDOWN.kill_mentions(clip(passage.reference, 150))}
        )
    return name


def _quote(passage: Passage, *, room: int) -> list[Block]:
    """The passage's heading (bold) and quote, in a rich text quote: the source's words."""
    quote: list[Block] = []
    if passage.heading:
        heading = _MARKDOWN.kill_mentions(clip(passage.heading, 150)) + "\n"
        quote.append({"type": "text", "text": heading, "style": {"bold": True}})
    if passage.quote:
        quote.append({"type": "text", "text": _MARKDOWN.kill_mentions(clip(passage.quote, room))})
    return [{"type": "rich_text_quote", "elements": quote}] if quote else []


def _verdict(passage: Passage) -> list[Block]:
    """What the quote's check found, in italics under the quote (nothing when it found
    nothing to say); in rich text, like the quote, so no mrkdwn escaping is needed."""
    if passage.verdict_line is None:
        return []
    text = {"type": "text", "text": passage.verdict_line, "style": {"italic": True}}
    return [{"type": "rich_text_section", "elements": [text]}]


def _supports(passage: Passage, labels: Labels, *, numbered: bool, room: int) -> str:
    lead = labels.supports_lead
    if numbered:  # "Supports [2]:", punctuated as the language punctuates "Supports:"
        lead = lead.replace(labels.supports, f"{labels.supports} [{passage.number}]", 1)
    said = fit(" … ".join(passage.supports), min(1500, room))
    return f"_{mrkdwn(lead)}_ {labels.quoted.format(quote=said)}"


def also_consulted(sources: Sequence[Source], labels: Labels) -> Group:
    heading = f"*{mrkdwn(labels.also_consulted)}*"

    def line(c: Source) -> str:
        extra = ", ".join(part for part in (c.author, c.year) if part)
        extra = " — " + fit(extra, 150) if extra else ""
        label = clip(c.title, 150)
        return "• " + _linked(label, c.url, LINE_ROOM - len(extra) - 2) + extra

    room = ALSO_CONSULTED_ROOM - len(heading)
    lines = listed(sources, line=line, room=room, rest=lambda n: f"• … +{n}")
    return Group([section("\n".join([heading, *lines]))], kind="also_consulted")


def related(questions: Sequence[str], labels: Labels) -> Group | None:
    # The label is shown (mentions broken); the value only comes back on a click, as the
    # question to ask, so it keeps the upstream's words.
    buttons = [
        {
            "type": "button",
            "text": {
                "type": "plain_text",
                "text": clip(_MARKDOWN.kill_mentions(q), limits.BUTTON_TEXT),
            },
            "action_id": f"{RELATED_ACTION}{index}",
            "value": clip(q, limits.BUTTON_VALUE),
        }
        for index, q in enumerate(q.strip() for q in questions[:5])
        if q
    ]
    if not buttons:
        return None
    blocks = [section(f"*{mrkdwn(labels.related)}*"), {"type": "actions", "elements": buttons}]
    return Group(blocks, kind="related")


def disclaimer(text: str) -> Block:
    """The answer's disclaimer, as Slack's AI guidelines ask: a context block, which the sink
    adds under the feedback buttons (:class:`~integrations.slack.sink.SlackSink`); mentions in
    an admin's line stay inert."""
    return context(fit(text, DISCLAIMER_ROOM))


def feedback(labels: Labels, buttons: Sequence[Button] = ()) -> Group:
    def button(emoji: str, label: str, value: str) -> Block:
        return {
            "text": {"type": "plain_text", "text": emoji},
            "accessibility_label": label,
            "value": value,
        }

    element = {
        "type": "feedback_buttons",
        "action_id": FEEDBACK_ACTION,
        "positive_button": button("👍", labels.good_answer, "up"),
        "negative_button": button("👎", labels.bad_answer, "down"),
    }
    blocks: list[Block] = [{"type": "context_actions", "elements": [element]}]
    if buttons:
        actions = [
            {
                "type": "button",
                "text": {"type": "plain_text", "text": clip(b.label, limits.BUTTON_TEXT)},
                "action_id": f"{ACTION}{b.action}",
                "value": b.action,
            }
            for b in buttons
        ]
        blocks.append({"type": "actions", "elements": actions})
    return Group(blocks, kind="feedback")


def notification(groups: Sequence[Group], labels: Labels) -> str:
    """The ``text`` that goes with blocks: what a notification and a screen reader show. The
    card titles (plain, no links) after a "Sources:" lead punctuated as the reader's language
    does; a message without cards says what it holds instead."""
    titles = [group.title for group in groups if group.title]
    kinds = {group.kind for group in groups}
    if titles:
        lead = labels.sources_lead
        space = "" if unicodedata.east_asian_width(lead[-1]) in "WF" else " "  # after "：" none
        return fit(lead + space + " · ".join(titles), limits.TEXT - 100)
    if "also_consulted" in kinds:
        return mrkdwn(labels.also_consulted)
    if "related" in kinds:
        return mrkdwn(labels.related)
    return mrkdwn(f"👍 {labels.good_answer} · 👎 {labels.bad_answer}")


def _linked(label: str, url: str | None, room: int) -> str:
    """``label`` (plain text) as mrkdwn within ``room`` characters, linked to ``url`` when the
    whole ``<url|label>`` fits with at least :data:`SHORTEST_LABEL` characters of label (or
    all of a shorter one). Never a link cut open."""
    target = _MARKDOWN.link_url(url) if url else None
    if target is not None:
        label_room = room - len(target) - 3
        if label_room >= min(SHORTEST_LABEL, len(mrkdwn(label))):
            return f"<{target}|{fit(label, label_room)}>"
    return fit(label, room)
