"""What Teams takes from a bot, checked on every activity the simulator receives: first the
Teams SDK's own models (``microsoft_teams.api``'s ``ActivityParams``: an activity's fields and
types, a citation's name at most 80 characters, its abstract 160, its keywords three of 28),
then Teams' documented rules the models leave out, each with its page:

- bot-messages-ai-generated-content (learn.microsoft.com/microsoftteams/platform/bots/how-to/
  bot-messages-ai-generated-content): one root message entity ("Multiple root message
  entities found under entities array", 400); at most 20 citations ("Bot message with more
  than 20 citations", 400); a citation's ``appearance`` not empty (400); ``appearance.text``
  an Adaptive Card as a string ("Error while parsing citation entity with ID: X", 400) with
  ``encodingFormat`` ``application/vnd.microsoft.card.adaptive``; ``additionalType`` only
  ``AIGeneratedContent``; ``channelData.feedbackLoop.type`` ``default`` or ``custom``.
- format-your-bot-messages: at most 100 KB, the payload encoded as UTF-16 (413
  ``MessageSizeTooBig``).
- Adaptive Card attachments validate with the SDK's card models (``microsoft_teams.cards``).

Teams documents no error for a ``[n]`` without its citation: a reader sees a bare ``[n]``, so
the simulator counts it as a violation when the message shows so at the end
(:meth:`tests.sim.teams.model.SimMessage.unmatched`), as Slack's does for undocumented
Markdown.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass
from typing import Any

import microsoft_teams.cards.core as cards
from microsoft_teams.api.activities import ActivityParams
from pydantic import BaseModel, TypeAdapter, ValidationError

__all__ = [
    "ACTIVITY_BYTES",
    "CITATIONS",
    "Refused",
    "card_problems",
    "check_activity",
    "utf16_size",
]

ACTIVITY_BYTES = 100 * 1024
CITATIONS = 20
CARD = "application/vnd.microsoft.card.adaptive"
ROOT = "https://schema.org/Message"
_ACTIVITY: TypeAdapter[Any] = TypeAdapter(ActivityParams)
_ELEMENTS: dict[str, type[BaseModel]] = {
    cls.model_fields["type"].default: cls
    for _, cls in inspect.getmembers(cards, inspect.isclass)
    if issubclass(cls, BaseModel)
    and "type" in cls.model_fields
    and isinstance(cls.model_fields["type"].default, str)
}
"""Adaptive Card element and action types -> the SDK's model of each."""
_CHILDREN = ("body", "items", "inlines", "actions", "columns", "rows", "cells", "card")


@dataclass(frozen=True)
class Refused(Exception):
    """Teams' answer to what it refuses: status, error code, message."""

    status: int
    code: str
    message: str

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def utf16_size(body: dict[str, Any]) -> int:
    return len(json.dumps(body, ensure_ascii=False).encode("utf-16-le"))


def check_activity(body: dict[str, Any]) -> list[Refused]:
    """Everything Teams would refuse in ``body``, most decisive first (empty: it takes it)."""
    if utf16_size(body) > ACTIVITY_BYTES:
        return [Refused(413, "MessageSizeTooBig", "Message size too large")]
    refused: list[Refused] = []
    try:
        _ACTIVITY.validate_python(body)
    except ValidationError as error:
        for problem in error.errors():
            where = ".".join(str(part) for part in problem["loc"])
            refused.append(Refused(400, "BadArgument", f"{where}: {problem['msg']}"))
    refused += _entities(body)
    refused += _channel_data(body)
    refused += _attachments(body)
    return refused


def _entities(body: dict[str, Any]) -> list[Refused]:
    entities = body.get("entities") or []
    roots = [e for e in entities if isinstance(e, dict) and e.get("type") == ROOT]
    if len(roots) > 1:
        return [Refused(400, "BadArgument", "Multiple root message entities found")]
    refused: list[Refused] = []
    for root in roots:
        extra = [t for t in root.get("additionalType") or [] if t != "AIGeneratedContent"]
        if extra:
            refused.append(Refused(400, "BadArgument", f"additionalType {extra}"))
        citations = root.get("citation") or []
        if len(citations) > CITATIONS:
            refused.append(Refused(400, "BadArgument", "Bot message with more than 20 citations"))
        positions = [c.get("position") for c in citations if isinstance(c, dict)]
        if len(set(positions)) != len(positions):
            refused.append(Refused(400, "BadArgument", f"citation positions {positions}"))
        for citation in citations:
            refused += _citation(citation)
    return refused


def _citation(citation: Any) -> list[Refused]:
    position = citation.get("position") if isinstance(citation, dict) else None
    parsing = Refused(
        400, "BadArgument", f"Error while parsing citation entity with ID: {position}"
    )
    appearance = citation.get("appearance") if isinstance(citation, dict) else None
    if not appearance:
        return [Refused(400, "BadArgument", "The appearance object is empty")]
    text = appearance.get("text")
    if text is None:
        return []
    if appearance.get("encodingFormat") != CARD:
        return [parsing]
    try:
        card = json.loads(text)
    except ValueError:
        return [parsing]
    return [parsing] if card_problems(card) else []


def _channel_data(body: dict[str, Any]) -> list[Refused]:
    data = body.get("channelData") or {}
    loop = data.get("feedbackLoop")
    if loop is not None and (
        not isinstance(loop, dict) or loop.get("type") not in ("default", "custom")
    ):
        return [Refused(400, "BadArgument", f"channelData.feedbackLoop {loop!r}")]
    enabled = data.get("feedbackLoopEnabled")
    if enabled is not None and not isinstance(enabled, bool):
        return [Refused(400, "BadArgument", f"channelData.feedbackLoopEnabled {enabled!r}")]
    return []


def _attachments(body: dict[str, Any]) -> list[Refused]:
    refused: list[Refused] = []
    for index, attachment in enumerate(body.get("attachments") or []):
        if attachment.get("contentType") != CARD:
            continue
        for problem in card_problems(attachment.get("content")):
            refused.append(Refused(400, "BadArgument", f"attachments.{index}: {problem}"))
    return refused


def card_problems(element: Any, where: str = "card") -> list[str]:
    """What the SDK's Adaptive Card models refuse in ``element`` and everything in it: each
    element and action validated by the model of its ``type`` (an unknown one refused)."""
    if not isinstance(element, dict):
        return [f"{where}: not an object"]
    model = _ELEMENTS.get(str(element.get("type")))
    if model is None or (where == "card" and model.__name__ != "AdaptiveCard"):
        return [f"{where}: type {element.get('type')!r}"]
    try:
        model.model_validate(element)
    except ValidationError as error:
        return [f"{where}: {problem['msg']}" for problem in error.errors()]
    problems: list[str] = []
    for key in _CHILDREN:
        children = element.get(key)
        for index, child in enumerate(children if isinstance(children, list) else []):
            if isinstance(child, dict) or key != "inlines":  # an inline may be a plain string
                problems += card_problems(child, f"{where}.{key}.{index}")
    return problems
