"""Teams' parts of an answer's thread: where Discord and Slack post citation cards under the
answer, Teams shows a source on the answer itself, as the citation behind its ``[n]``.

So the "thread" a Teams answer gets is one :data:`ADDENDUM` (see
:func:`integrations.teams.presenter.with_addenda`), which the adapter puts on the answer's
messages instead of posting it:

- each cited number up to 20 a citation (a ``Claim``): the document's title (80 characters),
  its link, an abstract (what the check found on the page, then the quote's beginning: 160
  characters), keywords (the author, the year, the reference: three of 28 characters) and a
  popup, an Adaptive Card as a string, holding the title linked, the author, year and
  reference, each quote of that number with what its check found on the page, and the
  sentences of the answer it supports;
- the numbers past 20 (a message holds at most 20 citations) and the sources consulted but
  never cited, as lines closing the answer's last message, each title linked;
- the related questions as an Adaptive Card under the answer, one button each (``messageBack``:
  the question shows as the person's and reaches the bot with its ``value``).

Feedback is Teams' own loop, set on the answer (:mod:`.presenter`); the cited sources past
``MAX_CARDS`` are the core's summary, a message of its own after the answer. Every text from
the upstream goes into the cards as ``TextRun``s, which Adaptive Cards do not parse, so a quote
shows as its source wrote it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from microsoft_teams.api.models.entity import Appearance, Claim
from microsoft_teams.cards import (
    ActionSet,
    AdaptiveCard,
    CardElement,
    Container,
    MessageBackSubmitActionData,
    OpenUrlAction,
    RichTextBlock,
    SubmitAction,
    SubmitActionData,
    TextBlock,
    TextRun,
)

from bot.i18n.wording import Labels
from bot.render.layout import Button, Passage, Source, SourceCard
from bot.render.ports import Payload
from bot.render.text import clip, superscript
from bot.render.thread import listed
from integrations.teams.limits import ABSTRACT, CITATIONS, KEYWORD, KEYWORDS, NAME
from integrations.teams.markdown import TeamsMarkdown

__all__ = [
    "ADDENDUM",
    "LINES_ROOM",
    "RELATED",
    "Part",
    "TeamsCards",
    "adaptive",
    "claim",
    "popup",
    "related",
]

ADDENDUM = "addendum"
"""The key of a Teams thread message that belongs on the answer (its value: ``citation``,
``lines``, ``attachments``)."""
RELATED = "related"
"""``value.citebot`` of a related question's button, as the bot gets it back."""
QUOTE = 700
"""Characters of the quotes one popup shows together (an activity holds twenty popups)."""
SUPPORTS = 300
"""Characters of the answer's sentences one popup quotes."""
LINES_ROOM = 4000
"""Characters of the lines that close the answer (sources past 20, also consulted)."""
ITEM = 150
"""Characters of one source's title in those lines."""
QUESTIONS, QUESTION = 5, 200
"""Related questions shown, and the characters of each button's title."""

_MARKDOWN = TeamsMarkdown()
_CARD: Final = "application/vnd.microsoft.card.adaptive"


@dataclass(frozen=True, slots=True)
class Part:
    """One part of the addendum: a citation, a source listed in the closing lines (past 20,
    or consulted), or the related questions' card."""

    kind: Literal["claim", "listed", "consulted", "related"]
    number: int = 0
    claim: Payload = field(default_factory=dict)
    items: tuple[str, ...] = ()
    """Listed sources, as Markdown (a number past 20, or a consulted source)."""
    attachment: Payload = field(default_factory=dict)


class TeamsCards:
    """The parts of a Teams answer's addendum (:mod:`bot.render.ports`' ``ThreadParts``): at
    most twenty citations, all in one addendum (lines and cards count no units)."""

    most = CITATIONS
    room = 40_000
    passages: int | None = None

    def link(self, url: str) -> str | None:
        return _MARKDOWN.link_url(url)

    def card(self, card: SourceCard, labels: Labels) -> list[Part]:
        """A citation for each of the document's numbers up to 20 (its popup holding that
        number's passages); a listed line for each past it."""
        parts: list[Part] = []
        for number in card.numbers:
            if number <= CITATIONS:
                parts.append(Part("claim", number, claim=claim(card, number, labels)))
            else:
                item = f"{superscript(number)} {_linked(card.title, card.url)}"
                parts.append(Part("listed", number, items=(item,)))
        return parts

    def also_consulted(self, sources: Sequence[Source], labels: Labels) -> Part:
        return Part("consulted", items=tuple(_linked(s.title, s.url) for s in sources))

    def related(self, questions: Sequence[str], labels: Labels) -> Part | None:
        attachment = related(questions, labels)
        return Part("related", attachment=attachment) if attachment else None

    def feedback(self, labels: Labels, buttons: Sequence[Button] = ()) -> None:
        """Teams' feedback loop is the answer's own (``channelData.feedbackLoop``)."""
        return None

    def size(self, part: Part) -> tuple[int, int]:
        if part.kind == "claim":
            return 1, len(json.dumps(part.claim, ensure_ascii=False))
        return 0, len(json.dumps(part.attachment or part.items, ensure_ascii=False))

    def message(self, parts: Sequence[Part], labels: Labels) -> Payload:
        addendum: dict[str, Any] = {}
        claims = _one_a_number([part.claim for part in parts if part.kind == "claim"])
        if claims:
            addendum["citation"] = claims
        lines = _lines(parts, labels)
        if lines:
            addendum["lines"] = lines
        attachments = [part.attachment for part in parts if part.kind == "related"]
        if attachments:
            addendum["attachments"] = attachments
        return {ADDENDUM: addendum}


def claim(card: SourceCard, number: int, labels: Labels) -> Payload:
    """Citation ``number`` of ``card``'s document, as Teams' ``Claim`` (validated by the SDK's
    model: its name, abstract and keywords within Teams' limits)."""
    passages = [p for p in card.passages if p.number == number]
    quote = next((p.quote for p in passages if p.quote), "")
    supports = card.supporting.get(number)
    extract = quote or (" … ".join(supports.supports) if supports else "") or card.title
    verdict = next((p.verdict_line for p in passages if p.verdict_line), None)
    said = " — ".join(line for line in (card.trust_line, verdict) if line)
    abstract = f"{said} — {extract}" if said else extract
    keywords = [clip(k, KEYWORD) for k in (card.author, card.year, card.reference) if k]
    appearance = Appearance(
        name=clip(card.title, NAME),
        url=_MARKDOWN.link_url(card.url) if card.url else None,
        abstract=clip(_MARKDOWN.kill_mentions(abstract), ABSTRACT),
        text=json.dumps(popup(card, number, labels), ensure_ascii=False, separators=(",", ":")),
        encoding_format=_CARD,
        keywords=keywords[:KEYWORDS] or None,
    )
    return Claim(position=number, appearance=appearance).model_dump(
        by_alias=True, exclude_none=True, mode="json"
    )


def popup(card: SourceCard, number: int, labels: Labels) -> Payload:
    """What a citation's popup shows: the title (linked), who and when, each quote of
    ``number`` (headed by its heading and own reference) with what its check found, then the
    sentences of the answer it supports. Every text a ``TextRun``: shown as written."""
    target = _MARKDOWN.link_url(card.url) if card.url else None
    title = TextRun(text=clip(card.title, 300), weight="Bolder", size="Medium")
    if target:
        title.select_action = OpenUrlAction(url=target)
    body: list[CardElement] = [_runs("title", title)]
    about = " · ".join(part for part in (card.author, card.year, card.reference) if part)
    if about:
        body.append(_runs("about", TextRun(text=clip(about, 300), is_subtle=True)))
    if card.trust_line:
        body.append(_runs("trust", TextRun(text=card.trust_line, color="Warning")))
    passages = [p for p in card.passages if p.number == number]
    room = QUOTE // max(1, len(passages))
    for index, passage in enumerate(passages):
        body += _passage(passage, index, room)
    supports = card.supporting.get(number)
    if supports is not None:
        said = clip(" … ".join(supports.supports), SUPPORTS)
        lead = TextRun(text=labels.supports_lead + " ", italic=True)
        quoted = TextRun(text=labels.quoted.format(quote=said))
        body.append(_runs("supports", lead, quoted))
    return adaptive(body)


def _passage(passage: Passage, index: int, room: int) -> list[CardElement]:
    head = " · ".join(part for part in (passage.heading, passage.reference) if part)
    items: list[CardElement] = []
    if head:
        items.append(_runs(f"head-{index}", TextRun(text=clip(head, 200), weight="Bolder")))
    if passage.quote:
        items.append(_runs(f"quote-{index}", TextRun(text=clip(passage.quote, room))))
    if passage.verdict_line:
        line = TextRun(text=passage.verdict_line, italic=True, is_subtle=True)
        items.append(_runs(f"verdict-{index}", line))
    return [Container(id=f"passage-{index}", style="emphasis", items=items)] if items else []


def related(questions: Sequence[str], labels: Labels) -> Payload | None:
    """The related questions as an Adaptive Card attachment, a button each: pressed, the
    question shows in the conversation as the person's and reaches the bot (``messageBack``)
    with its ``value``."""
    asked = [q.strip() for q in questions[:QUESTIONS] if q.strip()]
    if not asked:
        return None
    buttons = [
        SubmitAction(
            title=clip(_MARKDOWN.kill_mentions(question), QUESTION),
            data=SubmitActionData(
                msteams=MessageBackSubmitActionData(
                    text=clip(question, 1000),
                    display_text=clip(question, 1000),
                    value={"citebot": RELATED, "question": clip(question, 1000)},
                ).model_dump(by_alias=True, exclude_none=True, mode="json")
            ),
        )
        for question in asked
    ]
    heading = TextBlock(text=labels.related, weight="Bolder", wrap=True)
    card = adaptive([heading, ActionSet(actions=list(buttons))])
    return {"contentType": _CARD, "content": card}


def adaptive(body: list[CardElement]) -> Payload:
    """An Adaptive Card of ``body``, as JSON (version 1.5, which Teams renders)."""
    card = AdaptiveCard(body=body, version="1.5")
    dumped: Payload = card.model_dump(by_alias=True, exclude_none=True, mode="json")
    return {"$schema": "http://adaptivecards.io/schemas/adaptive-card.json", **dumped}


def _runs(name: str, *runs: CardElement) -> RichTextBlock:
    return RichTextBlock(id=name, inlines=list(runs))


def _linked(title: str, url: str | None) -> str:
    label = _MARKDOWN.escape(clip(title, ITEM), line_start=False)
    return _MARKDOWN.link(label, url) if url else label


def _lines(parts: Sequence[Part], labels: Labels) -> list[str]:
    """The paragraphs closing the answer: the sources past 20 after a "Sources:" lead, then
    the sources consulted under their heading, within :data:`LINES_ROOM`."""
    lines: list[str] = []
    room = LINES_ROOM
    for kind, lead in (("listed", labels.sources_lead), ("consulted", labels.also_consulted)):
        items = [item for part in parts if part.kind == kind for item in part.items]
        if not items:
            continue
        heading = _MARKDOWN.emphasis("strong", _MARKDOWN.escape(lead, line_start=True))
        shown = listed(items, line=lambda item: item, room=room, rest=lambda n: f"… +{n}")
        line = heading + (" " if kind == "listed" else "\n") + " · ".join(shown)
        lines.append(line)
        room -= len(line)
    return lines


def _one_a_number(claims: list[Payload]) -> list[Payload]:
    """One citation a number: passages behind one number on several cards (their source has
    no link to share) go into the first one's popup."""
    first: dict[int, Payload] = {}
    for found in claims:
        kept = first.setdefault(found["position"], found)
        if kept is not found and "text" in kept["appearance"] and "text" in found["appearance"]:
            popup = json.loads(kept["appearance"]["text"])
            popup["body"] += json.loads(found["appearance"]["text"])["body"][1:]
            kept["appearance"]["text"] = json.dumps(
                popup, ensure_ascii=False, separators=(",", ":")
            )
    return list(first.values())
