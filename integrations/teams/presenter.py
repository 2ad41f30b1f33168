"""How Teams shows an answer: ``markdown`` messages of 8,000 characters labelled AI-generated,
Teams' feedback loop under the last, footnotes as Teams' citation markers ``[n]``, and the
sources on the answer itself (:mod:`.cards`).

The core writes an answer's messages before its thread, so the answer's messages leave the
formatter without their citations, and the thread brings them as an addendum;
:func:`with_addenda` puts them together as Teams takes one activity: every ``[n]`` with its
citation and every citation with its ``[n]``, at most 20, the closing lines and the related
questions' card on the last message, the whole within 100 KB.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from microsoft_teams.api.activities.message import MessageActivityInput

from bot.render.ports import Button, Payload
from bot.render.text import clip, superscript
from integrations.teams import cards, limits
from integrations.teams.markdown import MARKER, TeamsMarkdown, markers, outside_code

__all__ = ["TeamsPresenter", "root_entity", "with_addenda"]


def _dump(activity: MessageActivityInput) -> Payload:
    dumped: Payload = activity.model_dump(by_alias=True, exclude_none=True, mode="json")
    return dumped


class TeamsPresenter:
    name = "teams"
    markdown = TeamsMarkdown()
    thread_parts = cards.TeamsCards()
    text_budget = 7000
    message_limit = limits.TEXT
    footnote_width = 5

    def answer_message(
        self, text: str, *, feedback: bool, buttons: Sequence[Button] = ()
    ) -> Payload:
        """An answer message: Teams' Markdown, the AI-generated label, and Teams' feedback
        loop (👍/👎 with a form) on the last message of a finished answer."""
        activity = MessageActivityInput(text=text, text_format="markdown").add_ai_generated()
        if feedback:
            activity.add_feedback("default")
        return _dump(activity)

    def notice(self, text: str) -> Payload:
        return _dump(MessageActivityInput(text=clip(text, limits.TEXT), text_format="plain"))


def root_entity(activity: Payload) -> dict[str, Any] | None:
    """The activity's one root message entity (the AI label and the citations share it:
    Teams refuses a second one)."""
    for entity in activity.get("entities", []):
        if entity.get("type") == "https://schema.org/Message":
            found: dict[str, Any] = entity
            return found
    return None


def with_addenda(
    answer: Sequence[Payload], thread: Sequence[Payload]
) -> tuple[list[Payload], list[Payload]]:
    """The answer's messages as Teams shows them, their citations and closing lines on them,
    and the thread's messages posted after the answer (the core's summary of the sources past
    ``MAX_CARDS``).

    Each message gets the citations of the ``[n]`` in its text; a ``[n]`` with no citation
    (a number in that summary) becomes a plain superscript. The lines and the related
    questions' card go on the last message. A message past 100 KB loses its popups' cards,
    largest first, then its citations' keywords and abstracts, never its words."""
    claims: dict[int, Payload] = {}
    lines: list[str] = []
    attachments: list[Payload] = []
    rest: list[Payload] = []
    for payload in thread:
        addendum = payload.get(cards.ADDENDUM)
        if addendum is None:
            rest.append(payload)
            continue
        for found in addendum.get("citation", []):
            claims.setdefault(int(found["position"]), found)
        lines += addendum.get("lines", [])
        attachments += addendum.get("attachments", [])
    shown = [copy.deepcopy(dict(message)) for message in answer]
    for index, message in enumerate(shown):
        last = index == len(shown) - 1
        text = str(message.get("text", ""))
        if last and lines:
            text = "\n\n".join([text, *lines]) if text else "\n\n".join(lines)
        message["text"] = _cite(message, text, claims)
        if last and attachments:
            message["attachments"] = [*message.get("attachments", []), *attachments]
        _fit(message)
    return shown, rest


def _cite(message: Payload, text: str, claims: dict[int, Payload]) -> str:
    """``text`` with each ``[n]`` that has no citation as a superscript; the citations of the
    others on ``message``'s root entity, in the order of their numbers."""
    numbers = set(markers(text))
    known = sorted(n for n in numbers if n in claims)
    if numbers - set(known):
        text = outside_code(
            text,
            lambda part: MARKER.sub(
                lambda m: m.group() if int(m.group(1)) in claims else superscript(int(m.group(1))),
                part,
            ),
        )
    root = root_entity(message)
    if known and root is not None:
        root["citation"] = [copy.deepcopy(claims[n]) for n in known]
    return text


def _fit(message: Payload) -> None:
    """Keep ``message`` within :data:`~integrations.teams.limits.ACTIVITY_BYTES`: drop the
    popups' cards, largest first, then the keywords and abstracts."""
    root = root_entity(message)
    citations = root.get("citation", []) if root is not None else []
    appearances = sorted(
        (c["appearance"] for c in citations),
        key=lambda a: len(a.get("text", "")),
        reverse=True,
    )
    for key in ("text", "keywords", "abstract"):
        for appearance in appearances:
            if limits.utf16_bytes(message) <= limits.ACTIVITY_BYTES:
                return
            if key == "abstract":
                appearance[key] = ""
            else:
                appearance.pop(key, None)
                if key == "text":
                    appearance.pop("encodingFormat", None)
