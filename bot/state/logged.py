"""What the answer log keeps of one answer, as every backend stores it.

A record holds ids, counts and times; the question's and the answer's words only when
``ANSWER_LOG`` keeps them (``bot.answerlog`` decides what goes in). Never a token, a key or an
interaction token: no field could hold one but the words a person wrote.

A stored record may be one no worker can read (a disk's or a hand's damage, a write cut
short): it is checked whole when read (:func:`loads`), and a page of the log counts it instead
(:class:`LoggedBatch`), so that one bad record costs a report that record, not the report.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from pydantic import TypeAdapter

__all__ = [
    "FORGOTTEN",
    "HANDOFF",
    "PERSON",
    "LoggedAnswer",
    "LoggedBatch",
    "LoggedSource",
    "LoggedVote",
    "UnreadableRecord",
    "dumps",
    "fields_of",
    "loads",
]

FORGOTTEN = "forgotten"
"""Who a setting's change was made by, once that person asked to be forgotten."""
HANDOFF = "handoff"
"""The ``user`` of the vote that says a person was asked about an answer ("Ask a person",
``value`` :data:`PERSON`): kept beside the asker's own 👍/👎, not in place of it."""
PERSON = "person"


@dataclass(frozen=True, slots=True, kw_only=True)
class LoggedSource:
    """A source the answer cited: its title and link, and its quote's verdict once checked
    (``found``, ``not_found``, ``unreadable``; None: not checked)."""

    title: str | None = None
    url: str | None = None
    verdict: str | None = None
    trusted: bool | None = None
    """Whether it is among the place's trusted sources; None where the place names none."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LoggedVote:
    """One person's 👍 (``up``) or 👎 (``down``) on an answer, with why when they said."""

    user: str
    value: str
    at: float
    reason: str | None = None
    comment: str | None = None
    """The person's own words, kept only where ``ANSWER_LOG`` keeps questions."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LoggedAnswer:
    """One question and what became of it."""

    id: str
    at: float
    """When it was asked, seconds since the epoch."""
    platform: str
    server: str | None
    """The server, workspace or group; None in a conversation outside any."""
    channel: str | None
    asker: str
    """The asker's id on the platform (forget-me finds their records by it)."""
    language: str | None
    outcome: str
    """``answered``, ``interrupted``, ``failed``, ``filtered`` or ``refused``."""
    refused_by: str | None = None
    """Why a refused question was: ``rate_limit``, ``too_long``, ``daily_questions``,
    ``daily_questions_per_person`` or ``daily_tokens``."""
    first_text_seconds: float | None = None
    total_seconds: float | None = None
    model: str | None = None
    provider: str | None = None
    """The upstream's name as the configuration gives it (``magisterium``, its host)."""
    tokens: int = 0
    """Every token counted (input, system and output): what ``daily_tokens`` counts."""
    reported: Mapping[str, int] = field(default_factory=dict)
    """The upstream's own counts (``prompt``, ``completion``, ``total``, ``cached``,
    ``reasoning``, ``extra_reasoning``, ``system``, ``search_queries``), as far as it said
    them (:func:`bot.billing.reported_kinds` reads its kinds from them)."""
    estimated: Mapping[str, int] = field(default_factory=dict)
    """Kind (``input``, ``system``, ``output``) -> the tokens citebot estimated, for the kinds
    the upstream said nothing of."""
    cost: Decimal | None = None
    """US dollars, to the millionth; None when the provider's prices are unknown."""
    cost_reported: bool = False
    """The upstream said the cost (else it is the tokens at the provider's prices)."""
    question: str | None = None
    answer: str | None = None
    sources: tuple[LoggedSource, ...] = ()
    votes: tuple[LoggedVote, ...] = ()
    vote_key: str | None = None
    """The key the platform's vote buttons on this answer send (``PlatformKit.vote``)."""
    own_answer: str | None = None
    """The ID of the place's own answer it was given instead of the sources'."""

    @property
    def place(self) -> str | None:
        """The channel as a place is written (``discord:1/2``); None outside any server."""
        if self.server is None:
            return None
        channel = f"/{self.channel}" if self.channel else ""
        return f"{self.platform}:{self.server}{channel}"

    def voted(self, vote: LoggedVote) -> LoggedAnswer:
        """This record with ``vote`` in place of the same person's earlier one."""
        return replace(self, votes=(*self.unvoted(vote.user).votes, vote))

    def unvoted(self, user: str) -> LoggedAnswer:
        """This record without ``user``'s vote."""
        return replace(self, votes=tuple(kept for kept in self.votes if kept.user != user))

    def checked(self, verdicts: Sequence[str | None]) -> LoggedAnswer:
        """This record with its sources' verdicts (in order; None keeps one's)."""
        padded = [*verdicts, *[None] * len(self.sources)][: len(self.sources)]
        sources = tuple(
            replace(source, verdict=verdict) if verdict is not None else source
            for source, verdict in zip(self.sources, padded, strict=True)
        )
        return replace(self, sources=sources)


def dumps(record: LoggedAnswer) -> str:
    """One record as compact JSON (the form Redis keeps; SQLite keeps its lists so)."""
    fields: dict[str, Any] = {
        name: getattr(record, name)
        for name in LoggedAnswer.__dataclass_fields__
        if name not in ("sources", "votes", "cost")
        and getattr(record, name) not in (None, False, 0, {})
    }
    fields["id"], fields["at"] = record.id, record.at
    if record.cost is not None:  # as text: a JSON number would come back a float
        fields["cost"] = str(record.cost)
    fields["sources"] = [fields_of(source) for source in record.sources]
    fields["votes"] = [fields_of(vote) for vote in record.votes]
    return json.dumps(fields, ensure_ascii=False, separators=(",", ":"))


class UnreadableRecord(ValueError):
    """A stored record that is not one: not JSON, or a field missing or of another kind."""


class LoggedBatch(list[LoggedAnswer]):
    """A page of the answer log: the records read in it, and how many it held that could not be
    read (:attr:`unreadable`)."""

    __slots__ = ("unreadable",)

    def __init__(self, records: Iterable[LoggedAnswer] = (), *, unreadable: int = 0) -> None:
        super().__init__(records)
        self.unreadable = unreadable

    @classmethod
    def read(cls, texts: Iterable[str]) -> LoggedBatch:
        """The records ``texts`` hold, each one that cannot be read counted instead."""
        batch = cls()
        for text in texts:
            try:
                batch.append(loads(text))
            except UnreadableRecord:
                batch.unreadable += 1
        return batch


def loads(text: str) -> LoggedAnswer:
    """The record ``text`` holds, checked whole (an unknown field, a newer worker's, is
    ignored; an older worker's tokens read as :func:`_tokens` says); :class:`UnreadableRecord`
    when it is not one."""
    try:
        fields = json.loads(text)
        if not isinstance(fields, dict):
            raise UnreadableRecord("not a JSON object")
        whole: dict[str, Any] = {name: None for name in _MAY_BE_MISSING} | fields
        whole["sources"], whole["votes"] = _list(fields, "sources"), _list(fields, "votes")
        whole |= _tokens(fields)
        whole["cost"] = _cost(fields.get("cost"))
        return _RECORD.validate_python(whole)
    except (ValueError, RecursionError) as error:  # ValidationError is a ValueError
        raise UnreadableRecord(type(error).__name__) from None


def fields_of(item: LoggedSource | LoggedVote) -> dict[str, Any]:
    """A source's or a vote's fields as JSON keeps them (None left out)."""
    return {
        name: getattr(item, name)
        for name in type(item).__dataclass_fields__
        if getattr(item, name) is not None
    }


def _tokens(fields: Mapping[str, Any]) -> dict[str, Any]:
    """A record's tokens; one written before they were counted by kind (a total, estimated or
    not) as a total reported, or estimated as output."""
    tokens = fields.get("tokens", 0)
    reported, estimated = _counts(fields, "reported"), _counts(fields, "estimated")
    if tokens and not reported and not estimated:
        if fields.get("tokens_estimated"):
            estimated = {"output": tokens}
        else:
            reported = {"total": tokens}
    return {"tokens": tokens, "reported": reported, "estimated": estimated}


def _counts(fields: Mapping[str, Any], name: str) -> dict[str, int]:
    value = fields.get(name)
    if not isinstance(value, Mapping):
        return {}
    return {k: v for k, v in value.items() if isinstance(v, int) and not isinstance(v, bool)}


def _cost(value: object) -> Decimal | None:
    try:
        return Decimal(value) if isinstance(value, str) else None
    except InvalidOperation:
        return None


def _list(fields: Mapping[str, Any], name: str) -> list[Any]:
    """A list Lua's cjson may have written back as ``{}`` when it was empty."""
    value = fields.get(name)
    if value is None or value == {}:
        return []
    if not isinstance(value, list):
        raise UnreadableRecord(f"{name} is not a list")
    return value


_RECORD = TypeAdapter(LoggedAnswer)
_MAY_BE_MISSING = ("server", "channel", "language")
"""Fields :func:`dumps` leaves out when None and that have no default."""
