"""Checks a Teams payload against Teams' rules (the simulator's: the Teams SDK's models, then
Teams' documented limits) and citebot's own promises: only http(s) links, no ``<at>`` left to
read as a mention. An addendum (the answer's citations, closing lines and card) is checked as
the activity it becomes on the answer.

Used by the tests on everything the formatter makes; returns problems, never raises.
"""

from __future__ import annotations

import re
from typing import Any

from integrations.teams.cards import ADDENDUM
from tests.sim.teams.rules import check_activity

__all__ = ["as_activity", "root", "validate_teams_payload"]

_LINK = re.compile(r"(?<!\\)\]\(([^)\s]*)")
_LIVE = re.compile(r"<at\b", re.IGNORECASE)


def as_activity(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` as the activity Teams would get: an addendum on a message that marks each
    of its citations."""
    addendum = payload.get(ADDENDUM)
    if addendum is None:
        return payload
    citations = addendum.get("citation", [])
    markers = " ".join(f"[{c['position']}]" for c in citations) or "…"
    entity = root(citations)
    return {
        "type": "message",
        "textFormat": "markdown",
        "text": "\n\n".join([markers, *addendum.get("lines", [])]),
        "entities": [entity],
        "attachments": addendum.get("attachments", []),
    }


def root(citations: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    """A message's root entity: the AI label and ``citations``."""
    return {
        "type": "https://schema.org/Message",
        "@type": "Message",
        "@context": "https://schema.org",
        "@id": "",
        "additionalType": ["AIGeneratedContent"],
        "citation": citations,
    } | more


def validate_teams_payload(payload: dict[str, Any]) -> list[str]:
    activity = as_activity(payload)
    problems = [f"{refused.status} {refused.message}" for refused in check_activity(activity)]
    text = str(activity.get("text") or "")
    if not text.strip() and not activity.get("attachments"):
        problems.append("an empty message")
    for target in _LINK.findall(text):
        if not target.lower().startswith(("http://", "https://")):
            problems.append(f"link to {target[:60]!r}")
    if _LIVE.search(text):
        problems.append(f"an <at> tag in {text[:60]!r}")
    return problems
