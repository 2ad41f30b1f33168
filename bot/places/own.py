"""A place's own answers: questions its admins answer themselves (Mass times, the office hours,
the rules of the group), kept with the place's settings.

Each is a setting of its own, ``answer:ID``, whose value is the answer as JSON: so it is kept
wherever settings are (memory, SQLite, Redis), changed in one step, recorded in the settings'
history, exported and imported with them and forgotten with its place, and every worker sees
a change within the settings' cache second. An ID is the first letters of a digest of the
question as it is matched (:func:`answer_id`): the same question added again replaces its
answer instead of standing twice.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
import unicodedata
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.i18n.wording import Wording, catalogue_language
from bot.matching import language_of
from bot.places.place import Place
from bot.places.refused import Refusal, SettingRefused, made_or_refused, misshapen

__all__ = [
    "ANSWER_LIMIT",
    "MOST_OWN_ANSWERS",
    "OWN",
    "QUESTION_LIMIT",
    "OwnAnswer",
    "answer_id",
    "as_changed",
    "new_own_answer",
    "own_answer_said",
    "own_answers_of",
    "own_key",
]

OWN = "answer:"
"""The prefix of an own answer's key among its place's settings."""
QUESTION_LIMIT = 300
"""Characters of an own answer's question: one question, as a person would ask it."""
ANSWER_LIMIT = 1500
"""Characters of an own answer: one message on every platform, with its mark under it."""
MOST_OWN_ANSWERS = 100
"""Own answers a place keeps: enough for a community's every recurring question, and every
question asked there is matched against them."""
_ID_LENGTH = 6


@dataclass(frozen=True, slots=True, kw_only=True)
class OwnAnswer:
    """One question a place's admins answer themselves, and who set it, when."""

    id: str
    question: str
    answer: str
    by: str
    """Who set it: a platform user's id, or ``operator`` for the command line."""
    name: str
    """Their name as the platform showed it then (shown under the answer: an id would be a
    mention, and a mention pings)."""
    at: float
    """Seconds since the epoch."""
    language: str = "en"
    """The language its question is written in (a catalogue's, ``pt_BR``), as its words say
    (:func:`bot.matching.language_of`; where they say nothing, the admin's or the place's).
    Questions are matched against it as that language reads."""
    place: Place | None = None
    """Where it is kept: the channel's or the server's (None: not yet kept)."""

    @property
    def key(self) -> str:
        return own_key(self.id)

    def value(self) -> str:
        """Its setting's value: what the store keeps, and the history records."""
        body = {
            "question": self.question,
            "answer": self.answer,
            "by": self.by,
            "name": self.name,
            "at": round(self.at, 3),
            "language": self.language,
        }
        return json.dumps(body, ensure_ascii=False, separators=(",", ":"))

    def to_json(self) -> dict[str, Any]:
        """As ``citebot settings export`` writes it under its place's ``answers``."""
        return {"id": self.id, **json.loads(self.value())}


def own_key(answer: str) -> str:
    return f"{OWN}{answer.strip().lower()}"


def answer_id(question: str) -> str:
    """The ID a question's answer is kept under: case, width and spacing aside, the same
    question has the same ID, so adding it again replaces its answer."""
    folded = " ".join(unicodedata.normalize("NFKC", question).casefold().split())
    digest = hashlib.sha256(folded.rstrip("?!.。？！ ").encode("utf-8")).digest()
    return base64.b32encode(digest).decode("ascii")[:_ID_LENGTH].lower()


def new_own_answer(
    question: str,
    answer: str,
    *,
    by: str,
    name: str,
    language: str,
    at: float | None = None,
) -> OwnAnswer:
    """An own answer as an admin wrote it, checked; :class:`SettingRefused` (said in the
    admin's language) for an empty or over-long question or answer, or a question of more
    than one line."""
    question, answer = question.strip(), answer.strip()
    for what, text, limit in (
        ("question", question, QUESTION_LIMIT),
        ("answer", answer, ANSWER_LIMIT),
    ):
        _check(what, text, limit)
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in question):
        raise SettingRefused(lambda wording: wording.setting_one_line("question"))
    return OwnAnswer(
        id=answer_id(question),
        question=question,
        answer=answer,
        by=by,
        name=" ".join(name.split())[:80] or by,
        at=time.time() if at is None else at,
        language=language_of(question, catalogue_language(language) or "en"),
    )


def _check(what: str, text: str, limit: int) -> None:
    if not text:
        raise SettingRefused(lambda wording: wording.own_answer_empty(what))
    if len(text) > limit:
        length = len(text)
        raise SettingRefused(lambda wording: wording.setting_too_long(what, limit, length))
    if any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in text):
        raise SettingRefused(lambda wording: wording.setting_one_line(what))


def read_own_answer(key: str, value: str, place: Place | None = None) -> OwnAnswer | None:
    """The own answer a stored setting holds; None when it holds none (another setting, or a
    value no longer read)."""
    if not key.startswith(OWN):
        return None
    try:
        body = json.loads(value)
        return OwnAnswer(
            id=key.removeprefix(OWN),
            question=str(body["question"]),
            answer=str(body["answer"]),
            by=str(body.get("by", "")),
            name=str(body.get("name") or body.get("by", "")),
            at=float(body.get("at", 0.0)),
            language=catalogue_language(str(body.get("language", "en"))) or "en",
            place=place,
        )
    except (ValueError, TypeError, KeyError):
        return None


def as_changed(key: str, value: str | None) -> str | None:
    """A setting's value as a history shows it: an own answer as its question and the start
    of its answer, any other as it is."""
    own = read_own_answer(key, value) if value is not None else None
    if own is None:
        return value
    answer = own.answer if len(own.answer) <= 40 else own.answer[:39] + "…"
    return f"{own.question} → {answer}"


def own_answers_of(keys: Mapping[str, str], place: Place | None = None) -> list[OwnAnswer]:
    """The own answers among a place's stored settings, oldest first."""
    found = (read_own_answer(key, value, place) for key, value in keys.items())
    return sorted((own for own in found if own is not None), key=lambda own: (own.at, own.id))


def checked_own_answers(entries: object, *, where: str, language: str) -> dict[str, str]:
    """An exported place's ``answers`` as the settings they are kept in (key -> value), each
    checked as an admin's would be; :class:`SettingRefused` naming the first that is not
    right."""
    if not isinstance(entries, list) or len(entries) > MOST_OWN_ANSWERS:
        raise misshapen(f"{where}[answers]")
    kept: dict[str, str] = {}
    for index, entry in enumerate(entries):
        at = f"{where}[answers][{index}]"
        if not isinstance(entry, dict):
            raise misshapen(at)
        try:
            own = new_own_answer(
                str(entry.get("question", "")),
                str(entry.get("answer", "")),
                by=str(entry.get("by") or "operator"),
                name=str(entry.get("name") or entry.get("by") or "operator"),
                language=str(entry.get("language") or language),
                at=float(entry["at"]) if isinstance(entry.get("at"), int | float) else None,
            )
        except SettingRefused as refused:
            raise refused.at(at) from None
        kept[own.key] = own.value()
    return kept


async def own_answer_said(
    change: Awaitable[OwnAnswer], words: Wording, *, removed: bool = False
) -> str:
    """What an admin is told of an own answer kept (or ``removed``): its ID, else why not (the
    refusal in ``words``, or a store that did not save it)."""
    own = await made_or_refused(change, words)
    if isinstance(own, Refusal):
        return own.said
    return words.own_answer_removed(own.id) if removed else words.own_answer_saved(own.id)
